"""Issue 33: the cost of code highlighting (KSyntaxHighlighting), beside pandoc's
`--highlight-style` (skylighting, built from the same KDE syntax definitions) and `pygmentize`
(Pygments) on the same code blocks. Used by Benchmarks/run (`--only highlight`, and the full run).

Rows: the start of a process that highlights nothing (`--version`, a 1 KB note without code:
the library is not loaded), a 1 KB note with one Swift block (the library's start, paid once),
the concatenated corpus as an HTML page with and without highlighting (target: at most +25 %),
a generated file of code blocks in five languages against pandoc and pygmentize, and a folder of
notes with code in a third of them with and without highlighting (target: at most 1.3×)."""

import os
import random
import re
import shutil
import subprocess

LANGS = {
    "swift": ["// {w} the {w}", "let {w} = \"{w} {w}\"", "func {w}(_ a: Int) -> Int {{ return a * {n} }}",
              "if {w} > {n} {{ print(\"{w}\") }}", "struct {W}: Codable {{ var {w}: String }}"],
    "python": ["# {w} the {w}", "def {w}(x):", "    return \"{w}\" * {n}  # {w}", "class {W}(object):",
               "    {w} = [{n}, {n}, '{w}']"],
    "bash": ["# {w}", "for f in *.{w}; do echo \"$f\"; done", "{w}=\"${{HOME}}/{w}\"", "if [ -f \"${w}\" ]; then cat \"${w}\"; fi",
             "grep -c {w} | sort -n"],
    "json": ["{{\"{w}\": \"{w}\", \"n\": {n}, \"ok\": true}}", "[{n}, {n}, \"{w}\", null]", "{{\"{w}\": {{\"{w}\": false}}}}"],
    "yaml": ["# {w}", "{w}: \"{w} {w}\"", "{w}: {n}", "- {w}", "{w}: [a, b, {n}]"],
}
PYGMENTS_LEXER = {"swift": "swift", "python": "python", "bash": "bash", "json": "json", "yaml": "yaml"}
WORDS = "alpha beta gamma delta note page code value index table record stream buffer token".split()


def code_block(rng, lang, lines):
    out = []
    for _ in range(lines):
        t = rng.choice(LANGS[lang])
        w = rng.choice(WORDS)
        out.append(t.format(w=w, W=w.capitalize(), n=rng.randint(0, 999)))
    return out


def make_code_inputs(work, blocks=400):
    """A Markdown file of `blocks` code blocks (the five languages in turn, 12 lines each, a
    paragraph between), and per language a file of the same code for pygmentize."""
    rng = random.Random(33)
    md, per = [], {l: [] for l in LANGS}
    for i in range(blocks):
        lang = list(LANGS)[i % len(LANGS)]
        lines = code_block(rng, lang, 12)
        md += [f"Block {i} in {lang}.", "", "```" + lang] + lines + ["```", ""]
        per[lang] += lines
    path = os.path.join(work, "highlight-blocks.md")
    text = "\n".join(md) + "\n"
    if not os.path.exists(path) or open(path).read() != text:
        open(path, "w").write(text)
    files = {}
    for lang, lines in per.items():
        f = os.path.join(work, f"highlight-blocks.{lang}.txt")
        body = "\n".join(lines) + "\n"
        if not os.path.exists(f) or open(f).read() != body:
            open(f, "w").write(body)
        files[lang] = f
    small = os.path.join(work, "highlight-1KB.md")
    s = "# A note\n\nSome text before the code.\n\n```swift\n" + "\n".join(code_block(random.Random(1), "swift", 20)) + "\n```\n"
    s = s[:1024] if len(s) > 1024 else s
    if not s.endswith("```\n"):
        s = s[: s.rfind("\n", 0, len(s) - 5) + 1] + "```\n"
    if not os.path.exists(small) or open(small).read() != s:
        open(small, "w").write(s)
    return path, files, small


