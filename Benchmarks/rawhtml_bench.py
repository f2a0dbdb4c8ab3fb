"""Issue 53's bench row: Markdown heavy with raw HTML → HTML, beside cmark-gfm --unsafe and pandoc.

The input is the corpus README with the most raw HTML tags (readme-ai__README.md: 224 tags in
40 KB: badges, centred pictures, <details>, tables of <img>), as it is and concatenated 16 times.
notepress reads raw HTML with gumbo and keeps what its policy allows (the default); `--unsafe`
passes it through as cmark-gfm --unsafe does, without gumbo. Called by Benchmarks/run (the
whole run and `--only raw-html`)."""

import os

README = "readme-ai__README.md"
COPIES = 16


def inputs(corpus, work):
    """(name, path) of the README and of its concatenation (written under `work`)."""
    src = os.path.join(corpus, README)
    data = open(src, "rb").read().rstrip(b"\n") + b"\n\n"
    many = os.path.join(work, f"rawhtml-x{COPIES}.md")
    if not os.path.exists(many) or os.path.getsize(many) != len(data) * COPIES:
        with open(many, "wb") as f:
            f.write(data * COPIES)
    return [(README, src), (f"{README} ×{COPIES}", many)]


def section(p, log, measure, np_cmd, cmark_ext, runs, corpus, work, fmt_ms, fmt_mib, ratio, human_size):
    """Writes the table through `p` (Markdown lines); the helpers are Benchmarks/run's."""
    log("Markdown with raw HTML → HTML")
    p("## Markdown heavy with raw HTML → HTML")
    p()
    p(f"The corpus README with the most raw HTML ({README}), as is and ×{COPIES}. notepress "
      "`-t html --fragment` (raw HTML parsed with gumbo, its policy applied) and with `--unsafe` "
      "(passed through) · cmark-gfm `" + " ".join(cmark_ext + ["--unsafe"]) + "` · `pandoc -f gfm -t html`.")
    p()
    p("| input | size | notepress ms | notepress --unsafe ms | cmark-gfm --unsafe ms | pandoc ms | np/cmark | pandoc/np | np MiB | cmark MiB |")
    p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, f in inputs(corpus, work):
        n = measure(f"np html raw-html {name}", np_cmd("html", f, "--fragment"), runs)
        u = measure(f"np html --unsafe raw-html {name}", np_cmd("html", f, "--fragment", "--unsafe"), runs)
        c = measure(f"cmark html --unsafe raw-html {name}", ["cmark-gfm"] + cmark_ext + ["--unsafe", f], runs)
        pd = measure(f"pandoc html raw-html {name}", ["pandoc", "-f", "gfm", "-t", "html", f], runs, warmup=False)
        p(f"| {name} | {human_size(os.path.getsize(f))} | {fmt_ms(n.time)} | {fmt_ms(u.time)} | {fmt_ms(c.time)} | "
          f"{fmt_ms(pd.time)} | {ratio(n.time, c.time)} | {ratio(pd.time, n.time)} | {fmt_mib(n.mem)} | {fmt_mib(c.mem)} |")
    p()
