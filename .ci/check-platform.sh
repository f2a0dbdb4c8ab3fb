#!/usr/bin/env bash
# The platform rule (README "Portability"): only Sources/NotepressPlatform/ (the module NotepressPlatform)
# talks to the C library module of the platform. Fails, naming file and line, when another source file
# imports Glibc/Darwin/Musl, calls through one of them, or uses a stat field whose name differs
# between Linux (st_mtim) and Darwin (st_mtimespec).
set -u
cd "$(dirname "$0")/.."
hits=$(grep -rnE '^\s*(@_exported\s+)?import\s+(Glibc|Darwin|Musl)\b|\b(Glibc|Darwin|Musl)\.[a-z]|\bst_(mtim|mtimespec|atim|ctim)\b' \
  --include='*.swift' Sources | grep -v '^Sources/NotepressPlatform/')
if [ -n "$hits" ]; then
  echo "platform calls outside Sources/NotepressPlatform/:" >&2
  echo "$hits" >&2
  exit 1
fi
echo "platform check: only Sources/NotepressPlatform/ uses the C library module"
