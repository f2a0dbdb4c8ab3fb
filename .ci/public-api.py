#!/usr/bin/env python3
"""The public surface of the Notepress library, from the compiler's symbol graphs.

Runs swift-symbolgraph-extract (the toolchain's; minimum access level public, synthesized members
left out, inherited docs kept) on each library module of a finished `swift build`, then prints:

    module  top-level-types  public-symbols  undocumented
    ...
    total   T  S  U
    undocumented: U

with --types every public top-level type as `module: Type`, and with --list every undocumented symbol as `module: path (kind) file:line`. A symbol counts as
documented when it has a doc comment (`///` or `/** */`), its own or the one of the protocol
requirement it implements. Exit status 0, or 1 with --check when any symbol is undocumented.

Usage: .ci/public-api.py [--build-path .build/debug] [--list] [--types] [--check] [--json]
       .ci/public-api.py --docc-graphs DIR   (the graph `make docs` gives docc)
Tests/NotepressCLITests/PublicAPITests.swift runs it; the lead's "public surface" figures come from it.
"""
import argparse
import glob
import json
import os
import platform
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The modules of the `Notepress` library product (Package.swift), whose public symbols a client
# that depends on the package can reach. C modules and executables are not listed.
MODULES = [
    "Notepress", "NotepressAST", "NotepressReaders", "NotepressResources", "NotepressThemes",
    "NotepressHTML", "NotepressRTF", "NotepressANSI", "NotepressTEI", "NotepressMan", "NotepressPlatform",
]
TYPE_KINDS = {"swift.struct", "swift.enum", "swift.class", "swift.protocol", "swift.typealias", "swift.actor"}


def target_triple():
    machine = platform.machine()
    if sys.platform == "darwin":
        return ("arm64" if machine == "arm64" else "x86_64") + "-apple-macosx13.0"
    return machine + "-unknown-linux-gnu"


def extraction_flags(build):
    """The compiler flags that find the package's modules and the C libraries' headers."""
    flags = ["-target", target_triple(), "-I", os.path.join(build, "Modules")]
    # Every C target with headers of its own (CBidi, CCollation, CGumbo, …): its include folder
    # and the module map SwiftPM wrote for it.
    for c in sorted(os.listdir(os.path.join(ROOT, "Sources"))):
        include = os.path.join(ROOT, "Sources", c, "include")
        modulemap = os.path.join(build, c + ".build", "module.modulemap")
        if os.path.isdir(include) and os.path.isfile(modulemap):
            flags += ["-I", include, "-Xcc", "-fmodule-map-file=" + modulemap]
    for c in ("CCmarkGFM", "CLibXML2", "CYAML"):
        flags += ["-Xcc", "-fmodule-map-file=" + os.path.join(ROOT, "Sources", c, "module.modulemap")]
    for pc in ("libxml-2.0", "libcmark-gfm", "yaml-0.1"):  # the system libraries' header paths
        r = subprocess.run(["pkg-config", "--cflags-only-I", pc], stdout=subprocess.PIPE, text=True)
        for f in r.stdout.split():
            flags += ["-Xcc", f]
    return flags


def extract(build, out):
    """Symbol graphs of every module into `out` (one file per module, plus extension graphs)."""
    flags = extraction_flags(build)
    for m in MODULES:
        r = subprocess.run(["swift-symbolgraph-extract", "-module-name", m, "-minimum-access-level", "public",
                            "-skip-synthesized-members", "-output-dir", out] + flags,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.exit("swift-symbolgraph-extract failed for %s:\n%s" % (m, r.stdout))


def extract_for_docc(build, out):
    """The symbol graph DocC documents: the Notepress module with the modules it re-exports
    (NotepressAST, NotepressThemes) folded in, and extension blocks (AttributeScopes)."""
    os.makedirs(out, exist_ok=True)
    r = subprocess.run(["swift-symbolgraph-extract", "-module-name", "Notepress", "-minimum-access-level", "public",
                        "-skip-synthesized-members", "-emit-extension-block-symbols",
                        "-experimental-allowed-reexported-modules=NotepressAST,NotepressThemes",
                        "-output-dir", out] + extraction_flags(build),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit("swift-symbolgraph-extract failed for Notepress:\n%s" % r.stdout)


def survey(out):
    rows = {m: {"types": 0, "symbols": 0, "undocumented": [], "type_names": []} for m in MODULES}
    for path in sorted(glob.glob(os.path.join(out, "*.symbols.json"))):
        module = os.path.basename(path).split(".")[0].split("@")[0]
        if module not in rows:
            continue
        with open(path) as f:
            graph = json.load(f)
        for s in graph.get("symbols", []):
            if s.get("accessLevel") not in ("public", "open"):
                continue
            kind = s["kind"]["identifier"]
            names = s["pathComponents"]
            row = rows[module]
            row["symbols"] += 1
            if kind in TYPE_KINDS and len(names) == 1:
                row["types"] += 1
                row["type_names"].append(names[0])
            doc = s.get("docComment", {}).get("lines", [])
            if not any(l.get("text", "").strip() for l in doc):
                loc = s.get("location", {})
                where = "%s:%s" % (os.path.relpath(loc.get("uri", "?").replace("file://", ""), ROOT),
                                   loc.get("position", {}).get("line", 0) + 1) if loc else "?"
                row["undocumented"].append("%s: %s (%s) %s" % (module, ".".join(names), kind, where))
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build-path", default=os.path.join(ROOT, ".build", "debug"))
    p.add_argument("--list", action="store_true", help="list undocumented symbols")
    p.add_argument("--check", action="store_true", help="exit 1 when any public symbol is undocumented")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--types", action="store_true", help="list the public top-level types, `module: Type` per line")
    p.add_argument("--docc-graphs", metavar="DIR", help="only write the symbol graph DocC documents into DIR (make docs)")
    a = p.parse_args()
    if a.docc_graphs:
        extract_for_docc(os.path.realpath(a.build_path), a.docc_graphs)
        return 0
    with tempfile.TemporaryDirectory() as out:
        extract(os.path.realpath(a.build_path), out)
        rows = survey(out)
    total = {k: sum(len(r[k]) if k == "undocumented" else r[k] for r in rows.values())
             for k in ("types", "symbols", "undocumented")}
    if a.json:
        print(json.dumps({"modules": {m: {"types": r["types"], "symbols": r["symbols"],
                                          "undocumented": len(r["undocumented"])} for m, r in rows.items()},
                          "total": total}, indent=2))
    else:
        print("%-20s %6s %8s %13s" % ("module", "types", "symbols", "undocumented"))
        for m, r in rows.items():
            print("%-20s %6d %8d %13d" % (m, r["types"], r["symbols"], len(r["undocumented"])))
        print("%-20s %6d %8d %13d" % ("total", total["types"], total["symbols"], total["undocumented"]))
        print("undocumented: %d" % total["undocumented"])
    if a.types:
        for m, r in rows.items():
            for t in sorted(set(r["type_names"])):
                print("%s: %s" % (m, t))
    if a.list:
        for r in rows.values():
            for u in r["undocumented"]:
                print(u)
    return 1 if a.check and total["undocumented"] else 0


if __name__ == "__main__":
    sys.exit(main())
