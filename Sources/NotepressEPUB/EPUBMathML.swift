import NotepressContainer

/// A small TeX-to-MathML translator for the formulas people write in notes: identifiers, numbers,
/// operators, groups `{…}`, `^` and `_`, `\frac`, `\sqrt` (with an index), `\text`, `\left`/`\right`
/// delimiters, spacing commands, Greek letters, common symbols and function names. Anything else
/// (environments, `\mathbf`, macros) makes ``parse(_:)`` answer `nil`: the caller then shows the
/// TeX source. Bounded: at most ``maxLength`` bytes and ``maxDepth`` nested groups.
enum EPUBMathML {
    /// A MathML presentation node.
    indirect enum Node: Equatable {
        case mi(String), mn(String), mo(String), mtext(String)
        case row([Node])
        case frac(Node, Node)
        case sqrt(Node)
        case root(Node, index: Node)
        case scripts(base: Node, sub: Node?, sup: Node?)
    }

    static let maxLength = 4096
    static let maxDepth = 32

    static let greek: [String: String] = [
        "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε", "zeta": "ζ", "eta": "η",
        "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π",
        "rho": "ρ", "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "ϕ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
        "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ",
        "Omega": "Ω", "ell": "ℓ", "hbar": "ℏ",
    ]
    static let operators: [String: String] = [
        "cdot": "⋅", "times": "×", "div": "÷", "pm": "±", "mp": "∓", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠",
        "ne": "≠", "infty": "∞", "sum": "∑", "prod": "∏", "int": "∫", "oint": "∮", "partial": "∂", "nabla": "∇", "to": "→",
        "rightarrow": "→", "leftarrow": "←", "Rightarrow": "⇒", "Leftarrow": "⇐", "Leftrightarrow": "⇔", "iff": "⟺",
        "implies": "⟹", "mapsto": "↦", "approx": "≈", "equiv": "≡", "sim": "∼", "simeq": "≃", "cong": "≅", "propto": "∝",
        "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆", "supset": "⊃", "supseteq": "⊇", "cup": "∪",
        "cap": "∩", "setminus": "∖", "emptyset": "∅", "forall": "∀", "exists": "∃", "neg": "¬", "land": "∧", "wedge": "∧",
        "lor": "∨", "vee": "∨", "ldots": "…", "dots": "…", "cdots": "⋯", "circ": "∘", "prime": "′", "langle": "⟨",
        "rangle": "⟩", "lbrace": "{", "rbrace": "}", "{": "{", "}": "}", "|": "‖", "mid": "∣", "ll": "≪", "gg": "≫",
        "perp": "⊥", "angle": "∠", "degree": "°", "star": "⋆", "ast": "∗", "oplus": "⊕", "otimes": "⊗", "%": "%",
        "#": "#", "&": "&", "$": "$", "_": "_",
    ]
    static let functions: Set<String> = [
        "sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "log", "ln", "lg",
        "exp", "lim", "max", "min", "sup", "inf", "det", "dim", "gcd", "deg", "arg", "ker", "Pr",
    ]
    static let spaces: Set<String> = [",", ";", ":", "!", " ", "quad", "qquad"]

    /// The MathML tree of `tex`, or `nil` when it holds anything not listed above.
    static func parse(_ tex: String) -> Node? {
        guard tex.utf8.count <= maxLength else { return nil }
        var p = Parser(chars: Array(tex.unicodeScalars))
        guard let nodes = p.sequence(depth: 0, until: nil), p.i == p.chars.count, !nodes.isEmpty else { return nil }
        return .row(nodes)
    }

    struct Parser {
        let chars: [Unicode.Scalar]
        var i = 0

        mutating func skipSpace() {
            while i < chars.count, chars[i].properties.isWhitespace { i += 1 }
        }

        /// Atoms with their scripts up to `until` (consumed) or the end.
        mutating func sequence(depth: Int, until close: Unicode.Scalar?) -> [Node]? {
            guard depth < maxDepth else { return nil }
            var out: [Node] = []
            while true {
                skipSpace()
                if i == chars.count { return close == nil ? out : nil }
                if let close, chars[i] == close { i += 1; return out }
                if chars[i] == "}" { return nil }
                if chars[i] == "^" || chars[i] == "_" {
                    let base = out.popLast() ?? .row([])
                    guard let s = scripts(on: base, depth: depth) else { return nil }
                    out.append(s)
                    continue
                }
                guard let a = atom(depth: depth) else { return nil }
                if case .row(let r) = a, r.isEmpty { continue }  // spacing
                out.append(a)
            }
        }

        mutating func scripts(on base: Node, depth: Int) -> Node? {
            var sub: Node?, sup: Node?
            if case .scripts(let b, let s0, let s1) = base, s0 == nil || s1 == nil { return scriptsAdding(b, s0, s1, depth: depth) }
            while i < chars.count, chars[i] == "^" || chars[i] == "_" {
                let isSup = chars[i] == "^"
                i += 1
                guard let arg = argument(depth: depth + 1) else { return nil }
                if isSup { guard sup == nil else { return nil }; sup = arg } else { guard sub == nil else { return nil }; sub = arg }
                skipSpace()
            }
            return .scripts(base: base, sub: sub, sup: sup)
        }

