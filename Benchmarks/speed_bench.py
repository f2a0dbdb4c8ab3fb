"""Issue 37, "At C speed": every writer and every file size against cmark-gfm and lowdown, in one
run (`Benchmarks/run`, or alone: `Benchmarks/run --only speed [--quick]`).

Each row runs notepress and its peer alternately (a, b, a, b, …, after one warm-up each) and
gives, for each, the median CPU time (user + system of the whole process, from wait4) and the
median peak resident set, then the median of the pairwise ratios a/b: CPU and wall. Beside it, the
instructions each process executes (valgrind's callgrind: the same count on a busy machine as on a
quiet one). The target of each row is checked on the pairwise CPU ratio; the instruction ratio says
whether a miss is the machine's or ours.
"""
import os
import re
import shutil
import statistics
import subprocess
import time

CMARK_EXT = ["-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tagfilter", "-e", "tasklist"]


def run_once(cmd, cwd=None, log_file=None, before=None):
    """(wall s, CPU s, peak RSS KiB, exit status) of one whole process. The peak resident set
    comes from `/usr/bin/time` (`log_file`): the rusage of a child spawned from Python counts
    Python's own pages (the kernel keeps the high-water mark across exec), so it is read off a
    second run under `time`, whose own few MiB stay below any of ours."""
    t0 = time.perf_counter()
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(cmd, stdout=null, stderr=null, cwd=cwd)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    peak = float("nan")
    if log_file and code == 0:
        if before:
            before()
        with open(os.devnull, "wb") as null:
            subprocess.run(["/usr/bin/time", "-f", "%M", "-o", log_file] + cmd, stdout=null, stderr=null, cwd=cwd)
        try:
            peak = int(open(log_file).read().split()[-1])
        except (OSError, ValueError, IndexError):
            pass
    return wall, ru.ru_utime + ru.ru_stime, peak, code


class Pair:
    """Alternating runs of `a` and `b` (b may be None: `a` alone)."""

    def __init__(self, a, b, runs, before=None, warmup=True, log_file="/tmp/notepress-speed-time.out"):
        self.ok, self.error = True, ""
        self.a, self.b = [], []
        cmds = [a] + ([b] if b else [])
        if warmup:
            for c in cmds:
                if before:
                    before()
                if run_once(c)[3] != 0:
                    self.ok, self.error = False, f"exit status of {' '.join(c[:3])} …"
                    return
        for k in range(runs):
            for c, into in zip(cmds, [self.a, self.b]):
                if before:
                    before()
                # The peak memory: from the first three runs (its median moves little).
                r = run_once(c, log_file=log_file if k < 3 else None, before=before)
                if r[3] != 0:
                    self.ok, self.error = False, f"exit {r[3]}: {' '.join(c[:3])} …"
                    return
                into.append(r)

    def median(self, side, k):
        xs = [x[k] for x in (self.a if side == 0 else self.b) if x[k] == x[k]]
        return statistics.median(xs) if xs else float("nan")

    def cpu(self, side=0):
        return self.median(side, 1)

    def wall(self, side=0):
        return self.median(side, 0)

    def mem(self, side=0):
        return self.median(side, 2)

    def ratio(self, k):
        """Median of the pairwise ratios a/b of field k (0 wall, 1 CPU, 2 memory)."""
        if not self.b:
            return float("nan")
        rs = [x[k] / max(y[k], 1e-9) for x, y in zip(self.a, self.b) if x[k] == x[k] and y[k] == y[k]]
        return statistics.median(rs) if rs else float("nan")


