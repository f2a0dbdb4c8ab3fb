#!/usr/bin/env python3
"""Fuzzes the site engine through the real binary: random folders of notes, links and front matter.

Each round makes a folder of 2 to 14 inputs (Markdown, note markup, TiddlyWiki; subfolders, index
and README pages, names with spaces and non-ASCII letters) whose text is drawn from the shapes users
write: front matter (title, tags, aliases, dates, nav_order, broken YAML), headings, [[wiki links]]
to the other notes (with #heading, #^block, |label), relative links with ?query#fragment, images
that exist or not, hashtags, footnotes, tables, block ids, raw HTML, and now and then invalid UTF-8
or a NUL byte. It converts the folder with random options (formats, --layout, --backlinks,
--hashtags, --toc, --copy-all) and checks what must hold for every input:

- the exit status is 0 or 1 (never a crash, a signal or a usage error), within a time bound;
- the inputs are never changed, and no temporary file (.NAME.tmp-XXXXXX) is left in the output;
- a run with -j 1 and one with -j 2 write the same bytes;
- a re-run without changes converts nothing and changes no byte;
- after an edit (a changed, added, deleted or renamed note) an incremental run with --prune writes
  exactly what a fresh build of the edited folder writes (pages, notes list, tag pages, backlinks,
  assets);
- every JSON output parses; no TEI output fails the schema; no output is larger than
  1000 times its input plus 1 MB; in half the rounds one of DOCX, ODT, EPUB and PDF is written
  too: a package opens with Python's zipfile (every CRC), its mimetype first and stored, its XML
  parts well-formed (expat); a PDF starts with %PDF- and ends with %%EOF;
- every relative link to a page in an HTML output lands on a written file, unless the link report
  named that page;
- in half the rounds, the edited folder built in two shards (scan, convert --site-table --shard
  1/2 and 2/2, index) writes what the one-process fresh build writes.

A failing round is kept in FINDINGS (default .build/fuzz-site-findings/N/ with the folder, the
command lines and what differed); the run exits 1 when there is any. The last line gives rounds,
findings and the CPU seconds the converter used (user + system of every notepress process).

Usage: .ci/fuzz-site.py [--seconds S] [--rounds N] [--seed N] [--binary PATH] [--findings DIR]
Round K uses seed SEED+K, so a finding is replayed with --seed ITS_SEED --rounds 1.
"""
import argparse
import hashlib
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

NAMES = ["index.md", "README.md", "alpha.md", "beta.note", "gamma.markdown", "Delta Notes.md", "café.md",
         "sub/index.md", "sub/one.md", "sub/two.note", "sub/deeper/three.md", "sub/deeper/README.md",
         "日本語.md", "tid/Tiddler.tid", "x.txt", "sub/Same.md", "same.md"]
ASSETS = ["img.png", "sub/pic.svg", "doc.pdf"]
# Findings that an open issue already names: counted apart, not failures (remove one when fixed).
KNOWN = [
]
WORDS = ["alpha", "beta", "Gamma", "delta", "TODO", "note", "café", "日本", "x", "NASA", "a_b", "a-b", "2024"]


def stem(name):
    base = name.rsplit("/", 1)[-1]
    return base.rsplit(".", 1)[0]


def front_matter(rng, names):
    lines = ["---"]
    for _ in range(rng.randint(0, 5)):
        k = rng.choice(["title", "tags", "aliases", "date", "created", "nav_order", "weight", "author", "draft",
                        "description", "lang", "section", "x-custom"])
        good = [rng.choice(WORDS), "[%s, %s]" % (rng.choice(WORDS), rng.choice(WORDS)), "2021-06-01",
                "2021-06-01T10:20:30+05:30", str(rng.randint(-3, 99)), "true", "", "'quoted: yes'",
                stem(rng.choice(names)), "|\n  block\n  text"]
        bad = ["2024-02-30", "January 2015", "0000-01-01", "*anchor", "&a x", "{unclosed"]
        if k in ("date", "created"):
            good = ["2021-06-01", "2021-06-01T10:20:30+05:30", "2024-02-29", ""]
        v = rng.choice(bad if rng.random() < 0.05 else good)
        lines.append("%s: %s" % (k, v))
    lines.append("--" if rng.random() < 0.03 else rng.choice(["---", "...", "---"]))
    return "\n".join(lines) + "\n"


