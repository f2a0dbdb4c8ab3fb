import Foundation

/// `notepress completions bash|zsh|fish`: prints a completion script made from ``Commands/all``,
/// so it offers exactly the commands, options and option values the parser accepts. Theme names
/// are asked of `notepress themes` when completing (so `--data-dir` themes appear too).
func runCompletionsCommand(_ args: [String]) -> Int32 {
    runCommand(Commands.completions, args) { a in
        guard a.positionals.count == 1 else { throw UsageError("which shell? (bash, zsh or fish)") }
        switch a.positionals[0] {
        case "bash": writeAllToStandardOutput(Array(CompletionScript.bash.utf8))
        case "zsh": writeAllToStandardOutput(Array(CompletionScript.zsh.utf8))
        case "fish": writeAllToStandardOutput(Array(CompletionScript.fish.utf8))
        case let other: throw unknownWord("shell", other, among: Commands.completions.actions)
        }
        return 0
    }
}

/// The three scripts. Each completes: the command as the first word (or files: `notepress
/// x.md` converts); a command's options; the values of options with fixed choices (`-t`
/// formats, after a comma too in bash); files for `-o`, `--depfile`, `--schema` and inputs;
/// folders for `--data-dir`; theme names for `--theme` and `themes print`; the actions of
/// `themes`, `templates`, `completions` and `help`.
enum CompletionScript {
    static var commandNames: String { Commands.all.map(\.name).joined(separator: " ") }

    static func visibleOptions(_ c: CommandSpec) -> [OptionSpec] { c.options.filter { !$0.hidden } }

    /// The first line of an option's help, without characters the shells' syntax gives a meaning.
    static func summary(_ o: OptionSpec, escapeColon: Bool = false) -> String {
        var s = o.help.components(separatedBy: "\n")[0]
        s = s.replacingOccurrences(of: "'", with: "").replacingOccurrences(of: "[", with: "(")
            .replacingOccurrences(of: "]", with: ")")
        if escapeColon { s = s.replacingOccurrences(of: ":", with: "\\:") }
        return s
    }

    // MARK: bash

