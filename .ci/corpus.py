#!/usr/bin/env python3
"""The peer suites (../shared/corpus) for a clone without them: `make corpus`.

Every file of the corpus that comes from a public repository is listed in .ci/corpus/files.tsv
(suite-relative path, repository, path in it, the commit its MANIFEST.tsv names, size, SHA-256);
the suites' MANIFEST.tsv files are copied in .ci/corpus/manifests/SUITE.tsv. This fetches each
file from its repository at that commit, checks its size and SHA-256, and writes it into DEST
(written to a temporary name, then renamed: an interrupted run leaves no half file). Files
already there with the right size and hash are kept. README.md and FORMAT.md of the corpus are
its maintainers' notes, in no public repository: not fetched.

    .ci/corpus.py DEST [--url-template T]   T: https://raw.githubusercontent.com/{repo}/{commit}/{path}
                                             (file:///MIRROR/{repo}/{commit}/{path} for a local mirror)
    .ci/corpus.py --list CORPUS             print files.tsv for an existing corpus (maintainers)
Exit status 0, or 1 naming each file that could not be fetched or has the wrong size or hash.
"""
import argparse
import hashlib
import os
import sys
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
LIST = os.path.join(HERE, "corpus", "files.tsv")
MANIFESTS = os.path.join(HERE, "corpus", "manifests")
DEFAULT_TEMPLATE = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"


def manifest_rows(corpus, suite):
    with open(os.path.join(corpus, suite, "MANIFEST.tsv"), encoding="utf-8") as f:
        lines = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    head = lines[0]
    return [dict(zip(head, l)) for l in lines[1:]]


def listing(corpus):
    """(file, repo, path, commit) for every fetched file of CORPUS, from its manifests."""
    rows, commits = [], {}
    for suite in sorted(os.listdir(corpus)):
        if not os.path.isfile(os.path.join(corpus, suite, "MANIFEST.tsv")):
            continue
        for r in manifest_rows(corpus, suite):
            commits[r["repo"]] = r["commit"]
            if "file" in r:  # one row a file
                rows.append((f"{suite}/{r['file']}", r["repo"], r["path"], r["commit"]))
                if r.get("bytes") and os.path.getsize(os.path.join(corpus, suite, r["file"])) != int(r["bytes"]):
                    sys.exit(f"{suite}/{r['file']}: size differs from its MANIFEST.tsv")
            elif r["path"].startswith("docs/"):  # vault-foam: a folder of the repository
                base = os.path.join(corpus, suite)
                for d, _, files in os.walk(base):
                    for name in files:
                        rel = os.path.relpath(os.path.join(d, name), base)
                        if rel != "MANIFEST.tsv":
                            rows.append((f"{suite}/{rel}", r["repo"], "docs/" + rel, r["commit"]))
            else:  # mustache-spec: specs/{a,b}.json, TESTING.md; github-slugger: one path
                for part in r["path"].split(", "):
                    if "{" in part:
                        pre, rest = part.split("{", 1)
                        names, post = rest.split("}", 1)
                        paths = [pre + n + post for n in names.split(",")]
                    else:
                        paths = [part]
                    for p in paths:
                        rows.append((f"{suite}/{os.path.basename(p)}", r["repo"], p, r["commit"]))
        # The licence file beside the suite's files (mustache-spec/LICENSE, github-slugger/LICENSE).
        for name, upstream in (("LICENSE", "LICENSE"), ("COPYING.cmark-gfm", "COPYING")):
            if os.path.isfile(os.path.join(corpus, suite, name)):
                repo = manifest_rows(corpus, suite)[0]["repo"]
                rows.append((f"{suite}/{name}", repo, upstream, commits[repo]))
    # LICENSES/OWNER_REPO.FILE: FILE at the root of OWNER/REPO, at the commit the manifests name.
    for name in sorted(os.listdir(os.path.join(corpus, "LICENSES"))):
        owner, rest = name.split("_", 1)
        repo, upstream = rest.split(".", 1)
        rows.append((f"LICENSES/{name}", f"{owner}/{repo}", upstream, commits[f"{owner}/{repo}"]))
    out = []
    for file, repo, path, commit in sorted(rows):
        with open(os.path.join(corpus, file), "rb") as f:
            data = f.read()
        out.append("\t".join([file, repo, path, commit, str(len(data)), hashlib.sha256(data).hexdigest()]))
    return out


def fetch(dest, template):
    with open(LIST, encoding="utf-8") as f:
        rows = [l.rstrip("\n").split("\t") for l in f if l.strip() and not l.startswith("#")]
    problems, fetched, kept = [], 0, 0
    for file, repo, path, commit, size, digest in rows:
        target = os.path.join(dest, file)
        if os.path.isfile(target):
            with open(target, "rb") as f:
                data = f.read()
            if len(data) == int(size) and hashlib.sha256(data).hexdigest() == digest:
                kept += 1
                continue
        url = template.format(repo=repo, commit=commit, path=urllib.parse.quote(path))
        try:
            with urllib.request.urlopen(url, timeout=60) as r:
                data = r.read()
        except Exception as e:  # noqa: BLE001 - any failure is reported with its URL
            problems.append(f"{file}: cannot fetch {url}: {e}")
            continue
        if len(data) != int(size):
            problems.append(f"{file}: {url} has {len(data)} bytes, MANIFEST says {size}")
            continue
        if hashlib.sha256(data).hexdigest() != digest:
            problems.append(f"{file}: {url} has the right size but another SHA-256")
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target + ".part", "wb") as f:
            f.write(data)
        os.replace(target + ".part", target)
        fetched += 1
    for name in sorted(os.listdir(MANIFESTS)):
        suite = name[: -len(".tsv")]
        os.makedirs(os.path.join(dest, suite), exist_ok=True)
        with open(os.path.join(MANIFESTS, name), "rb") as f:
            data = f.read()
        with open(os.path.join(dest, suite, "MANIFEST.tsv.part"), "wb") as f:
            f.write(data)
        os.replace(os.path.join(dest, suite, "MANIFEST.tsv.part"), os.path.join(dest, suite, "MANIFEST.tsv"))
    for p in problems:
        print(f"make corpus: {p}", file=sys.stderr)
    print(f"corpus in {dest}: fetched {fetched}, already there {kept}, failed {len(problems)} "
          f"(of {len(rows)} files)", file=sys.stderr)
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dest", nargs="?")
    ap.add_argument("--url-template", default=os.environ.get("CORPUS_URL_TEMPLATE") or DEFAULT_TEMPLATE)
    ap.add_argument("--list", metavar="CORPUS")
    a = ap.parse_args()
    if a.list:
        print("# file\trepo\tpath\tcommit\tbytes\tsha256 (.ci/corpus.py --list CORPUS)")
        print("\n".join(listing(a.list)))
        return 0
    if not a.dest:
        ap.error("DEST is required")
    return fetch(a.dest, a.url_template)


if __name__ == "__main__":
    sys.exit(main())