class Instructions:
    """callgrind's instruction count of a whole process, cached per command. valgrind cannot read
    the DWARF 5 debug information of our release build, so it runs a copy without it
    (objcopy --strip-debug), with the highlighting shim beside it."""

    def __init__(self, notepress, work, enabled=True):
        self.notepress, self.work = notepress, work
        self.enabled = enabled and shutil.which("valgrind") is not None and shutil.which("objcopy") is not None
        self.cache = {}
        self.copy = os.path.join(work, "notepress-nodebug")

    def _binary(self, cmd):
        if cmd[0] != self.notepress:
            return cmd
        if not os.path.exists(self.copy) or os.path.getmtime(self.copy) < os.path.getmtime(self.notepress):
            subprocess.run(["objcopy", "--strip-debug", self.notepress, self.copy], check=True)
            for f in os.listdir(os.path.dirname(self.notepress)):
                if f.startswith("libNotepressSyntaxShim"):
                    shutil.copy(os.path.join(os.path.dirname(self.notepress), f), os.path.join(self.work, f))
        return [self.copy] + cmd[1:]

    def __call__(self, cmd, before=None):
        if not self.enabled or cmd is None:
            return None
        key = tuple(cmd)
        if key not in self.cache:
            if before:
                before()
            r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + self._binary(cmd),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            m = re.search(r"Collected : (\d+)", r.stderr)
            self.cache[key] = int(m.group(1)) if m and r.returncode == 0 else None
        return self.cache[key]


def _mi(n):
    return "–" if n is None else f"{n / 1e6:,.1f}"


def _ms(s):
    return "–" if s != s else (f"{s * 1000:.0f}" if s >= 0.1 else f"{s * 1000:.2f}")


def _x(r):
    return "–" if r is None or r != r else f"{r:.2f}×"


