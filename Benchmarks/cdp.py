"""Headless Chromium driven over its DevTools protocol (python3-websocket), for the scripts of
Benchmarks/ that need a real browser: save_to_reload.py (serve's live reload) and
chromium_probe.py (the theme toggle's memory, search latency as typed).

    with Browser() as b:
        page = b.page()
        page.open("file:///...", timeout=10)
        page.evaluate("document.title")
"""

import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket  # Debian python3-websocket


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("chromium is not installed")


class Page:
    def __init__(self, ws_url):
        self.ws = websocket.create_connection(ws_url, timeout=30, suppress_origin=True)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        mid = self.next_id
        self.ws.send(json.dumps({"id": mid, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == mid:
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def evaluate(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return r.get("result", {}).get("value")

    def wait_event(self, method, deadline):
        while True:
            for i, e in enumerate(self.events):
                if e["method"] == method:
                    del self.events[: i + 1]
                    return e
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.ws.settimeout(left)
            try:
                msg = json.loads(self.ws.recv())
            except websocket.WebSocketTimeoutException:
                return None
            if "method" in msg:
                self.events.append(msg)

    def open(self, url, timeout=10):
        """Navigates to `url` and waits for its load event; False when it did not come."""
        self.events.clear()
        self.call("Page.navigate", url=url)
        return self.wait_event("Page.loadEventFired", time.monotonic() + timeout) is not None

    def reload(self, timeout=10):
        self.events.clear()
        self.call("Page.reload")
        return self.wait_event("Page.loadEventFired", time.monotonic() + timeout) is not None


class Browser:
    """Headless Chromium with its own profile (removed at the end) and a debugging port."""

    def __init__(self, window="800,600"):
        self.window = window

    def __enter__(self):
        self.profile = tempfile.mkdtemp(prefix="np-chromium-")
        self.proc = subprocess.Popen([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                      "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
                                      "--allow-file-access-from-files",
                                      f"--user-data-dir={self.profile}", f"--window-size={self.window}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.port = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            m = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if m:
                self.port = int(m.group(1))
                break
            if not line and self.proc.poll() is not None:
                break
        if self.port is None:
            self.__exit__(None, None, None)
            sys.exit("chromium did not open its debugging port")
        return self

    def page(self):
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=10))
        page = Page(next(t for t in targets if t["type"] == "page")["webSocketDebuggerUrl"])
        page.call("Page.enable")
        return page

    def __exit__(self, *exc):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)
        return False
