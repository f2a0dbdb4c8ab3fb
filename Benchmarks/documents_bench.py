"""Issues 48 and 49: the shared documents (DOCX, ODT, EPUB, PDF) beside the tools users would pick
instead: pandoc 2.17 for DOCX, ODT and EPUB; pandoc to HTML then WeasyPrint, and Chromium's
print-to-PDF of our own page, for PDF. Used by Benchmarks/run (`--only documents`, and the full run).

Figures are CPU seconds (user + system of the whole process tree, `wait4`), the median of `runs`
runs after a warm-up run, so that a busy shared machine moves them less than wall times; peak
memory is the largest resident set of the runs. Targets (issues 48, 49): each package ≥ 10× faster
than pandoc and ≤ 1.5× our HTML page; PDF ≥ 20× faster than pandoc + WeasyPrint."""

import os
import random
import shutil
import statistics
import subprocess


def cpu_run(cmd, cwd=None, shell=False):
    """(CPU seconds of the process and its children, peak RSS KiB, ok) of one run."""
    p = subprocess.Popen(cmd, cwd=cwd, shell=shell, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss, os.waitstatus_to_exitcode(status) == 0


def measure(cmd, runs, shell=False, warmup=True):
    """Median CPU seconds and peak RSS (MiB) over `runs` runs; None when a run fails."""
    if warmup:
        cpu_run(cmd, shell=shell)
    cpus, mems = [], []
    for _ in range(runs):
        c, m, ok = cpu_run(cmd, shell=shell)
        if not ok:
            return None
        cpus.append(c)
        mems.append(m)
    return statistics.median(cpus), max(mems) / 1024


def book_folder(work, notes=1000):
    """`notes` notes with headings, lists, code and links to each other, for one EPUB."""
    folder = os.path.join(work, f"documents-book-{notes}")
    stamp = os.path.join(folder, ".made")
    if os.path.exists(stamp):
        return folder
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(48)
    words = "alpha beta gamma delta note page code value index table record stream buffer token".split()
    for i in range(notes):
        text = f"# Chapter {i}\n\n" + " ".join(rng.choice(words) for _ in range(120)) + "\n\n"
        text += f"- see [the next one](n{(i + 1) % notes}.md)\n- *{rng.choice(words)}* **{rng.choice(words)}**\n\n"
        if i % 3 == 0:
            text += "```swift\nlet x = 1\n```\n"
        open(os.path.join(folder, f"n{i}.md"), "w").write(text)
    open(stamp, "w").write("")
    return folder


def documents_section(p, log, notepress, work, f22, concat, runs=3, quick=False):
    """The table; returns [(target, figure, met)] for the summary."""
    targets = []
    out = os.path.join(work, "documents-out")
    os.makedirs(out, exist_ok=True)
    has_pandoc = shutil.which("pandoc") is not None
    has_weasy = shutil.which("weasyprint") is not None
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    p("## Shared documents: DOCX, ODT, EPUB, PDF (issues 48, 49)")
    p()
    p("CPU seconds (user + system, the process and its children), median of "
      f"{runs} runs after a warm-up; peak resident MiB. pandoc {'' if has_pandoc else '(missing) '}`-f gfm -o x.FORMAT`; "
      "PDF beside `pandoc -s -f gfm -t html | weasyprint - x.pdf` and Chromium's `--print-to-pdf` of our page. "
      "A highlight cache is off (every run is a first run).")
    p()
    p("| input | format | notepress s | MiB | /our HTML page | pandoc s | pandoc/notepress |")
    p("|---|---|---:|---:|---:|---:|---:|")
    inputs = [(os.path.basename(f22), f22)] + ([] if quick else [("corpus (concatenated)", concat)])
    for label, path in inputs:
        log(f"documents: {label}")
        page = measure([notepress, "convert", path, "-q", "-o", os.path.join(out, "page.html")], runs)
        p(f"| {label} | HTML page | {page[0]:.3f} | {page[1]:.0f} | 1.00× | – | – |" if page else f"| {label} | HTML page | – | – | – | – | – |")
        for fmt in ("docx", "odt", "epub", "pdf"):
            np_ = measure([notepress, "convert", path, "-q", "-o", os.path.join(out, f"x.{fmt}")], runs)
            if fmt == "pdf":
                peer = measure(f"pandoc -s -f gfm -t html --metadata title=x '{path}' | weasyprint - '{out}/w.pdf'",
                               max(1, runs // 2), shell=True, warmup=False) if has_pandoc and has_weasy else None
            else:
                peer = measure(["pandoc", "-f", "gfm", path, "-o", os.path.join(out, f"pandoc.{fmt}")],
                               runs, warmup=False) if has_pandoc else None
            rel = f"{np_[0] / page[0]:.2f}×" if np_ and page else "–"
            ratio = peer[0] / np_[0] if peer and np_ and np_[0] > 0 else None
            p(f"| {label} | {fmt.upper()} | {np_[0]:.3f} | {np_[1]:.0f} | {rel} | {f'{peer[0]:.3f}' if peer else '–'} | "
              f"{f'{ratio:.1f}×' if ratio else '–'} |" if np_ else f"| {label} | {fmt.upper()} | failed | – | – | – | – |")
            if np_ and page and fmt != "pdf":
                targets.append((f"{label}: {fmt.upper()} ≤ 1.5× our HTML page", rel, np_[0] <= 1.5 * page[0]))
            if ratio:
                want = 20 if fmt == "pdf" else 10
                targets.append((f"{label}: {fmt.upper()} ≥ {want}× faster than "
                                f"{'pandoc + WeasyPrint' if fmt == 'pdf' else 'pandoc'}", f"{ratio:.1f}×", ratio >= want))
        if chromium and page:
            html = os.path.join(out, "page.html")
            cr = measure([chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--print-to-pdf={out}/c.pdf",
                          "file://" + html], 1, warmup=False)
            if cr:
                p(f"| {label} | PDF, Chromium print of our page | {cr[0]:.3f} | {cr[1]:.0f} | – | – | – |")
    p()
    book = book_folder(work, 200 if quick else 1000)
    log("documents: folder → one EPUB")
    e = measure([notepress, "convert", book, "-q", "-o", os.path.join(out, "book.epub")], 1 if quick else min(runs, 3))
    if e:
        p(f"A folder of {200 if quick else 1000} notes → one EPUB: {e[0]:.2f} s CPU, {e[1]:.0f} MiB peak, "
          f"{os.path.getsize(os.path.join(out, 'book.epub')) / 1e6:.2f} MB.")
        p()
    return targets