def speed_section(p, log, notepress, work, files, concat, md, quick=False, runs=7, folder=None, nfiles=0, root=None):
    """The issue 37 table and targets; returns [(target, figure, met)]. With `root` (the package),
    also the thread-sanitiser folder run (``tsan_section``)."""
    ins = Instructions(notepress, work)
    rows = []      # (label, Pair, np instr, peer instr, peer name)
    targets = []

    def row(label, a, b, peer, before=None, n=runs, warmup=True, instr=True):
        log(f"speed: {label}")
        pr = Pair(a, b, n, before=before, warmup=warmup)
        ia = ins(a, before) if instr else None
        ib = ins(b, before) if instr and b else None
        rows.append((label, pr, ia, ib, peer))
        return pr, ia, ib

    def np(path, fmt, *extra):
        return [notepress, "convert", path, "-t", fmt, "-q"] + list(extra)

    def cmark(path, *extra):
        return ["cmark-gfm"] + list(extra) + CMARK_EXT + [path]

    def met_text(pr, ia, ib, limit, what=1):
        r = pr.ratio(what)
        return r, (r <= limit if r == r else False), (ia / ib if ia and ib else None)

    def add(name, figure, met):
        targets.append((name, figure, met))

    # Start-up.
    small = os.path.join(work, "small-1KB.md")
    head = open(concat, "rb").read()[:1024]
    head = head[:head.rfind(b"\n") + 1]
    if not os.path.exists(small) or open(small, "rb").read() != head:
        open(small, "wb").write(head)
    v = row("`--version`", [notepress, "--version"], ["cmark-gfm", "--version"], "cmark-gfm", n=max(runs, 15))
    s1 = row("1 KB → HTML fragment", np(small, "html", "--fragment"), cmark(small), "cmark-gfm", n=max(runs, 15))
    parts = []
    ok = True
    for name, (pr, ia, ib) in [("--version", v), ("1 KB", s1)]:
        r, m, ir = met_text(pr, ia, ib, 2.0)
        ok = ok and m
        parts.append(f"{name} {_x(r)} CPU, {_x(ir)} instructions")
    add("start-up: `--version` and a 1 KB note → HTML within 2× of cmark-gfm", "; ".join(parts), ok)

    # HTML fragment: corpus concatenated, synthetic sizes, every single corpus file.
    html = []
    c = row("corpus (concatenated) → HTML fragment", np(concat, "html", "--fragment"), cmark(concat), "cmark-gfm")
    html.append(("corpus", c))
    for s in sorted(md):
        html.append((f"{s} MB", row(f"synthetic {s} MB → HTML fragment", np(md[s], "html", "--fragment"), cmark(md[s]),
                                    "cmark-gfm", n=min(runs, 5) if s >= 16 else runs, instr=not (quick and s >= 16))))
    parts, ok = [], True
    for name, (pr, ia, ib) in html:
        r, m, ir = met_text(pr, ia, ib, 1.0)
        ok = ok and m
        parts.append(f"{name} {_x(r)} ({_x(ir)} instr.)")
    add("HTML fragment ≤ 1.0× cmark-gfm on the corpus and on " + "/".join(str(s) for s in sorted(md)) + " MB",
        ", ".join(parts), ok)
    singles = []
    for f in files:
        pr, ia, ib = row(f"{os.path.basename(f)} → HTML fragment", np(f, "html", "--fragment"), cmark(f), "cmark-gfm",
                         instr=not quick)
        singles.append((os.path.basename(f), pr, ia, ib))
    worst = max(singles, key=lambda x: x[1].ratio(1))
    add("HTML fragment ≤ 2× cmark-gfm on every single corpus file",
        f"worst {worst[0]} {_x(worst[1].ratio(1))} CPU ({_x(worst[2] / worst[3] if worst[2] and worst[3] else None)} instr.)",
        all(x[1].ratio(1) <= 2.0 for x in singles))

    # Memory: the corpus (from the row above) and a 22 KB file.
    f22 = min(files, key=lambda f: abs(os.path.getsize(f) - 22 * 1024))
    m22 = next(x for x in singles if x[0] == os.path.basename(f22))[1]
    cm = html[0][1][0]
    add("peak memory ≤ 1.5× cmark-gfm's on the corpus, ≤ 2× on a 22 KB file",
        f"corpus {cm.mem(0) / 1024:.1f} vs {cm.mem(1) / 1024:.1f} MiB ({_x(cm.ratio(2))}); {os.path.basename(f22)} "
        f"({os.path.getsize(f22) // 1024} KB) {m22.mem(0) / 1024:.1f} vs {m22.mem(1) / 1024:.1f} MiB ({_x(m22.ratio(2))})",
        cm.ratio(2) <= 1.5 and m22.ratio(2) <= 2.0)

    # man and terminal.
    mc = row("corpus → man", np(concat, "man"), ["cmark-gfm", "-t", "man"] + CMARK_EXT + [concat], "cmark-gfm -t man")
    ml = row("corpus → man", np(concat, "man"), ["lowdown", "-Tman", concat], "lowdown -Tman")
    tl = row("corpus → terminal (80 columns)", np(concat, "ansi", "--color", "always", "--width", "80"),
             ["lowdown", "-Tterm", "--term-width", "80", concat], "lowdown -Tterm")
    r, m, ir = met_text(*mc, 1.3)
    add("man ≤ 1.3× `cmark-gfm -t man` (corpus)", f"{_x(r)} CPU, {_x(ir)} instructions", m)
    r1, m1, ir1 = met_text(*ml, 2.5)
    r2, m2, ir2 = met_text(*tl, 2.5)
    add("man and terminal ≤ 2.5× lowdown (corpus; lowdown breaks no lines by UAX #14 and measures no "
        "grapheme widths, East Asian widths or emoji, which notepress does)",
        f"man {_x(r1)} ({_x(ir1)} instr.), terminal {_x(r2)} ({_x(ir2)} instr.)", m1 and m2)

    # Writers against our own HTML page path.
    page = np(concat, "html")
    wr = {}
    for name, cmd in [("tei (validated)", np(concat, "tei")), ("rtf", np(concat, "rtf")),
                      ("ansi", np(concat, "ansi", "--color", "always", "--width", "80"))]:
        wr[name] = row(f"corpus → {name}", cmd, page, "notepress HTML page")
    r, m, ir = met_text(*wr["tei (validated)"], 1.5)
    add("TEI with validation ≤ 1.5× the HTML page path (corpus)", f"{_x(r)} CPU, {_x(ir)} instructions", m)
    parts, ok = [], True
    for name in ["rtf", "ansi"]:
        r, m, ir = met_text(*wr[name], 1.3)
        ok = ok and m
        parts.append(f"{name} {_x(r)} ({_x(ir)} instr.)")
    add("RTF and ANSI ≤ 1.3× the HTML page path (corpus)", ", ".join(parts), ok)

    # pandoc on the 22 KB page: hold its 13×.
    pd = None
    if shutil.which("pandoc"):
        pd = row(f"{os.path.basename(f22)} → HTML page, pandoc", ["pandoc", "-s", "-f", "gfm", "-t", "html",
                 "--metadata", "title=x", f22], np(f22, "html"), "notepress", n=min(runs, 5), instr=False)
        r = pd[0].ratio(1)
        add("pandoc takes ≥ 13× longer on the 22 KB page (hold)", f"pandoc/notepress {_x(r)} CPU", r >= 13)

    # Folder.
    if folder:
        out_base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else work
        outs = {j: os.path.join(out_base, f"notepress-speed-out-j{j}") for j in (1, 2)}

        def empty(j):
            return lambda: shutil.rmtree(outs[j], ignore_errors=True)
        conv = {j: [notepress, "convert", folder, "-o", outs[j], "-t", "html", "-q", "-j", str(j)] for j in (1, 2)}
        fr = 3 if quick else min(runs, 5)
        log("speed: folder -j 1 / -j 2")
        j1 = Pair(conv[1], None, fr, before=empty(1), warmup=False)
        j2 = Pair(conv[2], None, fr, before=empty(2), warmup=False)
        log("speed: folder no-change re-run")
        rerun = Pair(conv[2], None, fr, warmup=False)
        rate = nfiles / j2.wall() if j2.ok else 0
        speedup = j1.wall() / j2.wall() if j1.ok and j2.ok else 0
        share = rerun.wall() / j2.wall() if rerun.ok and j2.ok else 1
        # Instructions per note: a 1 000-note part of the folder, -j 1.
        part = sorted(d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d)))
        per_note = None
        if part and ins.enabled:
            sub = os.path.join(folder, part[0])
            count = sum(len(fs) for _, _, fs in os.walk(sub))
            o = os.path.join(out_base, "notepress-speed-out-sub")
            n = ins([notepress, "convert", sub, "-o", o, "-t", "html", "-q", "-j", "1"],
                    before=lambda: shutil.rmtree(o, ignore_errors=True))
            shutil.rmtree(o, ignore_errors=True)
            per_note = (n / count, count) if n else None
        rows.append((f"folder of {nfiles} notes → HTML, `-j 1`", j1, None, None, ""))
        rows.append((f"folder of {nfiles} notes → HTML, `-j 2`", j2, None, None, ""))
        rows.append(("no-change re-run, `-j 2`", rerun, None, None, ""))
        for d in list(outs.values()):
            shutil.rmtree(d, ignore_errors=True)
        add(f"folder: {nfiles} notes → HTML with `-j 2` ≥ 15 000 notes/s",
            f"{rate:,.0f} notes/s" + (f"; {per_note[0] / 1e6:.2f} M instructions per note (callgrind, "
                                      f"{per_note[1]} notes, -j 1)" if per_note else ""), rate >= 15000)
        add("folder: a no-change re-run ≤ 10 % of a first run", f"{100 * share:.1f} %", share <= 0.10)
        add("folder: `-j 2` ≥ 1.9× faster than `-j 1` (wall)", f"{speedup:.2f}×", speedup >= 1.9)

    tsan_lines = []
    if root and folder:
        targets.append(tsan_section(lambda line="": tsan_lines.append(line), log, root, work, folder))

    # The table.
    p("## At C speed: every writer and every file size (issue 37)")
    p()
    p("Each row runs notepress (a) and its peer (b) alternately, one warm-up each, then the medians: CPU "
      "time (user + system of the whole process) and peak resident set, and the median of the pairwise "
      "ratios a/b (CPU and wall). Instructions: valgrind's callgrind, the whole process, one run "
      "(repeatable on a busy machine). Folder rows: wall time, notepress alone.")
    p()
    p("| row | peer | np CPU ms | peer CPU ms | CPU a/b | wall a/b | np MiB | peer MiB | np M instr. | peer M instr. | instr. a/b |")
    p("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, pr, ia, ib, peer in rows:
        if not pr.ok:
            p(f"| {label} | {peer} | failed: {pr.error} | | | | | | | | |")
            continue
        if not pr.b:
            p(f"| {label} | – | {_ms(pr.cpu())} (wall {_ms(pr.wall())}) | – | – | – | {pr.mem() / 1024:.1f} | – | – | – | – |")
            continue
        p(f"| {label} | {peer} | {_ms(pr.cpu(0))} | {_ms(pr.cpu(1))} | {_x(pr.ratio(1))} | {_x(pr.ratio(0))} | "
          f"{pr.mem(0) / 1024:.1f} | {pr.mem(1) / 1024:.1f} | {_mi(ia)} | {_mi(ib)} | {_x(ia / ib if ia and ib else None)} |")
    p()
    for line in tsan_lines:
        p(line)
    p("### Issue 37 targets")
    p()
    p("| target | figure | met |")
    p("|---|---|---|")
    for name, figure, met in targets:
        p(f"| {name} | {figure} | {'**yes**' if met else '**no**'} |")
    p()
    return targets


def tsan_section(p, log, root, work, folder, notes=2000):
    """The folder run under the thread sanitiser: the parse lock around libcmark-gfm's global
    special-character table, and every other shared state, race-free at -j 2. Builds
    `.build/tsan` (debug, -sanitize=thread) once; returns (target, figure, met)."""
    log("speed: thread-sanitiser build (.build/tsan)")
    scratch = os.path.join(root, ".build", "tsan")
    b = subprocess.run(["swift", "build", "--scratch-path", scratch, "--sanitize=thread", "--product", "notepress"],
                       cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    name = "thread sanitiser: a folder run with `-j 2` reports no data race"
    if b.returncode != 0:
        return (name, "the TSan build failed: " + (b.stderr.strip().splitlines() or ["?"])[-1][:200], False)
    binary = os.path.join(scratch, "debug", "notepress")
    # A part of the folder: the first subfolders up to `notes` notes.
    sub = os.path.join(work, "tsan-notes")
    if not os.path.isdir(sub):
        os.makedirs(sub)
        n = 0
        for d in sorted(os.listdir(folder)):
            if n >= notes or not os.path.isdir(os.path.join(folder, d)):
                continue
            shutil.copytree(os.path.join(folder, d), os.path.join(sub, d))
            n += sum(len(fs) for _, _, fs in os.walk(os.path.join(sub, d)))
    count = sum(len(fs) for _, _, fs in os.walk(sub))
    out = os.path.join(work, "tsan-out")
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, TSAN_OPTIONS="halt_on_error=0 exitcode=66")
    log(f"speed: TSan folder run ({count} notes, -j 2, every format)")
    r = subprocess.run([binary, "convert", sub, "-o", out, "-t", "html,rtf,ansi,tei,man,json", "-q", "-j", "2"],
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    shutil.rmtree(out, ignore_errors=True)
    races = r.stderr.count("WARNING: ThreadSanitizer")
    figure = f"{count} notes, six formats: {races} reports, exit {r.returncode}"
    p(f"Thread sanitiser (issue 37): `swift build --sanitize=thread`, `notepress convert` of {count} notes "
      f"to all six formats with `-j 2`: {races} ThreadSanitizer reports, exit status {r.returncode}.")
    p()
    return (name, figure, races == 0 and r.returncode == 0)