def make_code_folder(work, notes=2000):
    """`notes` notes, a third of them with a code block (the five languages in turn)."""
    folder = os.path.join(work, f"highlight-folder-{notes}")
    stamp = os.path.join(folder, ".made")
    if os.path.exists(stamp):
        return folder
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(20000)
    for i in range(notes):
        text = f"# Note {i}\n\n" + " ".join(rng.choice(WORDS) for _ in range(60)) + "\n"
        if i % 3 == 0:
            lang = list(LANGS)[(i // 3) % len(LANGS)]
            text += "\n```" + lang + "\n" + "\n".join(code_block(rng, lang, 8)) + "\n```\n"
        open(os.path.join(folder, f"note-{i:05}.md"), "w").write(text)
    open(stamp, "w").write("")
    return folder


def instructions(cmd, work, env=None):
    """Instructions the whole process executes (valgrind's callgrind: the same count on a busy
    machine as on a quiet one), or None without valgrind. valgrind cannot read the DWARF 5 debug
    information of our release build, so it runs a copy without it (objcopy --strip-debug)."""
    if not shutil.which("valgrind") or not shutil.which("objcopy"):
        return None
    binary = cmd[0]
    copy = os.path.join(work, "notepress-nodebug")
    if not os.path.exists(copy) or os.path.getmtime(copy) < os.path.getmtime(binary):
        subprocess.run(["objcopy", "--strip-debug", binary, copy], check=True)
        # The shim is found beside the binary.
        for f in os.listdir(os.path.dirname(binary)):
            if f.startswith("libNotepressSyntaxShim"):
                shutil.copy(os.path.join(os.path.dirname(binary), f), os.path.join(work, f))
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", copy] + cmd[1:],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=dict(os.environ, **(env or {})))
    m = re.search(r"Collected : (\d+)", r.stderr)
    return int(m.group(1)) if m and r.returncode == 0 else None


def highlight_section(p, runs, measure, fmt_ms, fmt_mib, ratio, notepress, work, concat, small_plain, quick=False):
    """The tables; returns [(target, figure, met)] for the summary."""
    import shutil
    blocks, per_lang, small_code = make_code_inputs(work)
    targets = []
    p("## Code highlighting (issue 33)")
    p()
    p("notepress highlights fenced code blocks with KDE's KSyntaxHighlighting through a C++ shim loaded "
      "with dlopen on the first block with a language · pandoc `-s --highlight-style pygments` "
      "(skylighting, compiled from the same KDE syntax definitions) · `pygmentize -f html` (Pygments), "
      "one process per language over the same code.")
    p()
    p("| run | notepress ms | --no-highlight ms | highlight/plain | pandoc ms | pygmentize ms | np MiB |")
    p("|---|---:|---:|---:|---:|---:|---:|")
    rows = [
        ("`--version`", [notepress, "--version"], None, None, None),
        ("1 KB note, no code → page", [notepress, "convert", small_plain, "-q"],
         [notepress, "convert", small_plain, "-q", "--no-highlight"], None, None),
        ("1 KB note, one Swift block → page", [notepress, "convert", small_code, "-q"],
         [notepress, "convert", small_code, "-q", "--no-highlight"],
         ["pandoc", "-s", "-f", "gfm", "-t", "html", "--metadata", "title=x", "--highlight-style", "pygments", small_code], None),
        ("corpus, concatenated → page", [notepress, "convert", concat, "-q"],
         [notepress, "convert", concat, "-q", "--no-highlight"],
         ["pandoc", "-s", "-f", "gfm", "-t", "html", "--metadata", "title=x", "--highlight-style", "pygments", concat], None),
        ("400 code blocks, 5 languages → page", [notepress, "convert", blocks, "-q"],
         [notepress, "convert", blocks, "-q", "--no-highlight"],
         ["pandoc", "-s", "-f", "gfm", "-t", "html", "--metadata", "title=x", "--highlight-style", "pygments", blocks],
         ["sh", "-c", " && ".join(f"pygmentize -l {PYGMENTS_LEXER[l]} -f html {f} >/dev/null" for l, f in per_lang.items())]),
    ]
    corpus_instructions = []
    for name, ncmd, plain, pcmd, gcmd in rows:
        n = measure(f"np hl {name}", ncmd, runs)
        b = measure(f"np hl plain {name}", plain, runs) if plain else None
        pd = measure(f"pandoc hl {name}", pcmd, runs, warmup=False) if pcmd and shutil.which("pandoc") else None
        g = measure(f"pygmentize {name}", gcmd, runs) if gcmd and shutil.which("pygmentize") else None
        p(f"| {name} | {fmt_ms(n.time)} | {fmt_ms(b.time) if b else '–'} | {ratio(n.time, b.time) if b else '–'} | "
          f"{fmt_ms(pd.time) if pd else '–'} | {fmt_ms(g.time) if g else '–'} | {fmt_mib(n.mem)} |")
        if name.startswith("corpus") and b and n.ok and b.ok:
            ni, bi = instructions(ncmd, work), instructions(plain, work)
            figure = f"{n.time / b.time:.2f}× wall"
            if ni and bi:
                figure += f", {ni / bi:.2f}× instructions ({ni / 1e6:.0f} M against {bi / 1e6:.0f} M)"
                corpus_instructions.append((ni, bi))
            targets.append(("highlighting adds at most 25 % to the corpus HTML page", figure,
                            n.time <= 1.25 * b.time and (not (ni and bi) or ni <= 1.25 * bi)))
    p()
    targets += cache_rows(p, notepress, work, small_code, concat)
    for ni, bi in corpus_instructions:
        p(f"Corpus page, instructions (callgrind, the whole process): {ni / 1e6:.1f} M highlighted, "
          f"{bi / 1e6:.1f} M with `--no-highlight`, {ni / bi:.2f}×.")
        p()
    if True:
        # The 20 000 notes (2 000 with --quick).
        notes = 2000 if quick else 20000
        folder = make_code_folder(work, notes)
        out = os.path.join(work, "highlight-folder-out")

        def empty():
            shutil.rmtree(out, ignore_errors=True)
        n = measure("np hl folder", [notepress, "convert", folder, "-o", out, "-q"], runs, before=empty, cached=False)
        b = measure("np hl folder plain", [notepress, "convert", folder, "-o", out, "-q", "--no-highlight"], runs,
                    before=empty, cached=False)
        p(f"| folder ({notes // 1000} 000 notes, code in a third) → HTML | notepress ms | --no-highlight ms | ratio |")
        p("|---|---:|---:|---:|")
        p(f"| into an emptied folder | {fmt_ms(n.time)} | {fmt_ms(b.time)} | {ratio(n.time, b.time)} |")
        p()
        if n.ok and b.ok:
            targets.append(("a folder with code in a third of the notes within 1.3× of --no-highlight",
                            f"{n.time / b.time:.2f}×", n.time <= 1.3 * b.time))
    return targets


def cache_rows(p, notepress, work, small_code, page):
    """Issue 50, target 1: a note with code at most 1.3× the same note with `--no-highlight`, in
    instructions (callgrind), with the blocks taken from the highlight cache (a run after the
    first, HighlightCache) and on a first run (the cache off)."""
    cache = os.path.join(work, "highlight-cache")
    shutil.rmtree(cache, ignore_errors=True)
    targets = []
    p("| instructions (callgrind) | first run (no cache) | cached blocks | --no-highlight | cached/plain |")
    p("|---|---:|---:|---:|---:|")
    for name, path in (("1 KB note, one Swift block", small_code), ("corpus page", page)):
        out = os.path.join(work, "cache-row.html")
        cold = instructions([notepress, "convert", path, "-o", out], work)
        instructions([notepress, "convert", path, "-o", out], work, {"NOTEPRESS_CACHE_DIR": cache})
        warm = instructions([notepress, "convert", path, "-o", out], work, {"NOTEPRESS_CACHE_DIR": cache})
        plain = instructions([notepress, "convert", path, "-o", out, "--no-highlight"], work)
        if not (cold and warm and plain):
            p(f"| {name} | – | – | – | – |")
            continue
        p(f"| {name} | {cold / 1e6:.1f} M | {warm / 1e6:.1f} M | {plain / 1e6:.1f} M | {warm / plain:.2f}× |")
        targets.append((f"{name}: code at most 1.3× --no-highlight (cached blocks; first run {cold / plain:.2f}×)",
                        f"{warm / plain:.2f}× instructions", warm <= 1.3 * plain))
    p()
    return targets
