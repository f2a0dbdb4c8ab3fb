#!/usr/bin/env bash
# Builds the NotepressFuzz libFuzzer target with ASan and runs it for FUZZ_SECONDS (default 300).
# Crashes are written to the package folder (crash-*, timeout-*, oom-*; git-ignored); the corpus grows in .build/fuzz-corpus; replay one with
#   swift build --product NotepressFuzz && .build/debug/NotepressFuzz crash-…
# and add it to Tests/NotepressReaderTests/FuzzRegressionTests.swift.
# Environment: FUZZ_SECONDS, FUZZ_JOBS (parallel fuzzing processes, default 1), FUZZ_MAX_LEN
# (longest input in bytes, default 4096), FUZZ_TIMEOUT (seconds per input before libFuzzer calls it a
# hang, default 20; raise it on a loaded machine),
# FUZZ_SCRATCH (build folder, default .build/fuzz so normal builds are not disturbed),
# NOTEPRESS_FUZZ_STRICT=1 (also fail on TEI outputs that do not validate).
#
# `bash .ci/fuzz.sh site` fuzzes the site engine instead, through the release binary: random
# folders of notes, links and front matter, converted, re-run, edited and re-run, each checked
# against a fresh build (.ci/fuzz-site.py; FUZZ_JOBS processes, FUZZ_SECONDS each; findings in
# .build/fuzz-site-findings/SEED/, replay with .ci/fuzz-site.py --seed SEED --rounds 1; DOCX, ODT,
# EPUB and PDF outputs are read back: the zip and its XML parts, PDF's first and last bytes).
#
# `bash .ci/fuzz.sh serve` fuzzes the request path of `notepress serve`: random and malformed HTTP
# requests to a running server on 127.0.0.1 (.ci/fuzz-serve.py: never a byte from outside the
# output, always an answer, never a crash; FUZZ_SECONDS, default 300 (FUZZ_ROUNDS requests at most); findings in
# .build/fuzz-serve-findings/SEED/, replay with .ci/fuzz-serve.py --seed SEED).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = serve ]; then
  swift build -c release --product notepress $( [ "$(uname -s)" = Linux ] && echo --static-swift-stdlib )
  # --rounds: the script's own cap (100 000 requests, under 2 min here) would end a long run early.
  exec python3 .ci/fuzz-serve.py --seconds "${FUZZ_SECONDS:-300}" --rounds "${FUZZ_ROUNDS:-1000000000}" \
    --binary .build/release/notepress ${FUZZ_SEED:+--seed $FUZZ_SEED}
fi
if [ "${1:-}" = site ]; then
  swift build -c release --product notepress $( [ "$(uname -s)" = Linux ] && echo --static-swift-stdlib )
  swift build -c release --product NotepressPDFShim   # beside the binary, for -t pdf (as make build)
  pids=()
  for j in $(seq 1 "${FUZZ_JOBS:-1}"); do
    python3 .ci/fuzz-site.py --seconds "${FUZZ_SECONDS:-300}" --binary .build/release/notepress \
      ${FUZZ_SEED:+--seed $((FUZZ_SEED + j * 1000000))} &
    pids+=($!)
  done
  status=0
  for p in "${pids[@]}"; do wait "$p" || status=1; done
  exit $status
fi
SECONDS_TO_RUN="${FUZZ_SECONDS:-300}"
JOBS="${FUZZ_JOBS:-1}"
SCRATCH="${FUZZ_SCRATCH:-.build/fuzz}"
CORPUS="${FUZZ_CORPUS:-.build/fuzz-corpus}"
ARTIFACTS=.
mkdir -p "$CORPUS"

# Every module gets ASan and libFuzzer's coverage instrumentation; only NotepressFuzz links
# libFuzzer itself (NOTEPRESS_LIBFUZZER=1, see Package.swift), so other executables keep their
# own main. lld: gold fails on the ASan debug info.
# The PDF shim (C, not instrumented) is built beside it with the same flags (other flags would
# rebuild every module): PDFLibrary looks beside the executable (Platform.shimCandidates), and
# NotepressFuzz refuses to start when a writer cannot write (FuzzHarness.warmUp).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"   # the build tool runs instrumented too
BUILD_FLAGS=(-c debug --scratch-path "$SCRATCH"
  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table
  -Xswiftc -use-ld=lld)
NOTEPRESS_LIBFUZZER=1 swift build "${BUILD_FLAGS[@]}" --product NotepressFuzz
NOTEPRESS_LIBFUZZER=1 swift build "${BUILD_FLAGS[@]}" --product NotepressPDFShim
BIN="$SCRATCH/debug/NotepressFuzz"

# Seed corpus: samples and the shared corpus, each prefixed with an options byte and a width byte
# (byte 0: 0 note markup, 1 GFM; see Sources/NotepressFuzzSupport/FuzzHarness.swift). The hand-made seeds of
# .ci/fuzz-seeds (deep nesting, control and bidi characters, dangerous URLs, front matter, dates,
# the folder path) are read as a second corpus folder; .ci/fuzz.dict is the dictionary.
if [ -z "$(ls -A "$CORPUS")" ]; then
  i=0
  for f in samples/notes/*.note ../shared/corpus/notes/* samples/markdown/*.md ../shared/corpus/markdown/*; do
    [ -f "$f" ] || continue
    case "$f" in *.md|*/markdown/*) flag='\x01' ;; *) flag='\x00' ;; esac
    { printf "$flag"; printf '\x46'; head -c 4000 "$f"; } > "$CORPUS/seed-$i"
    i=$((i + 1))
  done
fi

PARALLEL=()
if [ "$JOBS" -gt 1 ]; then PARALLEL=(-fork="$JOBS" -ignore_crashes=1); fi
"$BIN" "$CORPUS" .ci/fuzz-seeds -dict=.ci/fuzz.dict \
  -max_total_time="$SECONDS_TO_RUN" -max_len="${FUZZ_MAX_LEN:-4096}" -timeout="${FUZZ_TIMEOUT:-20}" -rss_limit_mb=4096 \
  -artifact_prefix="$ARTIFACTS/" -print_final_stats=1 "${PARALLEL[@]}"