def inline(rng, names):
    target = rng.choice(names + ASSETS + ["missing.md", "../outside.md", "sub/", "http://example.com/x"])
    heading = rng.choice(["", "#" + rng.choice(WORDS), "#^blk" + str(rng.randint(0, 3)), "#"])
    choices = [
        lambda: "[[%s%s]]" % (stem(target), heading),
        lambda: "[[%s%s|%s]]" % (target, heading, rng.choice(WORDS)),
        lambda: "![[%s]]" % target,
        lambda: "[%s](%s%s%s)" % (rng.choice(WORDS), target.replace(" ", "%20"), rng.choice(["", "?q=1", "?UI=MVC"]), heading),
        lambda: "[%s](<%s>)" % (rng.choice(WORDS), target),
        lambda: "![img](%s)" % target,
        lambda: "#" + rng.choice(WORDS + ["tag/sub", "2024", "ünï"]),
        lambda: "*%s* _%s_ -%s- ~%s~" % tuple(rng.choice(WORDS) for _ in range(4)),
        lambda: "`code %s`" % rng.choice(WORDS),
        lambda: "[^%d]" % rng.randint(1, 3),
        lambda: "<b>%s</b>" % rng.choice(WORDS),
        lambda: "[js](javascript:alert(1))",
        lambda: "$x^2$ and $5 and $10",
        lambda: "%%hidden%% ==mark==",
        lambda: rng.choice(WORDS) * rng.randint(1, 40),
    ]
    return " ".join(rng.choice(choices)() for _ in range(rng.randint(1, 6)))


def block(rng, names):
    kind = rng.randint(0, 11)
    if kind == 0:
        return "#" * rng.randint(1, 6) + " " + inline(rng, names)
    if kind == 1:
        return "\n".join("- " + inline(rng, names) for _ in range(rng.randint(1, 4)))
    if kind == 2:
        cols = rng.randint(1, 5)
        rows = ["| " + " | ".join(rng.choice(WORDS) for _ in range(cols)) + " |", "|" + "---|" * cols]
        rows += ["| " + inline(rng, names) + " |" for _ in range(rng.randint(0, 3))]
        return "\n".join(rows)
    if kind == 3:
        return "```" + rng.choice(["", "swift", "py", "math"]) + "\n" + inline(rng, names) + "\n```"
    if kind == 4:
        return "> " + rng.choice(["[!NOTE] ", "[!info] Title", "[!tip]- ", ""]) + inline(rng, names)
    if kind == 5:
        return "[^%d]: %s" % (rng.randint(1, 3), inline(rng, names))
    if kind == 6:
        return inline(rng, names) + " ^blk" + str(rng.randint(0, 3))
    if kind == 7:
        return "%d. %s" % (rng.randint(1, 20), inline(rng, names))
    if kind == 8:
        return rng.choice(WORDS).upper() + " " + inline(rng, names)
    if kind == 9:
        return "$$\n\\int_0^1 f(x)\\,dx\n$$"
    return inline(rng, names)


