#!/usr/bin/env python3
"""Real Chromium (headless, over DevTools: cdp.py) on a built site, from file://.

  chromium_probe.py theme PAGE_URL
      The light/dark toggle's memory: clicks the toggle (auto → light → dark → auto), reloading
      the page after each click. Prints {"steps": [{"clicked": N, "stored": ..., "data_theme":
      ..., "label": ..., "after_reload": {...}}, ...]}: what the page shows after each click and
      again after the reload.

  chromium_probe.py search PAGE_URL WORD... [--timeout S]
      Search latency as a reader types: for each WORD, the page is loaded fresh (nothing of the
      index loaded yet), WORD is typed into the header's search box (Input.insertText, one input
      event) and the time is taken from that input event to the first suggestion rendered in the
      box (a MutationObserver), both on the page's clock; then the same again on the warm page.
      Prints {"words": [...], "cold_ms": [...], "warm_ms": [...], "first": [first result's title]}.

Used by SiteNavigationTests (theme) and Benchmarks/run --only site-search (search).
"""

import argparse
import json
import sys
import time

from cdp import Browser

STATE = """(() => {
  const t = document.querySelector('.theme-toggle');
  return {stored: localStorage.getItem('notepress-theme'), data_theme: document.documentElement.getAttribute('data-theme'),
          label: t ? t.textContent : null,
          background: getComputedStyle(document.body).backgroundColor};
})()"""

# Installed before typing: the input event's time, and the time the box first holds a result.
ARM = """(() => {
  const input = document.querySelector('.site-search input[name=q]');
  const box = document.querySelector('.site-search .search-suggestions');
  if (!input || !box) return false;
  input.value = ''; box.textContent = '';
  window.__np = {t0: null, t1: null, first: null};
  document.addEventListener('input', () => { if (window.__np.t0 === null) window.__np.t0 = performance.now(); }, true);
  new MutationObserver(() => {
    if (window.__np.t1 === null && box.querySelector('a')) {
      window.__np.t1 = performance.now(); window.__np.first = box.querySelector('a').textContent;
    }
  }).observe(box, {childList: true, subtree: true});
  input.focus();
  return true;
})()"""


def theme(a):
    with Browser() as b:
        page = b.page()
        if not page.open(a.url, timeout=a.timeout):
            sys.exit("chromium_probe.py: the page did not load")
        steps = [{"clicked": 0, **page.evaluate(STATE)}]
        for n in range(1, 4):
            page.evaluate("document.querySelector('.theme-toggle').click()")
            step = {"clicked": n, **page.evaluate(STATE)}
            page.reload(timeout=a.timeout)
            step["after_reload"] = page.evaluate(STATE)
            steps.append(step)
        print(json.dumps({"steps": steps}))


def type_and_wait(page, word, timeout):
    if not page.evaluate(ARM):
        sys.exit("chromium_probe.py: the page has no search box")
    page.call("Input.insertText", text=word)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = page.evaluate("window.__np")
        if r and r.get("t1") is not None and r.get("t0") is not None:
            return round(r["t1"] - r["t0"], 1), r["first"]
        time.sleep(0.005)
    return None, None


def search(a):
    cold, warm, first = [], [], []
    with Browser() as b:
        page = b.page()
        for w in a.words:
            if not page.open(a.url, timeout=a.timeout):
                sys.exit("chromium_probe.py: the page did not load")
            ms, title = type_and_wait(page, w, a.timeout)
            cold.append(ms)
            first.append(title)
            ms, _ = type_and_wait(page, w, a.timeout)
            warm.append(ms)
    print(json.dumps({"words": a.words, "cold_ms": cold, "warm_ms": warm, "first": first}))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="what", required=True)
    t = sub.add_parser("theme")
    t.add_argument("url")
    s = sub.add_parser("search")
    s.add_argument("url")
    s.add_argument("words", nargs="+")
    for p in (t, s):
        p.add_argument("--timeout", type=float, default=15)
    a = ap.parse_args()
    theme(a) if a.what == "theme" else search(a)


if __name__ == "__main__":
    main()
