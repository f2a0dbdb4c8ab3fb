"""Issue 34 at scale (Benchmarks/run --only site-scale, and a section of the full run): a
folder of small linked, tagged notes, some in Japanese and Chinese (Benchmarks/make-scale), built
as a site by the release binary at each count, and searched in real Chromium.

Build: one fresh run into an emptied output folder (on /dev/shm when it is writable, so the
figure is notepress's, not the disk's), timed with /usr/bin/time -v: wall time, notes/s, user and
system CPU, peak resident memory, output size. Search: Benchmarks/chromium_probe.py opens a
note page of the built site from file:// and types each word into the header's search box; the
time is from the input event to the first suggestion rendered (the page's own clock), cold
(the page just loaded: lunr.js and the term's index files not loaded yet) and warm (typed again).
Target: the first result within 300 ms of typing.

Issue 46 item 5 (a second table from the same builds, which use --base-url so the sitemap is
written): the search index on disk (`_notepress/search/`) beside the HTML pages (target ≤ 25 %);
the build's CPU (user + system) beside a build without the index (NOTEPRESS_LUNR naming no file:
no index files are made) and, when `perf` can sample the process, the share of the samples in
the tokenizer (`SearchTerms`, which runs while pages are read, and its ICU calls) and the index
writer (`SiteSearch`) (target ≤ 15 %); and the sitemap: past 50 000 URLs an index of files of at
most 50 000 (issue 46 item 6), checked here because a folder that large is too slow for the
tests. NOTEPRESS_SCALE_COUNTS=20000,… sets the counts (a loaded machine)."""

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


def tree_bytes(root, keep):
    return sum(os.path.getsize(os.path.join(b, n)) for b, _, ns in os.walk(root) for n in ns if keep(os.path.join(b, n)))


def sitemap_check(outdir):
    """(files, URLs, largest file's URLs, every file within the protocol's limits) of the sitemap."""
    top = open(os.path.join(outdir, "sitemap.xml"), encoding="utf-8").read()
    if "<sitemapindex" not in top:
        n = top.count("<url>")
        return 1, n, n, n <= 50000
    names = re.findall(r"<loc>[^<]*/(sitemap-[0-9]+\.xml)</loc>", top)
    counts = [open(os.path.join(outdir, n), encoding="utf-8").read().count("<url>") for n in names]
    sizes = [os.path.getsize(os.path.join(outdir, n)) for n in names]
    return len(names), sum(counts), max(counts), max(counts) <= 50000 and max(sizes) <= 52428800


