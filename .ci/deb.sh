#!/usr/bin/env bash
# make deb: a Debian package of the release binary, .build/deb/notepress_VERSION_ARCH.deb.
#   the files: `make install` into a staging folder (PREFIX=/usr, zsh's vendor-completions),
#              man pages gzip -9n, /usr/share/doc/notepress/{copyright,changelog.gz}
#   Version:   notepressVersion in Sources/NotepressCLI/Commands.swift (a native package)
#   Depends:   dpkg-shlibdeps on the binary and the highlighting and PDF shims (the libraries they
#              link, KSyntaxHighlighting and Qt 5, Pango and Cairo, and their minimum versions), and what
#              the binary loads at run time, which no ELF header names (RUNTIME_DEPENDS below)
#   bytes:     every time stamp is SOURCE_DATE_EPOCH (default: the last commit's time), owner
#              root:root, so two builds of the same binary give the same .deb
# CONFIG=debug packages the debug build (InstallTests checks its Depends without a release
# build; its Swift runtime, from the toolchain, is in no package and is left out of Depends);
# DEB_OUT names the folder of the .deb (default .build/deb).
# make deb-check (--check): also lintian (overrides in .ci/deb/lintian-overrides, each with its
# reason), a second build compared byte for byte, then, as root, `apt-get install ./….deb` and
# `apt-get remove notepress`, checking the installed files and that none is left.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0; [ "${1:-}" = --check ] && check=1
version=$(sed -n 's/^let notepressVersion = "\(.*\)"$/\1/p' Sources/NotepressCLI/Commands.swift)
arch=$(dpkg --print-architecture)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
out=${DEB_OUT:-.build/deb}
# Loaded or read at run time, so not among the libraries dpkg-shlibdeps reads off the binary:
# libcrypto (dlopen, Sources/CLibCrypto: the manifest's SHA-256), libmicrohttpd (dlopen,
# Sources/CMicroHTTPD: notepress serve), libgumbo (dlopen, Sources/CGumbo: raw HTML), libzip (dlopen,
# Sources/CLibZip: DOCX, ODT, EPUB), libgit2 (dlopen, Sources/CLibGit2: page dates from git history),
# lunr.js (/usr/share/javascript/lunr, SiteAssets: a folder
# run's search) and KaTeX (/usr/share/javascript/katex, HTMLMath: math in HTML). Without any of
# them a run still succeeds, with that feature left out and a warning, but the package's
# features are all there only with them. InstallTests checks every one against the sources.
RUNTIME_DEPENDS="libssl3 (>= 3.0.0), libmicrohttpd12 (>= 0.9.75), libgumbo1 (>= 0.10), libzip4 (>= 1.7), libgit2-1.5, libjs-lunr (>= 2.3), libjs-katex (>= 0.16)"
shlibdeps_flags=()
[ "${CONFIG:-release}" = debug ] && shlibdeps_flags=(--ignore-missing-info)
deb=$out/notepress_${version}_${arch}.deb

build() {  # build DEB: stage, metadata, dpkg-deb
  local target=$1 stage
  stage=$(mktemp -d "${TMPDIR:-/tmp}/notepress-deb.XXXXXX")
  make --no-print-directory -s install NO_BUILD=1 DESTDIR="$stage/root" PREFIX=/usr \
    ZSHCOMPDIR=/usr/share/zsh/vendor-completions >/dev/null
  local root=$stage/root doc=$stage/root/usr/share/doc/notepress
  gzip -9n "$root"/usr/share/man/man1/notepress.1 "$root"/usr/share/man/man7/notepress-markup.7
  install -d "$doc"
  install -m 644 .ci/deb/copyright "$doc/copyright"
  printf 'notepress (%s) unstable; urgency=medium\n\n  * Package of Notepress %s (commit %s).\n\n -- Notepress developers <dev@notepress.example.org>  %s\n' \
    "$version" "$version" "${NOTEPRESS_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}" "$(date -u -R -d "@$SOURCE_DATE_EPOCH")" \
    | gzip -9n > "$doc/changelog.gz"
  install -d "$root/usr/share/lintian/overrides"
  install -m 644 .ci/deb/lintian-overrides "$root/usr/share/lintian/overrides/notepress"
  # Depends: dpkg-shlibdeps reads debian/control in the current folder.
  mkdir -p "$stage/src/debian"
  printf 'Source: notepress\n\nPackage: notepress\nArchitecture: any\n' > "$stage/src/debian/control"
  local depends
  depends=$(cd "$stage/src" && dpkg-shlibdeps "${shlibdeps_flags[@]}" -O "$root/usr/bin/notepress" "$root"/usr/lib/notepress/*.so 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
  depends="$depends, $RUNTIME_DEPENDS"
  install -d -m 755 "$root/DEBIAN"
  local size
  size=$(du -k -s --apparent-size --exclude=DEBIAN "$root" | cut -f1)
  sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@DEPENDS@/$depends/" -e "s/@SIZE@/$size/" \
    .ci/deb/control > "$root/DEBIAN/control"
  (cd "$root" && find usr -type f | LC_ALL=C sort | xargs md5sum > DEBIAN/md5sums)
  chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
  find "$root" -type d -exec chmod 755 {} +
  find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
  mkdir -p "$(dirname "$target")"
  dpkg-deb --root-owner-group -Zxz --build "$root" "$target" >/dev/null
  rm -rf "$stage"
}

# make deb-check runs after make deb: it checks that package rather than building it again.
[ "$check" = 1 ] && [ -f "$deb" ] || build "$deb"
echo "$deb: $(stat -c %s "$deb") bytes; Depends: $(dpkg-deb -f "$deb" Depends)"
[ "$check" = 1 ] || exit 0

echo "== lintian"
lintian --fail-on error,warning --display-info "$deb"
echo "lintian: no errors or warnings (overrides: .ci/deb/lintian-overrides)"

echo "== reproducible"
build "$out/second.deb"
if cmp "$deb" "$out/second.deb"; then echo "two builds: the same bytes ($(sha256sum "$deb" | cut -c1-16))"; else echo "two builds differ" >&2; exit 1; fi
rm -f "$out/second.deb"

echo "== apt install ./$deb"
[ "$(id -u)" = 0 ] || { echo "apt install needs root" >&2; exit 1; }
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "./$deb" >/dev/null
dpkg -s notepress | grep -E '^(Status|Version|Depends):'
/usr/bin/notepress --version
if command -v man >/dev/null; then MANWIDTH=80 man -P cat notepress | head -3; fi
files=$(dpkg -L notepress | while read -r f; do if [ -f "$f" ]; then echo "$f"; fi; done)
echo "$files"
echo "== apt remove notepress"
DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq notepress >/dev/null
left=$(for f in $files; do if [ -e "$f" ]; then echo "$f"; fi; done)
[ -z "$left" ] || { echo "left after apt remove: $left" >&2; exit 1; }
if dpkg -s notepress 2>/dev/null | grep -q 'Status: install ok installed'; then echo "still installed" >&2; exit 1; fi
echo "removed: none of its files left"
