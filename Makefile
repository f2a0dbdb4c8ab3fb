# Notepress — build, run on the samples, test. Every target installs the Debian packages it needs
# when they are missing: building and running need .ci/apt-packages only; the tests also need
# .ci/apt-packages-test and the PyPI tools in .ci/pip-packages (`make test-deps`).
SHELL := /bin/bash
SWIFT ?= swift
# CONFIG=debug builds and installs the debug binary (the install test does, to reuse the
# build of make test); everything else is release.
CONFIG ?= release
BIN := .build/$(CONFIG)/notepress
# What install and deb ship: BIN without symbols, which stay in $(STRIPPED).debug (named by
# the stripped binary's .gnu_debuglink, so gdb finds them beside it or in /usr/lib/debug).
STRIPPED := .build/$(CONFIG)/stripped/notepress
# Code highlighting: KSyntaxHighlighting behind a C++ shim, a shared library of its own that the
# binary loads with dlopen on the first fenced block with a language (Package.swift says why).
# Installed in LIBDIR/notepress, where the binary looks (../lib/notepress beside its bin folder).
SHIM_NAME := libNotepressSyntaxShim$(if $(filter Darwin,$(shell uname -s)),.dylib,.so)
SHIM := .build/$(CONFIG)/$(SHIM_NAME)
STRIPPED_SHIM := .build/$(CONFIG)/stripped/$(SHIM_NAME)
# PDF output: Pango and Cairo behind a C shim, loaded on the first PDF written; installed beside it.
PDF_SHIM_NAME := libNotepressPDFShim$(if $(filter Darwin,$(shell uname -s)),.dylib,.so)
PDF_SHIM := .build/$(CONFIG)/$(PDF_SHIM_NAME)
STRIPPED_PDF_SHIM := .build/$(CONFIG)/stripped/$(PDF_SHIM_NAME)
# Linux: link the Swift runtime and Foundation into the binary. Start-up falls from about 16 ms
# to 5 ms (no dynamic loading and relocation of libFoundation and ICU), which is most of the
# time of converting one small file. macOS has the runtime in the OS and takes no such flag.
RELEASE_FLAGS ?= $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib,)
# make run: the samples in the formats that fit them, so that a first run prints the summary and
# nothing else. The notes and documents go to every format but man (they are not man pages: as
# man they would warn of their missing NAME section, as `-t man` on a note still does); the man
# page sample goes to man as well. OUT is where (default out/, emptied first).
FORMATS ?= html,rtf,ansi,tei,json
MAN_SAMPLES ?= samples/markdown/man-style.md
OUT ?= out
# `notepress --version` names the commit it was built from: Package.swift turns NOTEPRESS_COMMIT
# into a define of CBuildInfo alone (one file recompiles when it changes). Outside git: none, and
# the binary says "unknown commit", as after a plain `swift build`.
ifeq ($(origin NOTEPRESS_COMMIT),undefined)
NOTEPRESS_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null)$(shell git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo -dirty)
endif
export NOTEPRESS_COMMIT

# The peer suites the tests read: NOTEPRESS_CORPUS, else ../shared/corpus beside the checkout.
# make corpus fetches them (.ci/corpus.py: each file from its repository at the commit its
# MANIFEST.tsv names, size and SHA-256 checked); CORPUS_URL_TEMPLATE points it elsewhere (a mirror).
CORPUS := $(or $(NOTEPRESS_CORPUS),../shared/corpus)
CORPUS_SUITES := cmark-gfm-tests github-slugger man-md markdown mustache-spec notes vault-foam

# make install: PREFIX and DESTDIR as in autotools; each completion script where its shell looks
# (bash-completion and fish search PREFIX/share through XDG_DATA_DIRS, zsh's fpath holds
# /usr/local/share/zsh/site-functions). Templates and themes are embedded in the binary.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
LIBDIR ?= $(PREFIX)/lib
# The folders install makes (with their parents) and uninstall removes when empty.
INSTALL_DIRS := $(BINDIR) $(LIBDIR)/notepress $(MANDIR)/man1 $(MANDIR)/man7 $(BASHCOMPDIR) $(ZSHCOMPDIR) $(FISHCOMPDIR)
INSTALLED := $(BINDIR)/notepress $(LIBDIR)/notepress/$(SHIM_NAME) $(LIBDIR)/notepress/$(PDF_SHIM_NAME) $(MANDIR)/man1/notepress.1 $(MANDIR)/man7/notepress-markup.7 \
  $(BASHCOMPDIR)/notepress $(ZSHCOMPDIR)/_notepress $(FISHCOMPDIR)/notepress.fish

