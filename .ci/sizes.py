#!/usr/bin/env python3
"""Sizes of the Swift sources: files over a line limit and functions over a line limit.

The architecture rule (issue 51, HELPER-RULES): no file over 500 lines in Sources/, no function
over 100 lines except the readers' byte scanners (ALLOWED_FUNCTIONS below). Functions are found by
their keyword (`func`, `init`, `deinit`, `subscript`) and measured from the keyword's line to the
line of the brace that closes their body, braces matched with comments and string literals
(including `\"\"\"` blocks, raw strings `#"…"#` and interpolations) skipped. Closures stored in a
property are not functions here.

Usage: .ci/sizes.py [--files N] [--functions N] [--check] [PATH ...]   (default: Sources)
Prints `LINES path` for each file over --files (500), then `LINES path:line name` for each
function over --functions (100), largest first; the allowed ones are marked `(allowed)`. With
--check the exit status is 1 when a file or a function not allowed is over its limit
(`make sizes` runs it).
"""
import argparse
import os
import re
import sys

# The readers' byte scanners: one loop over the input bytes each, kept whole on purpose.
ALLOWED_FUNCTIONS = {
    ("Sources/NotepressReaders/NoteInlineScanner.swift", "scan"),
    ("Sources/NotepressReaders/VaultSyntax.swift", "scanRegion"),
}

DECL = re.compile(r"\b(func\s+([^\s(<]+)|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<])")


def code_only(text):
    """`text` with comments and the contents of string literals replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    # Stack of contexts: ("code", depth_of_parens_for_interpolation) or ("string", hashes, multiline).
    stack = [("code", 0)]
    while i < n:
        c = text[i]
        top = stack[-1]
        if top[0] == "code":
            if text.startswith("//", i):
                j = text.find("\n", i)
                j = n if j < 0 else j
                out.append(" " * (j - i))
                i = j
                continue
            if text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j):
                        depth += 1; j += 2
                    elif text.startswith("*/", j):
                        depth -= 1; j += 2
                    else:
                        j += 1
                out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
                i = j
                continue
            m = re.match(r'(#*)("""|")', text[i:i + 40])
            if m and (m.group(1) or c == '"'):
                hashes = len(m.group(1))
                multi = m.group(2) == '"""'
                stack.append(("string", hashes, multi))
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
                continue
            if c == "(" and len(stack) > 1:
                stack[-1] = ("code", top[1] + 1)
            elif c == ")" and len(stack) > 1:
                if top[1] == 0:
                    stack.pop()  # end of an interpolation
                    out.append(" ")
                    i += 1
                    continue
                stack[-1] = ("code", top[1] - 1)
            out.append(c)
            i += 1
            continue
        # Inside a string literal.
        _, hashes, multi = top
        close = ('"""' if multi else '"') + "#" * hashes
        if text.startswith(close, i):
            stack.pop()
            out.append(" " * len(close))
            i += len(close)
            continue
        escape = "\\" + "#" * hashes
        if text.startswith(escape, i):
            k = i + len(escape)
            if k < n and text[k] == "(":
                stack.append(("code", 0))
                out.append(" " * (k + 1 - i))
                i = k + 1
                continue
            out.append(" " * (k + 1 - i))
            i = k + 1
            continue
        out.append("\n" if c == "\n" else " ")
        i += 1
    return "".join(out)


def functions(path):
    """(first line, last line, name) of each function with a body in the Swift file `path`."""
    with open(path, encoding="utf-8") as f:
        code = code_only(f.read())
    line_starts = [0]
    for m in re.finditer("\n", code):
        line_starts.append(m.end())

    def line_of(pos):
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    found = []
    for m in DECL.finditer(code):
        if m.start() > 0 and (code[m.start() - 1].isalnum() or code[m.start() - 1] in "_.$"):
            continue
        name = m.group(2) or m.group(1).split("(")[0].split("<")[0].strip().rstrip("?!")
        # The body's brace: the first `{` outside parentheses and brackets; none (a protocol
        # requirement) when a `}` or another declaration comes first.
        j, depth = m.end(), 0
        if m.group(1).endswith("(") or m.group(1).endswith("<"):
            j -= 1
        body = None
        while j < len(code):
            ch = code[j]
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            elif depth == 0 and ch == "{":
                body = j
                break
            elif depth == 0 and ch == "}":
                break
            elif depth == 0 and DECL.match(code, j) and (j == 0 or not (code[j - 1].isalnum() or code[j - 1] == "_")):
                break
            j += 1
        if body is None:
            continue
        k, level = body, 0
        while k < len(code):
            if code[k] == "{":
                level += 1
            elif code[k] == "}":
                level -= 1
                if level == 0:
                    break
            k += 1
        found.append((line_of(m.start()), line_of(k), name))
    return found


def swift_files(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for root, dirs, files in os.walk(p):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(".swift"):
                    yield os.path.join(root, f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=500, help="file line limit (500)")
    ap.add_argument("--functions", type=int, default=100, help="function line limit (100)")
    ap.add_argument("--check", action="store_true", help="exit 1 when something not allowed is over")
    ap.add_argument("paths", nargs="*", default=["Sources"])
    args = ap.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    big_files, long_functions = [], []
    for path in swift_files(args.paths):
        with open(path, encoding="utf-8") as f:
            count = sum(1 for _ in f)
        if count > args.files:
            big_files.append((count, path))
        for first, last, name in functions(path):
            length = last - first + 1
            if length > args.functions:
                long_functions.append((length, path, first, name))
    failed = False
    print(f"files over {args.files} lines: {len(big_files)}")
    for count, path in sorted(big_files, reverse=True):
        print(f"  {count:5d} {path}")
        failed = True
    print(f"functions over {args.functions} lines: {len(long_functions)}")
    for length, path, first, name in sorted(long_functions, key=lambda t: (-t[0], t[1], t[2])):
        allowed = (path, name) in ALLOWED_FUNCTIONS
        print(f"  {length:5d} {path}:{first} {name}" + (" (allowed)" if allowed else ""))
        failed = failed or not allowed
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    sys.exit(main())
