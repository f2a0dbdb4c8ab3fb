#!/usr/bin/env python3
"""Fuzzes the request path of `notepress serve` (issue 38): random and malformed requests sent to
a running server over raw sockets on 127.0.0.1, each checked against three oracles:

  1. it never serves a byte from outside the output folder: a secret file beside the output (and
     one the output links to by a symbolic link) must never appear in an answer;
  2. it always answers: every request that was sent whole gets a status line (or, for the
     library's own refusals of malformed requests, a closed connection) within 10 s, and a plain
     GET of a known page still answers 200 after each round;
  3. it never crashes: the process is alive after every round and, at the end, SIGINT stops it
     with status 0.

Usage: fuzz-serve.py [--seconds N] [--seed N] [--binary PATH]
Findings (the request and what came back) go to .build/fuzz-serve-findings/SEED/. Replay one
with --seed SEED --rounds 1. Bounded: at most --seconds (default 60) and --rounds rounds.
"""

import argparse
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECRET = "NOTEPRESS-SECRET-OUTSIDE-THE-OUTPUT"

PIECES = ["..", ".", "%2e%2e", "%2E%2E", "%2e", "%2f", "%2F", "%5c", "%00", "%", "%4", "%zz", "%c0%ae",
          "%e2%80%ae", "index.html", "a.html", "sub", "secret.txt", "link", ".notepress-manifest", "~",
          "up", "\\", "//", ";", "?x=1", "#frag", "%20", "%ff", "\u00e9", "a" * 300, "__notepress", "events", "live.js"]
METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PATCH", "G\x00T", "get", "GETT", ""]
VERSIONS = ["HTTP/1.1", "HTTP/1.0", "HTTP/0.9", "HTTP/2", "HTTP/1.1\x00", "", "HTTP/9.9"]


def random_path(rng):
    parts = [rng.choice(PIECES) for _ in range(rng.randint(0, 8))]
    sep = rng.choice(["/", "/", "/", "%2f", "\\", "//"])
    path = "/" + sep.join(parts)
    if rng.random() < 0.1:
        path = rng.choice(["", "*", "http://127.0.0.1/", "../x", "x"]) + path
    if rng.random() < 0.05:
        path += "%" + rng.choice(["", "0", "g"])
    return path


def random_request(rng):
    if rng.random() < 0.08:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 2000)))
    method = rng.choice(METHODS) if rng.random() < 0.3 else "GET"
    version = rng.choice(VERSIONS) if rng.random() < 0.2 else "HTTP/1.1"
    lines = [f"{method} {random_path(rng)} {version}"]
    headers = [("Host", "127.0.0.1")]
    for _ in range(rng.randint(0, 6)):
        headers.append(rng.choice([("If-None-Match", rng.choice(["*", '"x"', "W/\"1\"", ""])),
                                   ("If-Modified-Since", rng.choice(["Thu, 01 Jan 1970 00:00:00 GMT", "garbage", ""])),
                                   ("Range", rng.choice(["bytes=0-1", "bytes=-1", "bytes=99999999-", "x"])),
                                   ("Content-Length", rng.choice(["0", "5", "-1", "99999999999", "x"])),
                                   ("Transfer-Encoding", rng.choice(["chunked", "gzip", "x"])),
                                   ("X-Long", "v" * rng.choice([10, 1000, 40000])),
                                   ("Bad Header", "x"), ("", "x"), ("Connection", rng.choice(["close", "keep-alive"]))]))
    lines += [f"{k}: {v}" for k, v in headers]
    eol = rng.choice(["\r\n", "\r\n", "\n", "\r"])
    text = eol.join(lines) + eol + eol
    body = "x" * rng.randint(0, 100) if rng.random() < 0.1 else ""
    return (text + body).encode("utf-8", "surrogateescape")


def send(port, data, timeout=10):
    """The server's answer (bytes; b'' when it closed without one; what came before the timeout for a
    stream that stays open), or None when nothing came within the timeout."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        s.sendall(data)
        try:
            s.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        chunks = []
        while True:
            try:
                c = s.recv(65536)
            except socket.timeout:
                # An event stream (/__notepress/events) answers and stays open: what came is the
                # answer. Nothing at all within the time is no answer.
                return b"".join(chunks) if chunks else None
            except ConnectionResetError:
                break
            if not c:
                break
            chunks.append(c)
            if sum(map(len, chunks)) > 8 * 1024 * 1024:
                break
        return b"".join(chunks)
    finally:
        s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--rounds", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "notepress"))
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    work = tempfile.mkdtemp(prefix="notepress-fuzz-serve-")
    findings = os.path.join(ROOT, ".build", "fuzz-serve-findings", str(seed))
    inp, out = os.path.join(work, "in"), os.path.join(work, "out")
    os.makedirs(os.path.join(inp, "sub"))
    open(os.path.join(inp, "a.md"), "w").write("# A\n\nSee [[b]].\n")
    open(os.path.join(inp, "sub", "b.md"), "w").write("# B\n")
    open(os.path.join(work, "secret.txt"), "w").write(SECRET + "\n")
    proc = subprocess.Popen([a.binary, "serve", inp, "-o", out, "-q", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    problems = []

    def finding(kind, request, answer):
        os.makedirs(findings, exist_ok=True)
        n = len(problems)
        open(os.path.join(findings, f"{n}-request"), "wb").write(request)
        open(os.path.join(findings, f"{n}-answer"), "wb").write(answer or b"")
        problems.append(kind)
        print(f"fuzz-serve: seed {seed}: {kind}: {request[:200]!r}", file=sys.stderr)

    try:
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
        if not m:
            sys.exit("fuzz-serve: the server printed no URL")
        port = int(m.group(1))
        os.symlink(os.path.join(work, "secret.txt"), os.path.join(out, "link"))
        os.symlink(work, os.path.join(out, "up"))
        started = time.monotonic()
        rounds = 0
        while rounds < a.rounds and time.monotonic() - started < a.seconds:
            rounds += 1
            req = random_request(rng)
            try:
                ans = send(port, req)
            except OSError as e:
                ans = None
                finding(f"connection failed: {e}", req, b"")
            if ans is None:
                finding("no answer within 10 s", req, b"")
            elif SECRET.encode() in ans:
                finding("served a file outside the output", req, ans)
            elif ans and not ans.startswith(b"HTTP/1."):
                finding("answer without a status line", req, ans)
            if proc.poll() is not None:
                finding(f"the server ended (status {proc.returncode})", req, ans)
                break
            if rounds % 50 == 0 or rounds == a.rounds:
                ok = send(port, b"GET /a.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if not ok or not ok.startswith(b"HTTP/1.1 200"):
                    finding("a plain GET no longer answers 200", req, ok)
            if len(problems) >= 10:
                break
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                status = proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                status = "none (killed after 20 s)"
            if status != 0:
                problems.append(f"SIGINT ended it with status {status}")
        print(f"fuzz-serve: seed {seed}: {rounds} requests in {time.monotonic() - started:.0f} s, "
              f"{len(problems)} problem(s)", file=sys.stderr)
    finally:
        if proc.poll() is None:
            proc.kill()
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