.PHONY: all deps test-deps corpus corpus-check build strip install uninstall deb deb-check run test sizes mutation man docs screenshots bench fuzz fuzz-site fuzz-serve clean

all: build

deps:
	@bash .ci/install-packages .ci/apt-packages

test-deps:
	@bash .ci/install-packages --pip .ci/apt-packages .ci/apt-packages-test

build: deps
	$(SWIFT) build -c $(CONFIG) --product notepress $(if $(filter release,$(CONFIG)),$(RELEASE_FLAGS))
	$(SWIFT) build -c $(CONFIG) --product NotepressSyntaxShim
	$(SWIFT) build -c $(CONFIG) --product NotepressPDFShim
	@$(MAKE) --no-print-directory strip

# The debug information goes to a file of its own (objcopy on Linux, dsymutil on macOS); only
# when the binary changed.
strip: $(STRIPPED) $(STRIPPED_SHIM) $(STRIPPED_PDF_SHIM)
# The binary is made by `build` (swift build); this rule only lets make plan without it (make -n
# in a fresh clone) and names it as what strip needs.
$(BIN):
	@test -f $@ || { echo "make: $@ is not built; run make build (or make install)" >&2; exit 1; }
$(STRIPPED): $(BIN)
	@mkdir -p $(dir $@)
ifeq ($(shell uname -s),Darwin)
	dsymutil $(BIN) -o $@.dSYM && cp $(BIN) $@.tmp && strip -S -x $@.tmp && mv $@.tmp $@
else
	objcopy --only-keep-debug $(BIN) $@.debug
	objcopy --strip-all --remove-section=.comment --add-gnu-debuglink=$@.debug $(BIN) $@.tmp && mv $@.tmp $@
endif

$(SHIM):
	@test -f $@ || { echo "make: $@ is not built; run make build (or make install)" >&2; exit 1; }
# SwiftPM links the shim against libswiftCore.so with the toolchain's folder as RUNPATH, though it
# has no Swift code (Sources/NotepressSyntaxShim/syntax.cpp): the installed copy drops both, so it
# loads where no Swift toolchain is installed.
$(STRIPPED_SHIM): $(SHIM)
	@mkdir -p $(dir $@)
ifeq ($(shell uname -s),Darwin)
	cp $(SHIM) $@.tmp && strip -S -x $@.tmp && mv $@.tmp $@
else
	objcopy --strip-unneeded --remove-section=.comment $(SHIM) $@.tmp
	patchelf --remove-needed libswiftCore.so --remove-rpath $@.tmp && mv $@.tmp $@
endif

$(PDF_SHIM):
	@test -f $@ || { echo "make: $@ is not built; run make build (or make install)" >&2; exit 1; }
# As the highlighting shim: no libswiftCore.so, no toolchain RUNPATH in the installed copy.
$(STRIPPED_PDF_SHIM): $(PDF_SHIM)
	@mkdir -p $(dir $@)
ifeq ($(shell uname -s),Darwin)
	cp $(PDF_SHIM) $@.tmp && strip -S -x $@.tmp && mv $@.tmp $@
else
	objcopy --strip-unneeded --remove-section=.comment $(PDF_SHIM) $@.tmp
	patchelf --remove-needed libswiftCore.so --remove-rpath $@.tmp && mv $@.tmp $@
endif

# install builds first; NO_BUILD=1 installs what is built (the install test: CONFIG=debug NO_BUILD=1).
install: $(if $(NO_BUILD),strip,build)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7 \
	  $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 $(STRIPPED) $(DESTDIR)$(BINDIR)/notepress
	install -d $(DESTDIR)$(LIBDIR)/notepress
	install -m 644 $(STRIPPED_SHIM) $(DESTDIR)$(LIBDIR)/notepress/$(SHIM_NAME)
	install -m 644 $(STRIPPED_PDF_SHIM) $(DESTDIR)$(LIBDIR)/notepress/$(PDF_SHIM_NAME)
	install -m 644 man/notepress.1 $(DESTDIR)$(MANDIR)/man1/notepress.1
	install -m 644 man/notepress-markup.7 $(DESTDIR)$(MANDIR)/man7/notepress-markup.7
	$(BIN) completions bash > $(DESTDIR)$(BASHCOMPDIR)/notepress
	$(BIN) completions zsh > $(DESTDIR)$(ZSHCOMPDIR)/_notepress
	$(BIN) completions fish > $(DESTDIR)$(FISHCOMPDIR)/notepress.fish
	chmod 644 $(DESTDIR)$(BASHCOMPDIR)/notepress $(DESTDIR)$(ZSHCOMPDIR)/_notepress $(DESTDIR)$(FISHCOMPDIR)/notepress.fish

