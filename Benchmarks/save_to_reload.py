#!/usr/bin/env python3
"""Save to reload: how long after a note is saved an open page of `notepress serve` has reloaded.

Starts headless Chromium with --remote-debugging-port, opens PAGE_URL, scrolls it, and drives it
through the DevTools protocol (python3-websocket): for each of N rounds it writes NOTE (a new
line appended to its text, as an editor saves: a temporary file renamed over it) and times the
save up to the reloaded page's load event. Prints one JSON object:

  {"reloads": N, "times_ms": [...], "median_ms": M, "scroll_before": Y, "scroll_after": [...],
   "scroll_checked": whether the page is tall enough to keep Y, "title_after": "...",
   "saved_text_shown": whether the reloaded page shows the last save}

Usage: save_to_reload.py PAGE_URL NOTE [--rounds N] [--scroll Y] [--timeout S]
Used by the tests (ServeBrowserTests) and by Benchmarks/run ("save to reload").
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

from cdp import Browser


def save(note, text):
    """Writes NOTE as editors do: a temporary file beside it, renamed over it."""
    folder = os.path.dirname(note) or "."
    fd, tmp = tempfile.mkstemp(prefix=".save-", dir=folder)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.rename(tmp, note)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("url")
    ap.add_argument("note")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--scroll", type=int, default=400)
    ap.add_argument("--timeout", type=float, default=10)
    a = ap.parse_args()

    with Browser() as browser:
        page = browser.page()
        if not page.open(a.url, timeout=a.timeout):
            sys.exit("save_to_reload.py: the page did not load")
        # Wait until the page's event stream is open (its first event reloads nothing).
        time.sleep(0.3)
        # Whether the page itself is tall enough to scroll that far (the reloaded page can only
        # restore a position its own height allows).
        room = page.evaluate("document.documentElement.scrollHeight - window.innerHeight")
        page.evaluate(f"document.body.style.minHeight = '5000px'; window.scrollTo(0, {a.scroll}); window.scrollY")
        scroll_before = page.evaluate("window.scrollY")
        original = open(a.note).read()
        times, scrolls = [], []
        for i in range(a.rounds):
            page.evaluate("window.__notepressMarker = 1")
            page.events.clear()
            start = time.monotonic()
            save(a.note, original + f"\nSaved {i + 1}.\n")
            if not page.wait_event("Page.loadEventFired", start + a.timeout):
                break
            times.append((time.monotonic() - start) * 1000)
            # The reloaded page restores the scroll position on its load event.
            page.evaluate("document.body.style.minHeight = '5000px'")
            time.sleep(0.1)
            scrolls.append(page.evaluate("window.__notepressMarker === undefined ? window.scrollY : -1"))
            time.sleep(0.2)
        title = page.evaluate("document.title")
        body = page.evaluate("document.body.innerText")
        print(json.dumps({"reloads": len(times), "times_ms": [round(t, 1) for t in times],
                          "median_ms": round(statistics.median(times), 1) if times else None,
                          "scroll_before": scroll_before, "scroll_after": scrolls, "title_after": title,
                          "scroll_checked": (room or 0) >= a.scroll,
                          "saved_text_shown": f"Saved {len(times)}." in (body or "")}))
        save(a.note, original)


if __name__ == "__main__":
    main()
