// The C interface of include/notepress_syntax.h over KSyntaxHighlighting. One repository per
// process, built on first use; every call holds one lock (the library's definitions load lazily
// and are not safe to share between threads, and site runs convert on several).
#include "notepress_syntax.h"

#include <KSyntaxHighlighting/AbstractHighlighter>
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Format>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/State>
#include <KSyntaxHighlighting/Theme>
#include <ksyntaxhighlighting_version.h>

#include <QMetaEnum>
#include <QString>
#include <QtGlobal>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

using namespace KSyntaxHighlighting;

#if defined(__linux__)
// SwiftPM links every library product with the toolchain's swiftrt.o, whose constructor registers
// the library's Swift metadata with the Swift runtime (swift_addNewDSOImage), and so against
// libswiftCore.so with the toolchain's folder as RUNPATH. This library has no Swift code: these
// two do nothing, bind inside the library (hidden), and leave libswiftCore.so unused, so that
// `make strip` can drop it (patchelf) and the installed shim loads where no Swift toolchain is
// (the .deb; InstallTests). The notepress binary carries its own Swift runtime (static stdlib).
extern "C" __attribute__((visibility("hidden"))) void swift_addNewDSOImage(const void *) {}
extern "C" __attribute__((visibility("hidden"))) bool _swift_backtrace_isThunkFunction(const char *) { return false; }
#endif

namespace {

std::mutex lock;
Repository *repository = nullptr;

/// Qt's own messages (a theme file it cannot read, say) would reach the user's terminal: the
/// shim's callers report what matters.
void quiet(QtMsgType, const QMessageLogContext &, const QString &) {}

/// Hands each token of one line to the caller, offsets moved from UTF-16 units to UTF-8 bytes.
class Tokens final : public AbstractHighlighter {
public:
    np_syntax_token_fn token = nullptr;
    void *context = nullptr;
    size_t lineStart = 0;              // the line's first byte in the whole text
    std::vector<size_t> utf8Offset;    // UTF-16 index → byte offset in the line (one past the end too)

    using AbstractHighlighter::highlightLine;

protected:
    void applyFormat(int offset, int length, const Format &format) override {
        const int style = format.textStyle();
        if (style == Theme::Normal || length <= 0 || offset < 0) return;
        const size_t n = utf8Offset.size() - 1;
        const size_t from = std::min<size_t>(offset, n), to = std::min<size_t>(size_t(offset) + length, n);
        const size_t a = utf8Offset[from], b = utf8Offset[to];
        if (b > a) token(context, lineStart + a, b - a, style);
    }
};

/// Fills `map` with the byte offset of each UTF-16 unit of the valid UTF-8 `bytes`; a
/// supplementary character's low surrogate maps to the character's first byte, so no token
/// boundary falls inside a character. Returns the number of UTF-16 units.
size_t mapUTF16(const unsigned char *bytes, size_t length, std::vector<size_t> &map) {
    map.clear();
    for (size_t i = 0; i < length;) {
        const unsigned char b = bytes[i];
        const size_t n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        map.push_back(i);
        if (n == 4) map.push_back(i);
        i += std::min(n, length - i);
    }
    map.push_back(length);
    return map.size() - 1;
}

} // namespace

extern "C" const char *np_syntax_library_version(void) { return SyntaxHighlighting_VERSION_STRING; }

extern "C" void *np_syntax_open(void) {
    std::lock_guard<std::mutex> guard(lock);
    if (!repository) {
        qInstallMessageHandler(quiet);
        repository = new Repository();
    }
    return repository;
}

extern "C" int np_syntax_definition_count(void *r) {
    std::lock_guard<std::mutex> guard(lock);
    return static_cast<Repository *>(r)->definitions().size();
}