def perf_share(notepress, folder, outdir, log):
    """The share of perf's samples (with callers: inclusive) in the tokenizer and the index
    writer, or None when perf cannot sample here."""
    data = os.path.join(os.path.dirname(outdir), "notepress-bench-perf.data")
    shutil.rmtree(outdir, ignore_errors=True)
    r = subprocess.run(["perf", "record", "-q", "-F", "199", "-g", "-o", data, "--", notepress, "convert", folder, "-o", outdir, "-q"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        log(f"  perf record failed: {r.stderr[-300:]}")
        return None
    rep = subprocess.run(["perf", "report", "-i", data, "--children", "--stdio", "--no-demangle", "--sort", "sym", "-g", "none",
                          "--percent-limit", "0.5"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    os.remove(data)
    shares = {"tokenizer": 0.0, "index": 0.0}
    for line in rep.stdout.splitlines():
        m = re.match(r"\s*([0-9.]+)%\s+[0-9.]+%\s+\[\.\]\s+(\S+)", line)
        if not m:
            continue
        # The outermost functions of each (their callees are in their "children" share); release
        # builds name them with specialisation suffixes, and "SiteSearch" as "0B6Search".
        sym = m.group(2)
        if sym.startswith("$s13NotepressSite11SearchTermsO5terms_4into"):
            shares["tokenizer"] = max(shares["tokenizer"], float(m.group(1)))
        elif re.match(r"\$s13NotepressSite(10Site|0B6)SearchO5files_11lunrVersion", sym):
            shares["index"] = max(shares["index"], float(m.group(1)))
        elif sym.startswith("$s13NotepressSite11SearchTermsO9foldTable"):  # meta.js's folding table, made once
            shares["fold"] = max(shares.get("fold", 0.0), float(m.group(1)))
    shares["index"] += shares.pop("fold", 0.0)
    return shares


def site_scale_section(p, log, notepress, bench, work, counts):
    if os.environ.get("NOTEPRESS_SCALE_COUNTS"):
        counts = [int(c) for c in os.environ["NOTEPRESS_SCALE_COUNTS"].split(",")]
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
        ok, wall, user, sys_s, peak = timed([notepress, "convert", folder, "-o", outdir, "-q", "--base-url", "https://example.org/"])
        if not ok:
            p(f"| {count:,} | failed | | | | | | | |")
            continue
        total = tree_bytes(outdir, lambda f: True)
        html = tree_bytes(outdir, lambda f: f.endswith(".html"))
        index = tree_bytes(os.path.join(outdir, "_notepress", "search"), lambda f: True)
        maps = sitemap_check(outdir)
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
        figures.setdefault(count, {}).update({"wall": wall, "user": user, "sys": sys_s, "peak_kib": peak, "bytes": total,
                                              "html_bytes": html, "index_bytes": index, "sitemap": maps})
        p(f"| {count:,} | {wall:.1f} | {count / wall:,.0f} | {user:.1f} | {sys_s:.1f} | {peak / 1024:,.0f} | "
          f"{total / 2 ** 20:,.0f} | {search} |")
        shutil.rmtree(outdir, ignore_errors=True)
        log(f"  building {count} notes without the search index")
        env = dict(os.environ, NOTEPRESS_LUNR="/nonexistent/lunr.js")
        t0 = time.perf_counter()
        r = subprocess.run(["/usr/bin/time", "-f", "%U %S", notepress, "convert", folder, "-o", outdir, "-q", "--base-url", "https://example.org/"],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            u, s_ = (float(x) for x in r.stderr.strip().splitlines()[-1].split())
            figures[count]["cpu_without_index"] = u + s_
        except ValueError:
            log(f"  build without the index failed: {r.stderr[-300:]}")
        figures[count]["perf"] = perf_share(notepress, folder, outdir, log) if shutil.which("perf") else None
        shutil.rmtree(outdir, ignore_errors=True)
    p()
    p("### Search at scale (issue 46, items 5 and 6)")
    p()
    p("The same builds (with `--base-url`): the search index on disk (`_notepress/search/`) beside the HTML pages "
      "(target ≤ 25 %); build CPU (user + system) with the index and without it (NOTEPRESS_LUNR naming no file), and "
      "`perf record -g` samples (inclusive) in the tokenizer (`SearchTerms.terms`, while pages are read) and the "
      "index writer (`SiteSearch.files`) (target: together ≤ 15 %); the sitemap's files and URLs (≤ 50 000 a file).")
    p()
    p("| notes | HTML MiB | index MiB | index / HTML | build CPU s | without index CPU s | index files share | perf: tokenizer + writer | sitemap files / URLs (largest) |")
    p("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for count in counts:
        f = figures.get(count)
        if not f or "html_bytes" not in f:
            continue
        cpu = f["user"] + f["sys"]
        without = f.get("cpu_without_index")
        share = f"{(cpu - without) / cpu * 100:.1f} %" if without else "–"
        pf = f.get("perf")
        perf = f"{pf['tokenizer']:.1f} % + {pf['index']:.1f} %" if pf else "–"
        files, urls, largest, ok = f["sitemap"]
        p(f"| {count:,} | {f['html_bytes'] / 2 ** 20:,.1f} | {f['index_bytes'] / 2 ** 20:,.1f} | "
          f"{f['index_bytes'] / max(1, f['html_bytes']) * 100:.1f} % | {cpu:.1f} | {without or 0:.1f} | {share} | {perf} | "
          f"{files} / {urls:,} ({largest:,}){'' if ok else ' OVER THE LIMIT'} |")
    p()
    return figures
