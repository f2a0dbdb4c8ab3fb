import NotepressPlatform

/// One pattern of gitignore syntax (gitignore(5), "PATTERN FORMAT"), as `.notepressignore` files,
/// `--include` and `--exclude` use it:
///
/// - one part between `/` is matched by `fnmatch(3)` (``Platform/fnmatchSegment(_:_:)``), byte by
///   byte as git does: `*` matches anything, `?` one byte, `[a-z]`, `[!a-z]` (or `[^a-z]`) and
///   POSIX classes (`[[:digit:]]*` matches `1a.md`) a byte of a class; `\` makes the next
///   character literal;
/// - a pattern with a `/` at its start or in its middle is matched against the whole path
///   relative to the folder it applies to (the ignore file's folder, or the input folder);
///   without one, against the name at any depth (`drafts` matches `drafts` and `a/b/drafts`);
/// - a trailing `/` matches folders only;
/// - `**` as a whole part: `**/x` is `x` at any depth, `x/**` everything inside `x`, `a/**/b`
///   zero or more folders between; other `**` are `*`;
/// - in ignore files: `!` before a pattern re-includes what an earlier one excluded, `#` starts a
///   comment, blank lines are skipped, trailing spaces are dropped unless escaped (`\ `).
///
/// Parts are matched by a greedy walk that only backtracks to the last `**` (O(pattern × path)
/// parts at worst); patterns and paths are short.
package struct GlobPattern: Sendable, Equatable {
    /// The pattern as written (for messages).
    package var source: String
    /// `!pattern` in an ignore file: a match re-includes.
    package var negated = false
    /// Trailing `/`: matches folders only.
    package var foldersOnly = false
    /// Matched against the whole relative path (a `/` at the start or middle), else the last part.
    package var anchored = false
    /// The pattern's parts between `/`: `nil` is a `**` part, else the part (an `fnmatch(3)` pattern).
    var parts: [String?]

    /// Parses one pattern; `nil` for a blank line or a comment. `allowNegation` reads a leading
    /// `!` as negation (ignore files), else literally (`--include`, `--exclude`).
    package init?(_ line: String, allowNegation: Bool) {
        source = line
        var s = Array(line.unicodeScalars)
        if s.last == "\r" { s.removeLast() }
        // Trailing spaces are dropped unless escaped with a backslash.
        while let last = s.last, last == " " {
            if s.count >= 2 && s[s.count - 2] == "\\" { break }
            s.removeLast()
        }
        if s.isEmpty || s.first == "#" { return nil }
        if allowNegation && s.first == "!" { negated = true; s.removeFirst() }
        if s.first == "\\" && s.count > 1 && (s[1] == "!" || s[1] == "#") { s.removeFirst() }
        if s.last == "/" { foldersOnly = true; while s.last == "/" { s.removeLast() } }
        if s.isEmpty { return nil }
        if s.first == "/" { anchored = true; s.removeFirst() }
        if s.contains("/") { anchored = true }
        parts = s.split(separator: "/", omittingEmptySubsequences: true).map { part in
            part.count == 2 && part[part.startIndex] == "*" && part[part.startIndex + 1] == "*"
                ? nil : String(String.UnicodeScalarView(part))
        }
        if parts.isEmpty { return nil }
    }

    /// Whether the pattern matches `path` (relative to the folder the pattern applies to, parts
    /// separated by `/`); `isFolder` says whether it names a folder.
    package func matches(_ path: String, isFolder: Bool) -> Bool {
        if foldersOnly && !isFolder { return false }
        let pathParts = path.split(separator: "/").map(String.init)
        guard let last = pathParts.last else { return false }
        if !anchored {
            // No slash: the name at any depth (a lone `**` matches everything).
            guard let only = parts.first, parts.count == 1 else { return true }
            guard let only else { return true }
            return Self.matchPart(only, last)
        }
        return Self.matchParts(parts, pathParts)
    }

    /// Parts against path parts; `nil` (a `**` part) matches zero or more whole parts.
    static func matchParts(_ pattern: [String?], _ path: [String]) -> Bool {
        var p = 0, s = 0
        var star = -1, starS = 0
        while s < path.count {
            if p < pattern.count, let part = pattern[p], matchPart(part, path[s]) {
                p += 1; s += 1
            } else if p < pattern.count, pattern[p] == nil {
                star = p; starS = s; p += 1
            } else if star >= 0 {
                p = star + 1; starS += 1; s = starS
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == nil { p += 1 }
        return p == pattern.count
    }

    /// One part (no `/`) against one name, by `fnmatch(3)`.
    static func matchPart(_ pattern: String, _ name: String) -> Bool {
        Platform.fnmatchSegment(pattern, name)
    }
}

/// The patterns of one ignore file (or of one command-line option), with the folder they apply
/// to (relative to the input folder, `""` for the input folder itself).
package struct IgnoreRules: Sendable {
    /// The folder the patterns are relative to, below the input folder (`""`: the input folder).
    package var base: String
    /// The patterns in file order (the last one that matches decides).
    package var patterns: [GlobPattern]

    /// Rules made of parsed patterns, applying to the folder `base`.
    package init(base: String, patterns: [GlobPattern]) {
        self.base = base
        self.patterns = patterns
    }

    /// The rules of an ignore file's text (gitignore syntax, `!` allowed), applying to `base`.
    package init(base: String, text: String) {
        self.base = base
        patterns = text.split(separator: "\n", omittingEmptySubsequences: true).compactMap {
            GlobPattern(String($0), allowNegation: true)
        }
    }

    /// Whether the last pattern that matches `path` (relative to the input folder) excludes it
    /// (`true`), re-includes it (`false`), or none matches (`nil`).
    package func decision(_ path: String, isFolder: Bool) -> Bool? {
        let relative: String
        if base.isEmpty {
            relative = path
        } else if path.hasPrefix(base + "/") {
            relative = String(path.dropFirst(base.count + 1))
        } else {
            return nil
        }
        for pattern in patterns.reversed() where pattern.matches(relative, isFolder: isFolder) {
            return !pattern.negated
        }
        return nil
    }

    /// Whether `path` is ignored by `stack` (ignore files from the input folder down; a deeper
    /// file's patterns win over a higher one's, as in git).
    package static func isIgnored(_ path: String, isFolder: Bool, by stack: [IgnoreRules]) -> Bool {
        for rules in stack.reversed() {
            if let d = rules.decision(path, isFolder: isFolder) { return d }
        }
        return false
    }
}
