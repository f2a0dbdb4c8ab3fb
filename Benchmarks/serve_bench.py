"""The "save to reload" table of Benchmarks/run (issue 35): `notepress serve` on a copy of a
folder, a page of it open in headless Chromium, a note saved, the time until the page has
reloaded (Benchmarks/save_to_reload.py, over the DevTools protocol). `Benchmarks/run --only serve`
runs it alone."""

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time


def first_note(folder):
    """The folder's index note when it has one (the page a user opens first), else the first note."""
    for name in ("index.md", "index.note", "README.md"):
        if os.path.exists(os.path.join(folder, name)):
            return name
    for base, dirs, files in sorted(os.walk(folder)):
        dirs.sort()
        for f in sorted(files):
            if f.endswith((".md", ".note")) and not f.startswith("."):
                return os.path.relpath(os.path.join(base, f), folder)
    return None


def measure_folder(notepress, bench, work, label, folder, rounds, log):
    """Median, min and max save-to-reload in ms, and the figures, for one folder (a copy is edited)."""
    copy = os.path.join(work, "serve-" + re.sub(r"[^a-z0-9]+", "-", label.lower()))
    out_base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else work
    out = os.path.join(out_base, "notepress-bench-serve-out")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    log(f"save to reload: copying {label}")
    shutil.copytree(folder, copy, symlinks=True)
    note = first_note(copy)
    if note is None:
        return None
    page = os.path.splitext(note)[0] + ".html"
    started = time.monotonic()
    proc = subprocess.Popen([notepress, "serve", copy, "-o", out, "-q", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if not m:
            return None
        first_build = time.monotonic() - started
        r = subprocess.run([sys.executable, os.path.join(bench, "save_to_reload.py"), m.group(0) + page,
                            os.path.join(copy, note), "--rounds", str(rounds)],
                           stdout=subprocess.PIPE, text=True, timeout=600)
        figures = json.loads(r.stdout or "{}")
        figures["first_build_s"] = round(first_build, 2)
        figures["note"] = note
        return figures
    finally:
        proc.send_signal(2)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(copy, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)


def serve_section(p, log, notepress, bench, work, folders, runs):
    """Writes the table; returns the vault's median (ms) or None. `folders`: [(label, path)]."""
    rounds = max(runs, 5)
    p("## Save to reload (`notepress serve`)")
    p()
    p(f"`notepress serve DIR -o OUT --port 0` on a copy of the folder, OUT in a memory file system "
      f"when there is one; a page of it open in headless Chromium (Benchmarks/save_to_reload.py, "
      f"DevTools protocol); the note of that page saved {rounds} times as editors save (a temporary "
      f"file renamed over it), each time from the save to the reloaded page's load event. The "
      f"watcher waits for {25} ms of quiet after a burst of saves before it rebuilds.")
    p()
    p("| folder | first build s | median ms | min ms | max ms | reloads | scroll kept |")
    p("|---|---:|---:|---:|---:|---:|---|")
    vault = None
    for label, folder in folders:
        if not os.path.isdir(folder):
            p(f"| {label} | missing: {folder} | | | | | |")
            continue
        f = measure_folder(notepress, bench, work, label, folder, rounds, log)
        if not f or not f.get("times_ms"):
            p(f"| {label} | failed | | | | | |")
            continue
        t = f["times_ms"]
        kept = ("yes" if all(s == f["scroll_before"] for s in f["scroll_after"]) else "no") if f.get("scroll_checked") \
            else "– (page too short)"
        p(f"| {label} | {f['first_build_s']:.2f} | {statistics.median(t):.0f} | {min(t):.0f} | {max(t):.0f} | "
          f"{f['reloads']}/{rounds} | {kept} |")
        if vault is None:
            vault = statistics.median(t)
    p()
    return vault
