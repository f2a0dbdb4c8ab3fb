"""Issue 34 at scale (Benchmarks/run --only site-scale, and a section of the full run): a
folder of small linked, tagged notes, some in Japanese and Chinese (Benchmarks/make-scale), built
as a site by the release binary at each count, and searched in real Chromium.

Build: one fresh run into an emptied output folder (on /dev/shm when it is writable, so the
figure is notepress's, not the disk's), timed with /usr/bin/time -v: wall time, notes/s, user and
system CPU, peak resident memory, output size. Search: Benchmarks/chromium_probe.py opens a
note page of the built site from file:// and types each word into the header's search box; the
time is from the input event to the first suggestion rendered (the page's own clock), cold
(the page just loaded: lunr.js and the term's index files not loaded yet) and warm (typed again).
Target: the first result within 300 ms of typing."""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

WORDS = ["garden", "kyoto", "morning", "京都", "北京的"]


def scale_folder(bench, work, count, log):
    maker = os.path.join(bench, "make-scale")
    folder = os.path.join(work, f"scale-{count}")
    stamp = folder + ".stamp"
    key = hashlib.sha256(open(maker, "rb").read()).hexdigest() + str(count)
    if not (os.path.isdir(folder) and os.path.exists(stamp) and open(stamp).read() == key):
        log(f"generating {count} notes with Benchmarks/make-scale")
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run([maker, folder, "--count", str(count)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        open(stamp, "w").write(key)
    return folder


def timed(cmd):
    """(ok, wall s, user s, sys s, peak KiB) of `cmd` under /usr/bin/time -v."""
    t0 = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-v"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    def field(name):
        m = re.search(re.escape(name) + r": ([0-9.]+)", r.stderr)
        return float(m.group(1)) if m else 0.0
    return (r.returncode == 0, wall, field("User time (seconds)"), field("System time (seconds)"),
            int(field("Maximum resident set size (kbytes)")))


def site_scale_section(p, log, notepress, bench, work, counts):
    out_base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else work
    outdir = os.path.join(out_base, "notepress-bench-scale-out")
    p("## A site at 100 000 notes (issue 34)")
    p()
    p("Small notes (`Benchmarks/make-scale DIR --count N`: about 300 bytes each, front matter with two of 200 tags, "
      "a link to another note, one in twenty Japanese or Chinese; folders of 1 000), "
      "`convert DIR -o OUT -q` with the release binary, default jobs, one fresh build each into an emptied OUT "
      f"({'tmpfs' if out_base == '/dev/shm' else 'disk'}); `/usr/bin/time -v`. Search: `Benchmarks/chromium_probe.py search` "
      f"in headless Chromium from file://, words {', '.join(WORDS)}: input event to the first suggestion rendered "
      "(target ≤ 300 ms).")
    p()
    p("| notes | build s | notes/s | user s | sys s | peak MiB | output MiB | search cold ms (median / max) | search warm ms (max) |")
    p("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    figures = {}
    for count in counts:
        folder = scale_folder(bench, work, count, log)
        shutil.rmtree(outdir, ignore_errors=True)
        log(f"  building {count} notes")
        ok, wall, user, sys_s, peak = timed([notepress, "convert", folder, "-o", outdir, "-q"])
        if not ok:
            p(f"| {count:,} | failed | | | | | | | |")
            continue
        total = sum(os.path.getsize(os.path.join(b, n)) for b, _, ns in os.walk(outdir) for n in ns)
        page = os.path.join(outdir, "d000", "note-000001.html")
        r = subprocess.run([sys.executable, os.path.join(bench, "chromium_probe.py"), "search", "file://" + page] + WORDS,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        search = "failed | "
        try:
            s = json.loads(r.stdout.strip().splitlines()[-1])
            cold = sorted(x for x in s["cold_ms"] if x is not None)
            warm = [x for x in s["warm_ms"] if x is not None]
            missing = len(WORDS) - len(cold)
            search = (f"{cold[len(cold) // 2]:.0f} / {cold[-1]:.0f}" + (f" ({missing} without result)" if missing else "")
                      + f" | {max(warm):.0f}")
            figures[count] = {"cold": s["cold_ms"], "warm": s["warm_ms"], "first": s["first"]}
        except (ValueError, IndexError, KeyError):
            log(f"  search probe failed: {r.stderr[-500:]}")
        figures.setdefault(count, {}).update({"wall": wall, "user": user, "sys": sys_s, "peak_kib": peak, "bytes": total})
        p(f"| {count:,} | {wall:.1f} | {count / wall:,.0f} | {user:.1f} | {sys_s:.1f} | {peak / 1024:,.0f} | "
          f"{total / 2 ** 20:,.0f} | {search} |")
        shutil.rmtree(outdir, ignore_errors=True)
    p()
    return figures
