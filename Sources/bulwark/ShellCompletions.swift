/// The bash, zsh and fish completion scripts, written from the command
/// tables (`bulwark completions SHELL`; `make install` installs them).
enum ShellCompletions {
    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": return bash()
        case "zsh": return zsh()
        case "fish": return fish()
        default: return nil
        }
    }

    static let globals = GlobalOptions.specs.filter { $0.name != "--help" }

    // MARK: bash

    /// How bash's script names a kind of completion.
    private static func bashKind(_ completion: Completion) -> String {
        switch completion {
        case .files: return "files"
        case .directories: return "dirs"
        case .nothing, .free: return "none"
        default: return "words " + (completion.words ?? []).joined(separator: " ")
        }
    }

    static func bash() -> String {
        var valueCases = "", argumentCases = "", optionCases = ""
        for option in globals where option.valueName != nil {
            valueCases += "        *\" \(option.name)\") echo '\(bashKind(option.completion))' ;;\n"
        }
        for command in Commands.all {
            for option in command.options where option.valueName != nil {
                valueCases += "        \"\(command.name) \(option.name)\") echo '\(bashKind(option.completion))' ;;\n"
            }
            optionCases += "        \(command.name)) echo '\((command.options.map(\.name) + ["--help"]).joined(separator: " "))' ;;\n"
            guard !command.arguments.isEmpty else { continue }
            if command.arguments.count == 1 {
                argumentCases += "        \(command.name)) echo '\(bashKind(command.arguments[0]))' ;;\n"
            } else {
                argumentCases += "        \(command.name)) case $2 in\n"
                for (index, kind) in command.arguments.enumerated() {
                    let pattern = index == command.arguments.count - 1 ? "*" : "\(index)"
                    argumentCases += "            \(pattern)) echo '\(bashKind(kind))' ;;\n"
                }
                argumentCases += "            esac ;;\n"
            }
        }
        let globalNames = globals.map(\.name).joined(separator: " ")
        return """
        # bash completion for bulwark: made by `bulwark completions bash` from its command tables.
        # Entry titles are not completed (they would need the vault unlocked).

        # The completion of option $2's value in command $1; fails for an option without one.
        _bulwark_value() {
            case "$1 $2" in
        \(valueCases)        *) return 1 ;;
            esac
        }

        # The completion of command $1's positional argument number $2 (from 0).
        _bulwark_argument() {
            case $1 in
        \(argumentCases)        *) echo none ;;
            esac
        }

        # Command $1's options (none given: bulwark's own).
        _bulwark_options() {
            echo '\(globalNames)'
            case $1 in
                '') echo '--help --version' ;;
        \(optionCases)    esac
        }

        _bulwark_offer() {
            case $1 in
                files) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
                dirs) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
                words\\ *) mapfile -t COMPREPLY < <(compgen -W "${1#words }" -- "$cur") ;;
                *) COMPREPLY=() ;;
            esac
        }

        _bulwark() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
            local command='' position=0 i word kind
            for ((i = 1; i < COMP_CWORD; i++)); do
                word=${COMP_WORDS[i]}
                if [[ $word == -* ]]; then
                    _bulwark_value "$command" "$word" >/dev/null && ((i++))
                elif [[ -z $command ]]; then
                    command=$word
                else
                    ((position++))
                fi
            done
            if ((COMP_CWORD > 1)) && kind=$(_bulwark_value "$command" "$prev"); then
                _bulwark_offer "$kind"
            elif [[ $cur == -* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "$(_bulwark_options "$command")" -- "$cur")
            elif [[ -z $command ]]; then
                mapfile -t COMPREPLY < <(compgen -W '\(Commands.all.map(\.name).joined(separator: " "))' -- "$cur")
            else
                _bulwark_offer "$(_bulwark_argument "$command" "$position")"
            fi
        }
        complete -F _bulwark bulwark

        """
    }

    // MARK: zsh

    /// A zsh `_arguments` action.
    private static func zshAction(_ completion: Completion) -> String {
        switch completion {
        case .files: return "_files"
        case .directories: return "_files -/"
        case .nothing, .free: return " "
        default: return "(" + (completion.words ?? []).joined(separator: " ") + ")"
        }
    }

    private static func zshQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    private static func zshOption(_ option: OptionSpec) -> String {
        let help = option.help.replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
        let repeatable = option.help.contains("repeat") ? "*" : ""
        let value = option.valueName.map { ":" + $0.replacingOccurrences(of: ":", with: "\\:") + ":" + zshAction(option.completion) } ?? ""
        return zshQuoted(repeatable + option.name + "[" + help + "]" + value)
    }

    static func zsh() -> String {
        var cases = ""
        for command in Commands.all {
            var specs = command.options.map(zshOption)
            for (index, kind) in command.arguments.enumerated() {
                let position = index == command.arguments.count - 1 ? "*" : "\(index + 1)"
                specs.append(zshQuoted("\(position):argument:\(zshAction(kind))"))
            }
            cases += "            \(command.name)) _arguments -s $globals \(specs.joined(separator: " ")) ;;\n"
        }
        let commands = Commands.all.map { "        " + zshQuoted($0.name + ":" + $0.summary) }.joined(separator: "\n")
        let globalSpecs = globals.map { "        " + zshOption($0) }.joined(separator: "\n")
        return """
        #compdef bulwark
        # zsh completion for bulwark: made by `bulwark completions zsh` from its command tables.
        # Entry titles are not completed (they would need the vault unlocked).

        _bulwark() {
            local curcontext=$curcontext state line
            local -a globals commands
            globals=(
        \(globalSpecs)
            )
            commands=(
        \(commands)
            )
            _arguments -C $globals '(- *)--version[Print the version]' '(- *)--help[Show help]' \\
                '1:command:->command' '*::argument:->argument' && return
            case $state in
            command) _describe -t commands 'bulwark command' commands ;;
            argument)
                case $words[1] in
        \(cases)        esac ;;
            esac
        }

        # Loaded from $fpath by compinit, it completes; sourced, it registers itself.
        if [[ $funcstack[1] == _bulwark ]]; then
            _bulwark "$@"
        else
            compdef _bulwark bulwark
        fi

        """
    }

    // MARK: fish

    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    private static func fishValue(_ completion: Completion) -> String {
        switch completion {
        case .files: return "-r -F"
        case .directories: return "-x -a '(__fish_complete_directories)'"
        case .nothing, .free: return "-x"
        default: return "-x -a " + fishQuoted((completion.words ?? []).joined(separator: " "))
        }
    }

    private static func fishOption(_ option: OptionSpec, condition: String?) -> String {
        let when = condition.map { " -n " + fishQuoted($0) } ?? ""
        let value = option.valueName == nil ? "" : " " + fishValue(option.completion)
        return "complete -c bulwark\(when) -l \(option.name.dropFirst(2))\(value) -d \(fishQuoted(option.help))"
    }

    static func fish() -> String {
        let valued = Set(globals.filter { $0.valueName != nil }.map(\.name)
                         + Commands.all.flatMap { $0.options.filter { $0.valueName != nil }.map(\.name) })
        var lines = [
            "# fish completion for bulwark: made by `bulwark completions fish` from its command tables.",
            "# Entry titles are not completed (they would need the vault unlocked).",
            "",
            "# The number (from 0) of the positional argument being typed after the command.",
            "function __bulwark_position",
            "    set -l valued \(valued.sorted().joined(separator: " "))",
            "    set -l tokens (commandline -opc)",
            "    set -l command ''",
            "    set -l position 0",
            "    set -l skip 0",
            "    for token in $tokens[2..-1]",
            "        if test $skip = 1",
            "            set skip 0",
            "        else if string match -q -- '-*' $token",
            "            contains -- $token $valued; and set skip 1",
            "        else if test -z \"$command\"",
            "            set command $token",
            "        else",
            "            set position (math $position + 1)",
            "        end",
            "    end",
            "    echo $position",
            "end",
            "",
            "complete -c bulwark -f",
        ]
        for command in Commands.all {
            lines.append("complete -c bulwark -n __fish_use_subcommand -a \(command.name) -d \(fishQuoted(command.summary))")
        }
        lines.append("complete -c bulwark -n __fish_use_subcommand -l version -d 'Print the version'")
        lines.append("complete -c bulwark -l help -d 'Show help'")
        for option in globals { lines.append(fishOption(option, condition: nil)) }
        for command in Commands.all {
            let seen = "__fish_seen_subcommand_from \(command.name)"
            for option in command.options { lines.append(fishOption(option, condition: seen)) }
            for (index, kind) in command.arguments.enumerated() {
                let last = index == command.arguments.count - 1
                let position = last ? "test (__bulwark_position) -ge \(index)" : "test (__bulwark_position) = \(index)"
                let condition = fishQuoted("\(seen); and \(position)")
                switch kind {
                case .files: lines.append("complete -c bulwark -n \(condition) -F")
                case .directories: lines.append("complete -c bulwark -n \(condition) -a '(__fish_complete_directories)'")
                case .nothing, .free: break
                default: lines.append("complete -c bulwark -n \(condition) -a \(fishQuoted((kind.words ?? []).joined(separator: " ")))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
