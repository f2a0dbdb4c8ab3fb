"""Issue 53 "Done when": share of a README page's words kept in every other format.

Usage: python3 Benchmarks/readme_words.py .build/debug/notepress README.md...  (needs mandoc and
LibreOffice's soffice; writes a Markdown table). Checked on the corpus READMEs with raw HTML
(readme-ai, system-design-primer-ja, public-apis, awesome, emoji-cheat-sheet) and four READMEs a
Debian system ships (nodejs, pyenv, charset_normalizer, urllib3): 99.8–100 % of all page words in
every format, no README below 98 % in any (98.2 %: man, the Japanese one, lines wrapped in unspaced
text).

Page words: the text of notepress's default HTML page body (--fragment, raw HTML sanitised),
without alt text (not shown). Words: NFKC-normalised, lower-cased \\w+ runs (2⁷ → 27). Kept:
multiset intersection with the words of the format's text (ANSI --color never, man through
mandoc -Tutf8, TEI <text> content, RTF through LibreOffice's plain-text export, JSON "text" values)."""
import collections, html.parser, json, os, re, subprocess, sys, unicodedata, xml.etree.ElementTree as ET
NP = sys.argv[1]; files = sys.argv[2:]; out = os.path.join(os.environ.get("TMPDIR", "/tmp"), "notepress-readme-words"); os.makedirs(out, exist_ok=True)
def words(t): return collections.Counter(re.findall(r"\w+", unicodedata.normalize("NFKC", t).lower()))
class P(html.parser.HTMLParser):
    def __init__(s): super().__init__(); s.t = []; s.skip = 0
    def handle_starttag(s, tag, a):
        if tag in ("script", "style"): s.skip += 1
    def handle_endtag(s, tag):
        if tag in ("script", "style"): s.skip -= 1
    def handle_data(s, d):
        if not s.skip: s.t.append(d)
def run(args): return subprocess.run([NP, "convert", "-q", "--no-input-limits"] + args, capture_output=True).stdout
rows = []; rtfs = []
for f in files:
    b = os.path.basename(os.path.dirname(f)) + "__" + os.path.basename(f) if "corpus" not in f else os.path.basename(f)
    p = P(); p.feed(run(["-t", "html", "--fragment", "-o", "-", f]).decode()); page = words("".join(p.t))
    texts = {}
    texts["ansi"] = re.sub(r"\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b\[[0-9;]*m", "", run(["-t", "ansi", "--color", "never", "--width", "5000", "-o", "-", f]).decode())
    man = run(["-t", "man", "-o", "-", f]); texts["man"] = subprocess.run(["mandoc", "-Tutf8"], input=man, capture_output=True).stdout.decode()
    texts["man"] = re.sub(r".\x08", "", texts["man"])
    tei = ET.fromstring(run(["-t", "tei", "-o", "-", f])); ns = "{http://www.tei-c.org/ns/1.0}"
    texts["tei"] = "".join(tei.find(ns + "text").itertext())
    js = json.loads(run(["-t", "json", "-o", "-", f])); acc = []
    def flat(items):  # inline items (no "type"): text, breaks, spans with children
        out = ""
        for v in items:
            if "text" in v: out += v["text"]
            elif "softbreak" in v or "hardbreak" in v: out += " "
            elif isinstance(v.get("children"), list): out += flat(v["children"])
        return out
    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "literal" and isinstance(v, str): acc.append(v)
                else: walk(v)
        elif isinstance(x, list):
            if x and all(isinstance(v, dict) and "type" not in v for v in x): acc.append(flat(x))
            else:
                for v in x: walk(v)
    walk(js.get("blocks", js)); texts["json"] = " ".join(acc)
    rtf = os.path.join(out, b.replace(".md", "") + ".rtf"); open(rtf, "wb").write(run(["-t", "rtf", "-o", "-", f])); rtfs.append(rtf)
    rows.append((b, page, texts, rtf))
subprocess.run(["soffice", "--headless", "--convert-to", "txt:Text (encoded):UTF8", "--outdir", out] + rtfs, capture_output=True)
tot = collections.Counter(); kept = collections.Counter()
print("| README | page words | ansi | man | tei | json | rtf |"); print("|---|---:|---:|---:|---:|---:|---:|")
for b, page, texts, rtf in rows:
    texts["rtf"] = open(rtf[:-4] + ".txt", encoding="utf-8", errors="replace").read()
    n = sum(page.values()); cells = []
    for fmt in ["ansi", "man", "tei", "json", "rtf"]:
        k = sum((page & words(texts[fmt])).values()); tot[fmt] += n; kept[fmt] += k
        cells.append(f"{100 * k / n:.1f} %")
    print(f"| {b} | {n} | " + " | ".join(cells) + " |")
print("| all | " + str(tot["ansi"]) + " | " + " | ".join(f"{100 * kept[f] / tot[f]:.1f} %" for f in ["ansi", "man", "tei", "json", "rtf"]) + " |")
