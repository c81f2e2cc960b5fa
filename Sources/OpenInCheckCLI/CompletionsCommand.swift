import OpenInPolicy
import OpenInReports

/// `openin-check completions bash|zsh|fish`: a shell completion script for the verbs, the fleet subverbs, their options
/// and the values an option takes (channels, formats, `--to outside`).
///
/// The script is written from ``CLI/verbs``, ``FleetCommand/subverbs`` and their option specs, so it
/// completes exactly what the parser accepts.
struct CompletionsCommand: Command, Equatable {
    /// The shells a script is written for.
    enum Shell: String, OptionChoice {
        case bash, zsh, fish

        static var kind: String { "shell" }
    }

    let shell: Shell

    static let usage = "\(CLI.name) completions bash|zsh|fish"

    static let verb = Verb(
        name: "completions",
        abstract: "Print a shell completion script (bash, zsh or fish).",
        usage: usage,
        help: """
            Print a completion script for bash, zsh or fish: verbs, each verb's options,
            and channel names after --channel; other arguments complete as file names.

            Usage: \(usage)

            Install:
              bash  \(CLI.name) completions bash > ~/.local/share/bash-completion/completions/\(CLI.name)
              zsh   \(CLI.name) completions zsh > "${fpath[1]}/_\(CLI.name)"
              fish  \(CLI.name) completions fish > ~/.config/fish/completions/\(CLI.name).fish

            Exit status: 0; 64 usage error.

            """,
        parse: { arguments throws(UsageError) in
            let options = try OptionScanner.scan(arguments, specs: [], verb: "completions")
            guard options.positionals.count == 1, let name = options.positionals.first else {
                throw UsageError("give one shell: \(Shell.choices)", verb: "completions")
            }
            return CompletionsCommand(shell: try Shell.parse(name, verb: "completions"))
        })

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        switch shell {
        case .bash: console.stdout.write(Self.bash)
        case .zsh: console.stdout.write(Self.zsh)
        case .fish: console.stdout.write(Self.fish)
        }
        return .success
    }

    static var verbWords: [String] { CLI.verbs.map(\.name) + ["help"] }
    static var shells: String { Shell.allCases.map(\.rawValue).joined(separator: " ") }
    static var fleetSubverbs: String { FleetCommand.names.joined(separator: " ") }

    /// Where options complete: each verb, and in place of `fleet` each of its subverbs (`fleet paths`), with its options.
    static var contexts: [(name: String, options: [OptionSpec])] {
        CLI.verbs.flatMap { verb in
            verb.name != FleetCommand.verb.name ? [(verb.name, verb.specs)] : FleetCommand.subverbs.map { ("fleet \($0.name)", $0.ownOptions) }
        }
    }

    static var bash: String {
        var values = "", cases = ""
        for (name, options) in contexts {
            for spec in options where !spec.words.isEmpty {
                values += "        \"\(name) \(spec.name)\") COMPREPLY=($(compgen -W \"\(spec.words.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
            }
            cases += "        \"\(name)\") options=\"\((options.map(\.name) + ["--help"]).joined(separator: " "))\" ;;\n"
        }
        return """
            # bash completion for \(CLI.name) (\(CLI.name) completions bash)
            _openin_check() {
                local cur prev verb options
                cur="${COMP_WORDS[COMP_CWORD]}"
                prev="${COMP_WORDS[COMP_CWORD-1]}"
                verb="${COMP_WORDS[1]}"
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W "\(verbWords.joined(separator: " ")) --help --version" -- "$cur"))
                    return
                fi
                case "$verb" in
                    help) COMPREPLY=($(compgen -W "\(verbWords.joined(separator: " "))" -- "$cur")); return ;;
                    completions) COMPREPLY=($(compgen -W "\(shells)" -- "$cur")); return ;;
                    fleet)
                        if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=($(compgen -W "\(fleetSubverbs)" -- "$cur")); return; fi
                        verb="fleet ${COMP_WORDS[2]}" ;;
                esac
                case "$verb $prev" in
            \(values)    esac
                case "$verb" in
            \(cases)        *) options="" ;;
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$cur"))
                else
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
            }
            complete -o filenames -F _openin_check \(CLI.name)

            """
    }

    static var zsh: String {
        let verbs = CLI.verbs.map { "        '\($0.name):\(quotedForZsh($0.abstract))'" }.joined(separator: "\n")
        let subverbs = FleetCommand.subverbs.map { "                '\($0.name):\(quotedForZsh($0.summary))'" }.joined(separator: "\n")
        var values = "", cases = ""
        for (name, options) in contexts {
            for spec in options where !spec.words.isEmpty {
                values += "        '\(name) \(spec.name)') compadd -- \(spec.words.joined(separator: " ")); return ;;\n"
            }
            cases += "        '\(name)') options=(\((options.map(\.name) + ["--help"]).joined(separator: " "))) ;;\n"
        }
        return """
            #compdef \(CLI.name)
            # zsh completion for \(CLI.name) (\(CLI.name) completions zsh)
            _openin_check() {
                local -a verbs subverbs options
                local verb
                verbs=(
            \(verbs)
                    'help:Show a verb'"'"'s help'
                )
                if (( CURRENT == 2 )); then
                    _describe 'verb' verbs
                    return
                fi
                verb=$words[2]
                case $verb in
                    help) compadd -- \(verbWords.joined(separator: " ")); return ;;
                    completions) compadd -- \(shells); return ;;
                    fleet)
                        if (( CURRENT == 3 )); then
                            subverbs=(
            \(subverbs)
                            )
                            _describe 'subverb' subverbs
                            return
                        fi
                        verb="fleet $words[3]" ;;
                esac
                case "$verb $words[CURRENT-1]" in
            \(values)    esac
                case $verb in
            \(cases)    esac
                if [[ $PREFIX == -* ]]; then
                    compadd -- $options
                else
                    _files
                fi
            }
            _openin_check "$@"

            """
    }

    static var fish: String {
        var lines = [
            "# fish completion for \(CLI.name) (\(CLI.name) completions fish)",
            "complete -c \(CLI.name) -f",
            "complete -c \(CLI.name) -n __fish_use_subcommand -l version -d 'Show the version'",
        ]
        for verb in CLI.verbs {
            lines.append("complete -c \(CLI.name) -n __fish_use_subcommand -a \(verb.name) -d '\(quotedForFish(verb.abstract))'")
        }
        lines.append("complete -c \(CLI.name) -n __fish_use_subcommand -a help -d 'Show a verb\\'s help'")
        lines.append("complete -c \(CLI.name) -n '__fish_seen_subcommand_from help' -a '\(CLI.verbs.map(\.name).joined(separator: " "))'")
        lines.append("complete -c \(CLI.name) -n '__fish_seen_subcommand_from completions' -a '\(shells)'")
        for subverb in FleetCommand.subverbs {
            lines.append("complete -c \(CLI.name) -n '__fish_seen_subcommand_from fleet; and not __fish_seen_subcommand_from \(fleetSubverbs)' -a \(subverb.name) -d '\(quotedForFish(subverb.summary))'")
        }
        for (name, options) in contexts {
            // A fleet subverb after fleet; a verb that is also a fleet subverb's word (eval, lint) not after fleet.
            let words = name.split(separator: " ")
            let condition = words.count == 2 ? "-n '__fish_seen_subcommand_from fleet; and __fish_seen_subcommand_from \(words[1])'"
                : FleetCommand.names.contains(name) ? "-n '__fish_seen_subcommand_from \(name); and not __fish_seen_subcommand_from fleet'" : "-n '__fish_seen_subcommand_from \(name)'"
            for spec in options {
                let summary = quotedForFish(String(spec.help.prefix { $0 != "\n" }))
                let kind = !spec.words.isEmpty ? "-x -a '\(spec.words.joined(separator: " "))'" : spec.valueName != nil ? "-r -F" : nil
                lines.append("complete -c \(CLI.name) \(condition) -l \(spec.name.dropFirst(2))\(kind.map { " " + $0 } ?? "") -d '\(summary)'")
            }
            lines.append("complete -c \(CLI.name) \(condition) -F")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` with each character that `replacement` maps replaced by its text, the others kept.
    private static func escaping(_ text: String, _ replacement: (Character) -> String?) -> String {
        var result = ""
        for character in text { if let escaped = replacement(character) { result += escaped } else { result.append(character) } }
        return result
    }

    /// Text for a single-quoted zsh string inside `_describe`'s `name:description` (colons escaped).
    private static func quotedForZsh(_ text: String) -> String {
        escaping(text) { character in
            switch character {
            case "'": "'\"'\"'"
            case ":": "\\:"
            default: nil
            }
        }
    }

    /// Text for a single-quoted fish string.
    private static func quotedForFish(_ text: String) -> String {
        escaping(text) { character in
            switch character {
            case "'": "\\'"
            case "\\": "\\\\"
            default: nil
            }
        }
    }
}
