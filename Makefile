# Notepress — build, run on the samples, test. Every target installs the Debian packages it needs
# when they are missing: building and running need .ci/apt-packages only; the tests also need
# .ci/apt-packages-test and the PyPI tools in .ci/pip-packages (`make test-deps`).
SHELL := /bin/bash
SWIFT ?= swift
BIN := .build/release/notepress
# Linux: link the Swift runtime and Foundation into the binary. Start-up falls from about 16 ms
# to 5 ms (no dynamic loading and relocation of libFoundation and ICU), which is most of the
# time of converting one small file. macOS has the runtime in the OS and takes no such flag.
RELEASE_FLAGS ?= $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib,)
FORMATS ?= html,rtf,ansi,tei,man,json

.PHONY: all deps test-deps build run test mutation man docs screenshots bench fuzz clean

all: build

deps:
	@bash .ci/install-packages .ci/apt-packages

test-deps:
	@bash .ci/install-packages --pip .ci/apt-packages .ci/apt-packages-test

build: deps
	$(SWIFT) build -c release --product notepress $(RELEASE_FLAGS)

run: build
	rm -rf out
	$(BIN) convert samples -o out -t $(FORMATS)
	@echo "Output is in $(CURDIR)/out (every format side by side; open out/index.html)"

# The suite is XCTest only; the last line is the plain "N passed, N failed" summary (test cases).
test: test-deps
	bash .ci/check-platform.sh
	$(SWIFT) build --build-tests
	$(SWIFT) build --product notepress
	@set -o pipefail; $(SWIFT) test --skip-build --disable-swift-testing 2>&1 | tee .build/test.log; status=$$?; \
	  passed=$$(grep -cE "^Test Case '.*' passed" .build/test.log); \
	  failed=$$(grep -cE "^Test Case '.*' failed" .build/test.log); \
	  echo "$$passed passed, $$failed failed"; exit $$status

# Planted faults, each of which some test must catch (Tests/Mutants/*.diff; how and which tests:
# Tests/Mutants/run --help). One rebuild per mutant, so not part of make test; --resume and one
# patch at a time: bash Tests/Mutants/run [--resume] Tests/Mutants/NAME.diff.
mutation: test-deps
	bash Tests/Mutants/run $(MUTATION_FLAGS)

man: build
	$(BIN) convert man/notepress.1.md -t man -o man/notepress.1
	$(BIN) convert man/notepress-markup.7.md -t man -o man/notepress-markup.7

# DocC documentation of the library (Sources/Notepress/Notepress.docc and every public
# declaration's doc comment) into .build/docs, with the toolchain's docc: no package dependency.
# The symbol graph comes from the debug build (swift-symbolgraph-extract through
# .ci/public-api.py, the re-exported AST and themes folded into the Notepress module).
# Open it with any static web server: python3 -m http.server -d .build/docs, then /documentation/notepress.
docs: deps
	$(SWIFT) build --target Notepress
	rm -rf .build/symbol-graphs .build/docs
	python3 .ci/public-api.py --docc-graphs .build/symbol-graphs
	docc convert Sources/Notepress/Notepress.docc --additional-symbol-graph-dir .build/symbol-graphs \
	  --fallback-display-name Notepress --fallback-bundle-identifier org.notepress.Notepress \
	  --transform-for-static-hosting --output-path .build/docs
	@echo "Documentation is in $(CURDIR)/.build/docs (documentation/notepress/index.html)"

screenshots: build test-deps
	bash .ci/screenshots.sh

bench: build
	Benchmarks/run $(BENCH_ARGS)

fuzz: deps
	bash .ci/fuzz.sh

clean:
	rm -rf .build out