# Removes exactly what install wrote, then each folder install makes (install -d, parents
# included) that is now empty, up to PREFIX, or up to DESTDIR when given (a staging root): a
# folder that holds anything else stays, and so does PREFIX itself and any folder outside it.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	@top='$(if $(DESTDIR),$(DESTDIR),$(PREFIX))'; top="$${top%/}"; \
	for d in $(addprefix $(DESTDIR),$(INSTALL_DIRS)); do \
	  while case "$$d" in "$$top"/?*) true;; *) false;; esac && rmdir "$$d" 2>/dev/null; do d="$${d%/*}"; done; \
	done

# A Debian package of the release binary in .build/deb (.ci/deb.sh: Depends from dpkg-shlibdeps,
# the version from the sources, SOURCE_DATE_EPOCH from the last commit, so two builds match).
deb: build
	@bash .ci/install-packages .ci/apt-packages .ci/apt-packages-deb
	bash .ci/deb.sh

# The package checked: lintian, two builds with the same bytes, apt install and apt remove
# (root; a few minutes, so not part of make test).
deb-check: deb
	bash .ci/deb.sh --check

run: $(if $(NO_BUILD),,build)
	@rm -rf $(OUT)
	@$(BIN) convert samples -o $(OUT) -t $(FORMATS)
	@for f in $(MAN_SAMPLES); do out="$(OUT)/$${f#samples/}"; $(BIN) convert "$$f" -t man -o "$${out%.md}.1" || exit 1; done
	@echo "Output is in $(abspath $(OUT)) (every format side by side; open $(OUT)/index.html; man -l $(OUT)/markdown/man-style.1)"

# Stops make test before anything is installed or built when the peer suites are not there.
corpus-check:
	@missing=""; for s in $(CORPUS_SUITES); do [ -f "$(CORPUS)/$$s/MANIFEST.tsv" ] || missing="$$missing $$s"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make test: the peer suites are missing from $(CORPUS) (no$$missing), where the tests read them" \
	    "($(if $(NOTEPRESS_CORPUS),NOTEPRESS_CORPUS,NOTEPRESS_CORPUS unset: ../shared/corpus beside the checkout))." \
	    "Get them with 'make corpus' (fetches each file from its public repository into $(CORPUS))," \
	    "or set NOTEPRESS_CORPUS to a copy." >&2; exit 1; fi

corpus:
	python3 .ci/corpus.py $(CORPUS) $(if $(CORPUS_URL_TEMPLATE),--url-template '$(CORPUS_URL_TEMPLATE)')

# The suite is XCTest only; the last line is the plain "N passed, N failed" summary (test cases).
test: corpus-check test-deps
	bash .ci/check-platform.sh
	$(SWIFT) build --build-tests
	$(SWIFT) build --product notepress
	$(SWIFT) build --product NotepressSyntaxShim
	$(SWIFT) build --product NotepressPDFShim
	@set -o pipefail; $(SWIFT) test --skip-build --disable-swift-testing 2>&1 | tee .build/test.log; status=$$?; \
	  passed=$$(grep -cE "^Test Case '.*' passed" .build/test.log); \
	  failed=$$(grep -cE "^Test Case '.*' failed" .build/test.log); \
	  echo "$$passed passed, $$failed failed"; exit $$status

# The size rule: no Swift file in Sources/ over 500 lines, no function over 100 lines but the
# readers' byte scanners (.ci/sizes.py lists them, largest first; exit 1 when one is over).
sizes:
	python3 .ci/sizes.py --check

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

fuzz-site: deps
	bash .ci/fuzz.sh site

# The request path of notepress serve (.ci/fuzz-serve.py): random and malformed requests.
fuzz-serve: deps
	bash .ci/fuzz.sh serve

clean:
	rm -rf .build out