def document(rng, names):
    parts = []
    if rng.random() < 0.7:
        parts.append(front_matter(rng, names))
    parts += [block(rng, names) for _ in range(rng.randint(0, 10))]
    text = "\n\n".join(parts) + rng.choice(["\n", "", "\r\n", "\n\n"])
    data = text.encode("utf-8")
    r = rng.random()
    if r < 0.01:
        data += b"\xff\xfe bad"
    elif r < 0.02:
        data = data[:len(data) // 2] + b"\x00" + data[len(data) // 2:]
    elif r < 0.05:
        data = b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n")
    return data


def tiddler(rng, names):
    fields = "title: %s\ntags: %s\ntype: %s\n\n" % (rng.choice(WORDS), rng.choice(WORDS),
                                                   rng.choice(["text/vnd.tiddlywiki", "text/x-markdown", "Text/X-Markdown"]))
    return (fields + "! Heading\n\n" + "See [[%s|%s]]\n" % (rng.choice(WORDS), stem(rng.choice(names)))).encode()


def make_folder(rng, root):
    names = rng.sample(NAMES, rng.randint(2, 14))
    files = {}
    for n in names:
        files[n] = tiddler(rng, names) if n.endswith(".tid") else document(rng, names)
    for a in rng.sample(ASSETS, rng.randint(0, len(ASSETS))):
        files[a] = b"\x89PNG\r\n\x1a\n" + bytes(rng.randint(0, 255) for _ in range(16))
    for path, data in files.items():
        p = os.path.join(root, path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
    return names


def edit_folder(rng, root, names):
    """One edit a user makes between two builds; returns a description."""
    kind = rng.choice(["change", "add", "delete", "rename", "front"])
    present = [n for n in names if os.path.exists(os.path.join(root, n))]
    if not present:
        kind = "add"
    if kind == "add":
        n = rng.choice([x for x in NAMES if x not in present] or ["added.md"])
        p = os.path.join(root, n)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(document(rng, present + [n]))
        names.append(n)
        return "add " + n
    n = rng.choice(present)
    p = os.path.join(root, n)
    if kind == "delete":
        os.remove(p)
        return "delete " + n
    if kind == "rename":
        m = rng.choice([x for x in NAMES if x not in present] or ["renamed.md"])
        q = os.path.join(root, m)
        os.makedirs(os.path.dirname(q), exist_ok=True)
        os.rename(p, q)
        names.append(m)
        return "rename %s -> %s" % (n, m)
    with open(p, "rb") as f:
        data = f.read()
    if kind == "front":
        data = front_matter(rng, present).encode() + data
    else:
        data = data + ("\n\n" + block(rng, present) + "\n").encode()
    with open(p, "wb") as f:
        f.write(data)
    return "%s %s" % (kind, n)


def tree(root, skip_manifest=True):
    out = {}
    for dirpath, _, filenames in os.walk(root):
        for fn in filenames:
            p = os.path.join(dirpath, fn)
            rel = os.path.relpath(p, root)
            if skip_manifest and rel in (".notepress-manifest",):
                continue
            with open(p, "rb") as f:
                out[rel] = f.read()
    return out


def digest(root):
    h = hashlib.sha256()
    for rel, data in sorted(tree(root, skip_manifest=False).items()):
        h.update(rel.encode("utf-8", "surrogateescape") + b"\0" + data + b"\0")
    return h.hexdigest()


class Runner:
    def __init__(self, binary, timeout):
        self.binary = binary
        self.timeout = timeout
        self.cpu = 0.0
        self.runs = 0
        self.compared = 0
        self.failed_rounds = 0
        self.known = 0
        self.log = []

    def run(self, args):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000", NO_COLOR="1", LC_ALL="C.UTF-8")
        try:
            p = subprocess.run([self.binary] + args, capture_output=True, timeout=self.timeout, env=env)
            status, err = p.returncode, p.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            status, err = "timeout", ""
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu += (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        self.runs += 1
        self.log.append("$ notepress %s\nexit %s\n%s" % (" ".join(args), status, err))
        return status, err


HREF = re.compile(rb'(?:href|src)="([^"#?:]+\.html)(?:[#?][^"]*)?"')


# What the package writers' first entry must be (DOCX has none).
MIMETYPES = {".docx": None, ".odt": b"application/vnd.oasis.opendocument.text", ".epub": b"application/epub+zip"}
XML_PARTS = (".xml", ".rels", ".opf", ".xhtml", ".ncx")


def check_package(rel, data, mimetype):
    """A DOCX, ODT or EPUB output as Python's zipfile and expat read it: every entry's CRC, mimetype
    first and stored, every XML part well-formed."""
    import io
    import xml.parsers.expat
    import zipfile
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        bad = z.testzip()
    except (zipfile.BadZipFile, OSError, ValueError) as e:
        return ["package %s does not open: %s" % (rel, e)]
    if bad:
        return ["package %s: entry %s fails its CRC" % (rel, bad)]
    infos = z.infolist()
    if mimetype and (not infos or infos[0].filename != "mimetype" or infos[0].compress_type != zipfile.ZIP_STORED
                     or z.read(infos[0]) != mimetype):
        return ["package %s: mimetype is not the first entry, stored, %r" % (rel, mimetype)]
    for i in infos:
        if i.filename.endswith(XML_PARTS):
            try:
                xml.parsers.expat.ParserCreate().Parse(z.read(i), True)
            except xml.parsers.expat.ExpatError as e:
                return ["package %s: %s is not well-formed: %s" % (rel, i.filename, e)]
    return []


def check_outputs(out, inputs_size, report_pages, failed):
    problems = []
    assets = {os.path.basename(a) for a in ASSETS}  # copied as they are (--copy-all)
    for rel, data in tree(out).items():
        base = os.path.basename(rel)
        if re.match(r"^\..*\.tmp-", base):
            problems.append("temporary file left: " + rel)
        ext = os.path.splitext(base)[1]
        if ext in MIMETYPES and base not in assets:
            problems += check_package(rel, data, MIMETYPES[ext])
        if ext == ".pdf" and base not in assets and not (data.startswith(b"%PDF-") and data.rstrip(b"\r\n").endswith(b"%%EOF")):
            problems.append("PDF %s does not start with %%PDF- and end with %%%%EOF" % rel)
        if len(data) > 1000 * inputs_size + (1 << 20):
            problems.append("output %s is %d bytes for %d bytes of input" % (rel, len(data), inputs_size))
        if rel.endswith(".json") and not rel.startswith("."):
            try:
                json.loads(data)
            except ValueError as e:
                problems.append("JSON %s does not parse: %s" % (rel, e))
        if rel.endswith(".html"):
            for m in HREF.finditer(data):
                target = m.group(1).decode("utf-8", "replace")
                from urllib.parse import unquote
                here = os.path.dirname(os.path.join(out, rel))
                if target.startswith("/"):
                    # The not-found page (at the HTML tree's root) links from the host's root.
                    path = os.path.normpath(os.path.join(here if base == "404.html" else out, unquote(target).lstrip("/")))
                else:
                    path = os.path.normpath(os.path.join(here, unquote(target)))
                missing_stem = os.path.relpath(path, out).rsplit(".", 1)[0]
                if not os.path.exists(path) and rel not in report_pages and \
                        stem_of_output(os.path.relpath(path, out) if not missing_stem.startswith("..") else "") not in failed:
                    problems.append("%s links to %s, which was not written and is not in the link report" % (rel, target))
    return problems


def report_pages(stderr):
    """Output pages of the sources the link report names (a.md → a.html and mirror html/a.html)."""
    pages = set()
    for line in stderr.splitlines():
        m = re.match(r"^(.*?):\d+:\d+: (?:warning|error): ", line)
        if m:
            src = m.group(1)
            marker = "/in/"
            if marker in src:
                src = src.split(marker, 1)[1]
            page = src.rsplit(".", 1)[0] + ".html"
            pages.add(page)
            pages.add("html/" + page)
            d = os.path.dirname(page)
            if os.path.basename(page) in ("README.html",):
                pages.add(os.path.join(d, "index.html"))
                pages.add(os.path.join("html", d, "index.html"))
    return pages


def failed_sources(stderr):
    """The inputs (relative to in/) the run's "failed:" list names."""
    failed, listing = set(), False
    for line in stderr.splitlines():
        if line == "failed:":
            listing = True
            continue
        if listing and line.startswith("  "):
            src = line[2:].split(": ", 1)[0]
            src = re.sub(r":\d+(:\d+)?$", "", src)
            # Named as the command line reached it (…/in/a.md), or relative to the folder (a.md).
            failed.add(src.split("/in/", 1)[1] if "/in/" in src else src)
    return failed


def outputs_of(sources):
    """Output paths (flat and mirror, any extension) a source could have: stems to match."""
    stems = set()
    for s in sources:
        st = s.rsplit(".", 1)[0]
        stems.add(st)
        d, b = os.path.split(st)
        if b in ("README", "index"):
            stems.add(os.path.join(d, "index"))
    return stems


def stem_of_output(rel):
    parts = rel.split("/")
    if parts[0] in ("html", "rtf", "ansi", "tei", "man", "json"):
        parts = parts[1:]
    return "/".join(parts).rsplit(".", 1)[0]


def shard_check(runner, src, fresh, opts, work):
    """scan → convert --site-table --shard K/2 for K = 1, 2 → index, against the fresh build."""
    table = os.path.join(work, "table.jsonl")
    sharded = os.path.join(work, "sharded")
    steps = [["scan", src, "-o", table] + opts]
    steps += [["convert", src, "-o", sharded, "--site-table", table, "--shard", "%d/2" % k] + opts for k in (1, 2)]
    steps += [["index", sharded, "--site-table", table] + opts]
    for args in steps:
        status, err = runner.run(args)
        if status != 0:
            return ["sharded build: exit %s for %s: %s" % (status, " ".join(args[:1] + args[3:]), err[-2000:])]
    a = {k: v for k, v in tree(sharded).items()}
    b = {k: v for k, v in tree(fresh).items()}
    runner.compared += len(b)
    if a != b:
        diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        return ["the sharded build differs from the one-process build in %s" % diff[:10]]
    return []


def one_round(rng, runner, work):
    shutil.rmtree(work, ignore_errors=True)
    src = os.path.join(work, "in")
    os.makedirs(src)
    names = make_folder(rng, src)
    formats = rng.sample(["html", "rtf", "ansi", "tei", "man", "json"], rng.randint(1, 3))
    if rng.random() < 0.5:
        formats.append(rng.choice(["docx", "odt", "epub", "pdf"]))
    if rng.random() < 0.6 and "html" not in formats:
        formats.append("html")
    opts = ["-t", ",".join(formats), "--layout", rng.choice(["flat", "mirror"])]
    for flag in ["--backlinks", "--hashtags", "--toc", "--copy-all"]:
        if rng.random() < 0.4:
            opts.append(flag)
    findings = []
    in_digest = digest(src)
    size = sum(len(d) for d in tree(src).values())

    def convert(out, extra=()):
        status, err = runner.run(["convert", src, "-o", out] + opts + list(extra))
        if status not in (0, 1):
            findings.append("exit %s for %s: %s" % (status, " ".join(opts + list(extra)), err[-2000:]))
        for line in err.splitlines():
            if "TEI output does not validate" in line or ("schema" in line and "error" in line):
                findings.append("TEI failed its schema: " + line)
            if "Fatal error" in line or "Assertion" in line:
                findings.append("crash text: " + line)
        return status, err

    one, two = os.path.join(work, "j1"), os.path.join(work, "j2")
    s1, e1 = convert(one, ["-j", "1"])
    s2, _ = convert(two, ["-j", "2"])
    if tree(one) != tree(two):
        diff = sorted(k for k in set(tree(one)) | set(tree(two)) if tree(one).get(k) != tree(two).get(k))
        findings.append("-j 1 and -j 2 differ: %s" % diff[:10])
    findings += check_outputs(one, size, report_pages(e1), outputs_of(failed_sources(e1)))
    # A re-run without changes: the same bytes, the manifest too, unless an input failed (a failed
    # input is converted again, so its other outputs' times in the manifest move).
    before = tree(one, skip_manifest=s1 != 0)
    s3, e3 = convert(one, ["-j", "2"])
    if tree(one, skip_manifest=s1 != 0) != before:
        findings.append("a re-run without changes changed bytes")
    if s3 == s1 and "converted 0," not in e3 and s1 == 0:
        findings.append("a re-run without changes converted again: " + e3.splitlines()[-1] if e3 else "")
    if digest(src) != in_digest:
        findings.append("the inputs were changed by a run")
    edits = [edit_folder(rng, src, names) for _ in range(rng.randint(1, 3))]
    _, e4 = convert(one, ["--prune"])
    fresh = os.path.join(work, "fresh")
    _, e5 = convert(fresh)
    if failed_sources(e4) != failed_sources(e5):
        findings.append("the incremental run failed %s, a fresh build %s" % (sorted(failed_sources(e4)), sorted(failed_sources(e5))))
    # A file that fails keeps the output an earlier run wrote (nothing is lost): not compared.
    keep = outputs_of(failed_sources(e4))
    a = {k: v for k, v in tree(one).items() if stem_of_output(k) not in keep}
    b = {k: v for k, v in tree(fresh).items() if stem_of_output(k) not in keep}
    a.pop(".notepress-site.jsonl", None), b.pop(".notepress-site.jsonl", None)
    runner.compared += len(b)
    runner.failed_rounds += bool(keep)
    if a != b:
        diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        findings.append("after %s the incremental run differs from a fresh build in %s" % (edits, diff[:10]))
    # Half the rounds: the same edited folder as a sharded build (scan, --shard 1/2 and 2/2, index)
    # writes what the one-process fresh build wrote.
    if not failed_sources(e5) and rng.random() < 0.5:
        findings += shard_check(runner, src, fresh, opts, work)
    known = [f for f in findings if any(p.search(f) for p, _ in KNOWN)]
    runner.known += len(known)
    return [f for f in findings if f not in known], opts, edits


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--rounds", type=int, default=None, help="stop after this many rounds (seeds SEED..SEED+N-1)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--binary", default=".build/release/notepress")
    ap.add_argument("--findings", default=".build/fuzz-site-findings")
    ap.add_argument("--timeout", type=float, default=60)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    runner = Runner(os.path.abspath(args.binary), args.timeout)
    work = tempfile.mkdtemp(prefix="notepress-fuzz-site-")
    start = time.time()
    rounds = found = 0
    while time.time() - start < args.seconds and (args.rounds is None or rounds < args.rounds):
        round_seed = seed + rounds
        rng = random.Random(round_seed)
        runner.log = []
        findings, opts, edits = one_round(rng, runner, work)
        rounds += 1
        if findings:
            found += 1
            dest = os.path.join(args.findings, str(round_seed))
            shutil.rmtree(dest, ignore_errors=True)
            os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
            shutil.copytree(work, dest)
            with open(os.path.join(dest, "FINDINGS.txt"), "w") as f:
                f.write("seed %d\noptions %s\nedits %s\n\n%s\n" % (round_seed, " ".join(opts), edits, "\n".join(findings)))
            with open(os.path.join(dest, "RUNS.txt"), "w") as f:
                f.write("\n".join(runner.log))
            print("finding (seed %d): %s" % (round_seed, findings[0][:300]), flush=True)
    shutil.rmtree(work, ignore_errors=True)
    print("fuzz-site: %d rounds (%d with an input that failed), %d output files compared after edits, %d findings, "
          "%d known (KNOWN), %d runs, %.1f CPU seconds of notepress, %.0f s wall, seeds %d..%d"
          % (rounds, runner.failed_rounds, runner.compared, found, runner.known, runner.runs, runner.cpu, time.time() - start,
             seed, seed + rounds - 1))
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