        mutating func scriptsAdding(_ base: Node, _ s0: Node?, _ s1: Node?, depth: Int) -> Node? {
            var sub = s0, sup = s1
            let isSup = chars[i] == "^"
            i += 1
            guard let arg = argument(depth: depth + 1) else { return nil }
            if isSup { guard sup == nil else { return nil }; sup = arg } else { guard sub == nil else { return nil }; sub = arg }
            return .scripts(base: base, sub: sub, sup: sup)
        }

        /// One argument: a group or a single atom.
        mutating func argument(depth: Int) -> Node? {
            skipSpace()
            guard i < chars.count, chars[i] != "}", chars[i] != "^", chars[i] != "_" else { return nil }
            return atom(depth: depth)
        }

        mutating func atom(depth: Int) -> Node? {
            let c = chars[i]
            if c == "{" {
                i += 1
                guard let inner = sequence(depth: depth + 1, until: "}") else { return nil }
                return inner.count == 1 ? inner[0] : .row(inner)
            }
            if c == "\\" { return command(depth: depth) }
            if c.properties.isAlphabetic { i += 1; return .mi(String(c)) }
            if ("0"..."9").contains(c) || c == "." {
                var s = ""
                while i < chars.count, ("0"..."9").contains(chars[i]) || chars[i] == "." { s.unicodeScalars.append(chars[i]); i += 1 }
                return .mn(s)
            }
            if "+-=<>,;()[]|/!'*:?".unicodeScalars.contains(c) {
                i += 1
                return .mo(c == "-" ? "−" : c == "'" ? "′" : c == "*" ? "∗" : String(c))
            }
            return nil
        }

        mutating func command(depth: Int) -> Node? {
            i += 1
            guard i < chars.count else { return nil }
            var name = ""
            if chars[i].properties.isAlphabetic {
                while i < chars.count, chars[i].properties.isAlphabetic, chars[i].isASCII { name.unicodeScalars.append(chars[i]); i += 1 }
            } else {
                name = String(chars[i]); i += 1
            }
            if spaces.contains(name) { return .row([]) }
            if let g = greek[name] { return .mi(g) }
            if let o = operators[name] { return .mo(o) }
            if functions.contains(name) { return .mi(name) }
            switch name {
            case "frac", "dfrac", "tfrac":
                guard let a = argument(depth: depth + 1), let b = argument(depth: depth + 1) else { return nil }
                return .frac(a, b)
            case "sqrt":
                skipSpace()
                if i < chars.count, chars[i] == "[" {
                    i += 1
                    guard let index = sequence(depth: depth + 1, until: "]"), let a = argument(depth: depth + 1) else { return nil }
                    return .root(a, index: .row(index))
                }
                return argument(depth: depth + 1).map { .sqrt($0) }
            case "text", "mathrm", "textrm", "operatorname":
                skipSpace()
                guard i < chars.count, chars[i] == "{" else { return nil }
                i += 1
                var s = ""
                while i < chars.count, chars[i] != "}" {
                    guard chars[i] != "{", chars[i] != "\\" else { return nil }
                    s.unicodeScalars.append(chars[i]); i += 1
                }
                guard i < chars.count else { return nil }
                i += 1
                return name == "operatorname" || name == "mathrm" ? .mi(s) : .mtext(s)
            case "left", "right", "big", "Big", "bigl", "bigr", "Bigl", "Bigr":
                skipSpace()
                guard i < chars.count else { return nil }
                if chars[i] == "." { i += 1; return .row([]) }
                return atom(depth: depth + 1)
            default:
                return nil
            }
        }
    }

    /// Writes `node` as one MathML element.
    static func write(_ node: Node, to w: XMLStreamWriter) {
        switch node {
        case .mi(let s): w.element("mi", text: s)
        case .mn(let s): w.element("mn", text: s)
        case .mo(let s): w.element("mo", text: s)
        case .mtext(let s): w.element("mtext", text: s)
        case .row(let nodes):
            w.start("mrow")
            for n in nodes { write(n, to: w) }
            w.end()
        case .frac(let a, let b):
            w.start("mfrac"); write(a, to: w); write(b, to: w); w.end()
        case .sqrt(let a):
            w.start("msqrt"); write(a, to: w); w.end()
        case .root(let a, let index):
            w.start("mroot"); write(a, to: w); write(index, to: w); w.end()
        case .scripts(let base, let sub, let sup):
            switch (sub, sup) {
            case (let s?, let t?): w.start("msubsup"); write(base, to: w); write(s, to: w); write(t, to: w); w.end()
            case (let s?, nil): w.start("msub"); write(base, to: w); write(s, to: w); w.end()
            case (nil, let t?): w.start("msup"); write(base, to: w); write(t, to: w); w.end()
            case (nil, nil): write(base, to: w)
            }
        }
    }
}