extern "C" int np_syntax_resolve(void *r, const char *language, char *name, size_t capacity) {
    std::lock_guard<std::mutex> guard(lock);
    auto *repo = static_cast<Repository *>(r);
    const QString lang = QString::fromUtf8(language);
    if (lang.isEmpty()) return 0;
    Definition d = repo->definitionForName(lang);
    // Names with case ignored (```python is the library's "Python", ```javascript "JavaScript").
    if (!d.isValid()) {
        for (const Definition &c : repo->definitions()) {
            if (c.name().compare(lang, Qt::CaseInsensitive) == 0) { d = c; break; }
        }
    }
    // The library's aliases: a language named by its file extension (py, sh, rs, yml, js).
    if (!d.isValid() && !lang.contains(QLatin1Char('/'))) d = repo->definitionForFileName(QStringLiteral("code.") + lang);
    if (!d.isValid() && !lang.contains(QLatin1Char('/'))) d = repo->definitionForFileName(QStringLiteral("code.") + lang.toLower());
    if (!d.isValid() || d.isHidden() || capacity == 0) return 0;
    const QByteArray n = d.name().toUtf8();
    const size_t k = std::min<size_t>(n.size(), capacity - 1);
    std::memcpy(name, n.constData(), k);
    name[k] = 0;
    return 1;
}

extern "C" int np_syntax_highlight(void *r, const char *definition, const char *text, size_t length, size_t max_line,
                                   np_syntax_token_fn token, void *context) {
    std::lock_guard<std::mutex> guard(lock);
    auto *repo = static_cast<Repository *>(r);
    const Definition d = repo->definitionForName(QString::fromUtf8(definition));
    if (!d.isValid()) return 0;
    Tokens h;
    h.setDefinition(d);
    h.token = token;
    h.context = context;
    State state;
    const auto *bytes = reinterpret_cast<const unsigned char *>(text);
    for (size_t start = 0; start < length;) {
        const void *nl = std::memchr(bytes + start, '\n', length - start);
        const size_t end = nl ? size_t(static_cast<const unsigned char *>(nl) - bytes) : length;
        const size_t n = end - start;
        if (n > max_line) {
            state = h.highlightLine(QString(), state);  // left plain; the state goes on
        } else {
            h.lineStart = start;
            const size_t units = mapUTF16(bytes + start, n, h.utf8Offset);
            const QString line = QString::fromUtf8(text + start, int(n));
            if (size_t(line.size()) == units) state = h.highlightLine(line, state);
            else state = h.highlightLine(QString(), state);  // not valid UTF-8: plain
        }
        start = end + 1;
    }
    return 1;
}

extern "C" const char *np_syntax_style_name(int style) {
    static const QMetaEnum e = QMetaEnum::fromType<Theme::TextStyle>();
    return style >= 0 && style < e.keyCount() ? e.valueToKey(style) : nullptr;
}

extern "C" int np_syntax_theme_style(void *r, const char *theme, int style, unsigned *rgb, int *bold, int *italic) {
    std::lock_guard<std::mutex> guard(lock);
    auto *repo = static_cast<Repository *>(r);
    const QString wanted = QString::fromUtf8(theme);
    for (const Theme &t : repo->themes()) {
        if (t.name().compare(wanted, Qt::CaseInsensitive) != 0) continue;
        const auto s = static_cast<Theme::TextStyle>(style < 0 ? Theme::Normal : style);
        *rgb = (style < 0 ? t.editorColor(Theme::BackgroundColor) : t.textColor(s)) & 0xFFFFFF;
        *bold = t.isBold(s);
        *italic = t.isItalic(s);
        return 1;
    }
    return 0;
}

extern "C" void np_syntax_theme_names(void *r, void (*each)(void *, const char *), void *context) {
    std::lock_guard<std::mutex> guard(lock);
    QStringList names;
    for (const Theme &t : static_cast<Repository *>(r)->themes()) names << t.name();
    names.sort(Qt::CaseInsensitive);
    for (const QString &n : names) each(context, n.toUtf8().constData());
}