    static var bash: String {
        var valueCases = ""
        var seen = Set<String>()
        for c in Commands.all {
            for o in visibleOptions(c) where o.takesValue {
                let key = o.names.map { "\(c.name):\($0)" }.joined(separator: "|")
                guard seen.insert(key).inserted else { continue }
                let action: String
                switch o.completes {
                case .file: action = "_notepress_files"
                case .folder: action = "_notepress_folders"
                case .theme: action = "_notepress_words \"$(_notepress_themes)\"; _notepress_files_add"
                case .choices:
                    guard let choices = o.choices else { action = "return 0"; break }
                    action = "_notepress_words '\(choices.joined(separator: " "))'"
                }
                valueCases += "        \(key)) \(action); return 0 ;;\n"
            }
        }
        var optionLists = ""
        var actionLists = ""
        for c in Commands.all {
            let names = visibleOptions(c).flatMap(\.names).sorted { $0.hasPrefix("--") && !$1.hasPrefix("--") || ($0.hasPrefix("--") == $1.hasPrefix("--") && $0 < $1) }
            optionLists += "        \(c.name)) opts='\(names.joined(separator: " "))' ;;\n"
            actionLists += "        \(c.name)) acts='\(c.actions.joined(separator: " "))'; files=\(c.completesFiles ? 1 : 0) ;;\n"
        }
        return """
        # bash completion for notepress (made by: notepress completions bash)
        # Install: notepress completions bash > ~/.local/share/bash-completion/completions/notepress
        # or source it from ~/.bashrc.

        _notepress_words() {  # $1: words; completes the part of the word after the last comma
            local cur=${COMP_WORDS[COMP_CWORD]} prefix=""
            [[ $cur == = ]] && cur=""
            if [[ $cur == *,* ]]; then prefix=${cur%,*},; cur=${cur##*,}; fi
            COMPREPLY+=( $(compgen -P "$prefix" -W "$1" -- "$cur") )
        }
        _notepress_files() {
            local cur=${COMP_WORDS[COMP_CWORD]}; [[ $cur == = ]] && cur=""
            compopt -o filenames 2>/dev/null
            COMPREPLY=( $(compgen -f -- "$cur") )
        }
        _notepress_files_add() {
            local cur=${COMP_WORDS[COMP_CWORD]}; [[ $cur == = ]] && cur=""
            compopt -o filenames 2>/dev/null
            COMPREPLY+=( $(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur") )
        }
        _notepress_folders() {
            local cur=${COMP_WORDS[COMP_CWORD]}; [[ $cur == = ]] && cur=""
            compopt -o filenames 2>/dev/null
            COMPREPLY=( $(compgen -d -- "$cur") )
        }
        _notepress_themes() {
            "${COMP_WORDS[0]}" themes 2>/dev/null | cut -f1
        }

        _notepress() {
            COMPREPLY=()
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
            local commands='\(commandNames)'
            local cmd=convert first=1 i
            case " $commands " in *" ${COMP_WORDS[1]} "*) [[ $COMP_CWORD -gt 1 ]] && { cmd=${COMP_WORDS[1]}; first=2; } ;; esac
            # --opt=VALUE: bash splits at '=', so the option is two words back.
            if [[ $cur == = || $prev == = ]]; then
                [[ $prev == = ]] && prev=${COMP_WORDS[COMP_CWORD-2]} || prev=${COMP_WORDS[COMP_CWORD-1]}
                [[ $cur == = ]] && cur=""
            fi
            case "$cmd:$prev" in
        \(valueCases)    esac
            if [[ $COMP_CWORD -eq 1 && $cur != -* ]]; then
                COMPREPLY=( $(compgen -W "$commands" -- "$cur") )
                compopt -o filenames 2>/dev/null
                COMPREPLY+=( $(compgen -f -- "$cur") )
                return 0
            fi
            local opts acts files
            case "$cmd" in
        \(optionLists)    esac
            if [[ $cur == -* ]]; then
                COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
                return 0
            fi
            case "$cmd" in
        \(actionLists)    esac
            # The first word after the command is an action; `themes print NAME`, `templates print NAME`.
            local positional=0
            for (( i=first; i<COMP_CWORD; i++ )); do [[ ${COMP_WORDS[i]} != -* ]] && positional=$((positional+1)); done
            if [[ -n $acts && $positional -eq 0 ]]; then
                COMPREPLY=( $(compgen -W "$acts" -- "$cur") )
                return 0
            fi
            case "$cmd:$prev" in
                themes:print) _notepress_words "$(_notepress_themes)"; _notepress_files_add; return 0 ;;
                templates:print) _notepress_words 'html index'; return 0 ;;
            esac
            [[ $files -eq 1 ]] && _notepress_files
            return 0
        }
        complete -F _notepress notepress

        """
    }

    // MARK: zsh

