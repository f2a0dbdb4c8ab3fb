#!/bin/sh
# make screenshots: renders a sample note page and the folder index with headless Chromium at
# three content size categories (extraSmall, large, accessibilityExtraExtraExtraLarge) into
# out/screenshots/<category>-{note,index}.png (900×1200 CSS px), and (issue 14) a vault page with
# its tags and backlinks, the notes list and a tag page: out/screenshots/site-{page,index,tag}.png.
# Needs: chromium (Debian), fonts-noto-cjk, fonts-noto-color-emoji.
#
# Issue 16 ("every script and every reader") adds out/screenshots/scripts/: Chromium at 390 and
# 1280 CSS px of the right-to-left note (samples/notes/haifa-workshop.note), a CJK note
# (samples/notes/chinese-study.note), Markdown headings and alerts and the phone-width cases
# (.ci/screenshot-cases/), light and dark; and the RTF of the right-to-left, CJK, fonts, list and
# badge cases as LibreOffice draws them (soffice → PDF → pdftoppm PNG pages, with pdffonts
# listings). Needs libreoffice-writer-nogui, poppler-utils, fonts-urw-base35 too.
# HTML comes from `notepress convert samples/notes -o out/html-<cat> --size-category <cat>` when
# the convert command exists, else from the HTMLPageScreenshotTests test (same templates/theme).
set -eu
cd "$(dirname "$0")/.."
OUT=out
SHOTS=$OUT/screenshots
NOTE=${NOTE:-letter-to-future-me}
CATEGORIES="extraSmall large accessibilityExtraExtraExtraLarge"
CHROMIUM=${CHROMIUM:-chromium}
command -v "$CHROMIUM" >/dev/null 2>&1 || { echo "screenshots: $CHROMIUM not found (apt-get install chromium fonts-noto-cjk fonts-noto-color-emoji)" >&2; exit 1; }
mkdir -p "$SHOTS"

swift build --product notepress >/dev/null 2>&1 || true
if .build/debug/notepress convert --help >/dev/null 2>&1; then
    for cat in $CATEGORIES; do
        rm -rf "$OUT/html-$cat"
        .build/debug/notepress convert samples/notes -o "$OUT/html-$cat" --size-category "$cat"
    done
else
    echo "screenshots: 'notepress convert' not available yet; writing the pages with HTMLPageScreenshotTests" >&2
    NOTEPRESS_SCREENSHOT_HTML="$PWD/$OUT" swift test --filter HTMLPageScreenshotTests >/dev/null
fi

for cat in $CATEGORIES; do
    dir="$PWD/$OUT/html-$cat"
    for page in "$NOTE:note" "index:index"; do
        file=${page%%:*}; label=${page##*:}
        [ -f "$dir/$file.html" ] || { echo "screenshots: missing $dir/$file.html" >&2; exit 1; }
        "$CHROMIUM" --headless --disable-gpu --no-sandbox --hide-scrollbars \
            --screenshot="$SHOTS/$cat-$label.png" --window-size=900,1200 "file://$dir/$file.html" >/dev/null 2>&1
        echo "$SHOTS/$cat-$label.png"
    done
done

# Issue 14: a folder as a site. vault-foam (Foam's documentation) converted with --backlinks and
# --hashtags: a page with its tags and "Linked from" (user/recipes/web-clipper.html), the notes
# list (notes-index.html: title, date, folder, tags, excerpt) and a tag page (tags/recipe.html).
SITE=$OUT/site-foam
rm -rf "$SITE"
.build/debug/notepress convert -q ../shared/corpus/vault-foam -o "$SITE" --backlinks --hashtags
for page in "user/recipes/web-clipper:site-page" "notes-index:site-index" "tags/recipe:site-tag"; do
    file=${page%%:*}; label=${page##*:}
    "$CHROMIUM" --headless --disable-gpu --no-sandbox --hide-scrollbars \
        --screenshot="$SHOTS/$label.png" --window-size=900,1200 "file://$PWD/$SITE/$file.html" >/dev/null 2>&1
    echo "$SHOTS/$label.png"
done

# Issue 16: scripts, directions, readers.
SCRIPTS=$SHOTS/scripts
rm -rf "$SCRIPTS"
mkdir -p "$SCRIPTS/html" "$SCRIPTS/rtf"
CASES="samples/notes/haifa-workshop.note:rtl samples/notes/chinese-study.note:cjk .ci/screenshot-cases/headings.md:headings .ci/screenshot-cases/phone-width.md:phone .ci/screenshot-cases/fonts.md:fonts .ci/screenshot-cases/list.note:list"
for c in $CASES; do
    src=${c%%:*}; name=${c##*:}
    .build/debug/notepress convert -q "$src" -o "$SCRIPTS/html/$name.html"
    .build/debug/notepress convert -q "$src" -o "$SCRIPTS/rtf/$name.rtf"
    for w in 390 1280; do
        for scheme in light dark; do
            flag=""; [ "$scheme" = dark ] && flag="--force-dark-mode"
            "$CHROMIUM" --headless --disable-gpu --no-sandbox --hide-scrollbars $flag \
                --screenshot="$SCRIPTS/$name-$w-$scheme.png" --window-size=$w,1600 "file://$PWD/$SCRIPTS/html/$name.html" >/dev/null 2>&1
        done
        echo "$SCRIPTS/$name-$w-light.png"
    done
done
if command -v soffice >/dev/null 2>&1; then
    soffice -env:UserInstallation=file:///tmp/notepress-screenshots-lo --headless --convert-to pdf \
        --outdir "$SCRIPTS/rtf" "$SCRIPTS"/rtf/*.rtf >/dev/null 2>&1
    for pdf in "$SCRIPTS"/rtf/*.pdf; do
        name=$(basename "$pdf" .pdf)
        pdftoppm -r 96 -png "$pdf" "$SCRIPTS/rtf-$name"
        pdffonts "$pdf" > "$SCRIPTS/rtf-$name.fonts.txt"
        echo "$SCRIPTS/rtf-$name-*.png"
    done
else
    echo "screenshots: soffice not found: no RTF pages (apt-get install libreoffice-writer-nogui poppler-utils)" >&2
fi