    static var zsh: String {
        func spec(_ o: OptionSpec) -> [String] {
            let text = summary(o, escapeColon: false).replacingOccurrences(of: ":", with: "-")
            let value: String
            switch o.completes {
            case .file: value = ":file:_files"
            case .folder: value = ":folder:_files -/"
            case .theme: value = ":theme:_notepress_themes"
            case .choices:
                if let c = o.choices {
                    value = o.value?.contains(",") == true
                        ? ":\(o.value!.lowercased()):_sequence compadd - \(c.joined(separator: " "))"
                        : ":\(o.value!.lowercased()):(\(c.joined(separator: " ")))"
                } else {
                    value = ":\(o.value?.lowercased() ?? "value"): "
                }
            }
            return o.names.map { n in
                if !o.takesValue { return "'\(n)[\(text)]'" }
                return n.hasPrefix("--") ? "'\(n)=[\(text)]\(value)'" : "'\(n)+[\(text)]\(value)'"
            }
        }
        var cases = ""
        for c in Commands.all {
            let options = visibleOptions(c).flatMap(spec).joined(separator: " \\\n            ")
            var rest = ""
            if !c.actions.isEmpty { rest += " '1:action:(\(c.actions.joined(separator: " ")))'" }
            if c.name == "themes" { rest += " '2:theme:_notepress_themes'" }
            if c.name == "templates" { rest += " '2:template:(html index)'" }
            if c.completesFiles { rest += " '*:file:_files'" }
            cases += "    \(c.name))\n        _arguments -s -S \\\n            \(options)\(rest)\n        ;;\n"
        }
        let described = Commands.all.map { "'\($0.name):\($0.summary.replacingOccurrences(of: ":", with: "-").replacingOccurrences(of: "'", with: ""))'" }
            .joined(separator: " ")
        return """
        #compdef notepress
        # zsh completion for notepress (made by: notepress completions zsh)
        # Install: notepress completions zsh > ~/.zfunc/_notepress, with fpath+=(~/.zfunc) before
        # compinit in ~/.zshrc.

        _notepress_themes() {
            local -a themes
            themes=(${(f)"$(${_notepress_program:-notepress} themes 2>/dev/null | cut -f1)"})
            _describe -t themes 'theme' themes
            _files -g '*.json'
        }

        _notepress() {
            local -a commands
            commands=(\(described))
            local cmd=convert _notepress_program=${words[1]}
            if (( CURRENT == 2 )) && [[ ${words[2]} != -* ]]; then
                _describe -t commands 'notepress command' commands
                _files
                return
            fi
            if (( ${+commands[(r)${words[2]}:*]} )); then
                cmd=${words[2]}
                shift words
                (( CURRENT-- ))
            fi
            case $cmd in
        \(cases)    esac
        }

        _notepress "$@"

        """
    }

    // MARK: fish

    static var fish: String {
        var lines = [
            "# fish completion for notepress (made by: notepress completions fish)",
            "# Install: notepress completions fish > ~/.config/fish/completions/notepress.fish",
            "complete -c notepress -f",
            "function __notepress_themes; notepress themes 2>/dev/null | cut -f1; end",
        ]
        let others = Commands.all.map(\.name).filter { $0 != "convert" }.joined(separator: " ")
        for c in Commands.all {
            lines.append("complete -c notepress -n __fish_use_subcommand -a \(c.name) -d '\(c.summary.replacingOccurrences(of: "'", with: ""))'")
        }
        for c in Commands.all {
            let condition = c.name == "convert"
                ? "not __fish_seen_subcommand_from \(others)"
                : "__fish_seen_subcommand_from \(c.name)"
            for o in visibleOptions(c) {
                var line = "complete -c notepress -n '\(condition)'"
                for n in o.names {
                    line += n.hasPrefix("--") ? " -l \(n.dropFirst(2))" : " -s \(n.dropFirst())"
                }
                if o.takesValue {
                    switch o.completes {
                    case .file: line += " -r -F"
                    case .folder: line += " -r -f -a '(__fish_complete_directories)'"
                    case .theme: line += " -r -F -a '(__notepress_themes)'"
                    case .choices: line += " -x" + (o.choices.map { " -a '\($0.joined(separator: " "))'" } ?? "")
                    }
                }
                line += " -d '\(summary(o))'"
                lines.append(line)
            }
            if !c.actions.isEmpty {
                lines.append("complete -c notepress -n '__fish_seen_subcommand_from \(c.name); and not __fish_seen_subcommand_from \(c.actions.joined(separator: " "))' -a '\(c.actions.joined(separator: " "))'")
            }
            if c.completesFiles { lines.append("complete -c notepress -n '\(condition)' -F") }
        }
        lines.append("complete -c notepress -n '__fish_seen_subcommand_from themes; and __fish_seen_subcommand_from print' -a '(__notepress_themes)'")
        lines.append("complete -c notepress -n '__fish_seen_subcommand_from templates; and __fish_seen_subcommand_from print' -a 'html index'")
        return lines.joined(separator: "\n") + "\n"
    }
}
