import OpenInPolicy
import OpenInReports

/// `openin-check completions bash|zsh|fish`: a shell completion script for the verbs, their options and channel names.
///
/// The script is written from ``CLI/verbs`` and each verb's option specs, so it
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

    /// Every verb and its options, `-h` and `--help` included.
    static var verbOptions: [(verb: Verb, options: [String])] {
        CLI.verbs.map { verb in (verb, verb.specs.map(\.name) + ["--help"]) }
    }
    static var verbWords: [String] { CLI.verbs.map(\.name) + ["help"] }
    /// `eval`'s channels: the single-app ones, and Intune's location channels (for an Intune policy).
    static var channels: String { (Channel.allCases.map(\.rawValue) + LocationChannel.allCases.map(\.rawValue)).joined(separator: " ") }
    /// The values of `--location` (Intune's `save-as` and `open-into-org-document`).
    static var locations: String { DataLocation.allCases.map(\.rawValue).joined(separator: " ") }
    static var shells: String { Shell.allCases.map(\.rawValue).joined(separator: " ") }
    /// `fleet`'s subverbs and channels (its `--channel` takes the fleet's channels).
    static var fleetSubverbs: String { FleetCommand.subverbs.joined(separator: " ") }
    static var fleetChannels: String { FleetChannel.allCases.map(\.rawValue).joined(separator: " ") }
    /// Every format a `fleet` subverb writes (`--format`), the report formats of paths and diff included.
    static var fleetFormats: String {
        var names: [String] = []
        for name in FleetCommand.PathsFormat.allCases.map(\.rawValue) + ReporterRegistry.standard.names(for: FleetLintReport.self) + ["jsonl"] where !names.contains(name) {
            names.append(name)
        }
        return names.joined(separator: " ")
    }

    static var bash: String {
        var cases = ""
        for (verb, options) in verbOptions {
            cases += "        \(verb.name)) options=\"\(options.joined(separator: " "))\" ;;\n"
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
                if [ "$verb" = "fleet" ]; then
                    if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=($(compgen -W "\(fleetSubverbs)" -- "$cur")); return; fi
                    if [ "$prev" = "--channel" ]; then COMPREPLY=($(compgen -W "\(fleetChannels)" -- "$cur")); return; fi
                    if [ "$prev" = "--from" ]; then COMPREPLY=($(compgen -W "all" -- "$cur")); return; fi
                    if [ "$prev" = "--to" ]; then COMPREPLY=($(compgen -W "outside" -- "$cur")); return; fi
                    if [ "$prev" = "--format" ]; then COMPREPLY=($(compgen -W "\(fleetFormats)" -- "$cur")); return; fi
                fi
                case "$prev" in
                    --channel) COMPREPLY=($(compgen -W "\(channels)" -- "$cur")); return ;;
                    --location) COMPREPLY=($(compgen -W "\(locations)" -- "$cur")); return ;;
                esac
                case "$verb" in
                    help) COMPREPLY=($(compgen -W "\(verbWords.joined(separator: " "))" -- "$cur")); return ;;
                    completions) COMPREPLY=($(compgen -W "\(shells)" -- "$cur")); return ;;
                esac
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
        var cases = ""
        for (verb, options) in verbOptions {
            cases += "        \(verb.name)) options=(\(options.joined(separator: " "))) ;;\n"
        }
        return """
            #compdef \(CLI.name)
            # zsh completion for \(CLI.name) (\(CLI.name) completions zsh)
            _openin_check() {
                local -a verbs options
                verbs=(
            \(verbs)
                    'help:Show a verb'"'"'s help'
                )
                if (( CURRENT == 2 )); then
                    _describe 'verb' verbs
                    return
                fi
                if [[ $words[2] == fleet ]]; then
                    if (( CURRENT == 3 )); then
                        compadd -- \(fleetSubverbs)
                        return
                    fi
                    if [[ $words[CURRENT-1] == --channel ]]; then
                        compadd -- \(fleetChannels)
                        return
                    fi
                    if [[ $words[CURRENT-1] == --from ]]; then
                        compadd -- all
                        return
                    fi
                    if [[ $words[CURRENT-1] == --to ]]; then
                        compadd -- outside
                        return
                    fi
                    if [[ $words[CURRENT-1] == --format ]]; then
                        compadd -- \(fleetFormats)
                        return
                    fi
                fi
                if [[ $words[CURRENT-1] == --channel ]]; then
                    compadd -- \(channels)
                    return
                fi
                if [[ $words[CURRENT-1] == --location ]]; then
                    compadd -- \(locations)
                    return
                fi
                case $words[2] in
                    help) compadd -- \(verbWords.joined(separator: " ")); return ;;
                    completions) compadd -- \(shells); return ;;
                esac
                case $words[2] in
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
        lines.append("complete -c \(CLI.name) -n '__fish_seen_subcommand_from fleet; and not __fish_seen_subcommand_from \(fleetSubverbs)' -a '\(fleetSubverbs)'")
        for verb in CLI.verbs {
            let condition = "-n '__fish_seen_subcommand_from \(verb.name)'"
            for spec in verb.specs {
                let name = String(spec.name.dropFirst(2))
                let summary = quotedForFish(String(spec.help.prefix { $0 != "\n" }))
                if spec.name == "--channel" {
                    lines.append("complete -c \(CLI.name) \(condition) -l \(name) -x -a '\(verb.name == "fleet" ? fleetChannels : channels)' -d '\(summary)'")
                } else if verb.name == "fleet", spec.name == "--format" {
                    lines.append("complete -c \(CLI.name) \(condition) -l \(name) -x -a '\(fleetFormats)' -d '\(summary)'")
                } else if spec.name == "--location" {
                    lines.append("complete -c \(CLI.name) \(condition) -l \(name) -x -a '\(locations)' -d '\(summary)'")
                } else if verb.name == "fleet", spec.name == "--from" || spec.name == "--to" {
                    // A bundle ID, or the word for every app (--from all) or the outside set (--to outside).
                    lines.append("complete -c \(CLI.name) \(condition) -l \(name) -x -a '\(spec.name == "--from" ? "all" : "outside")' -d '\(summary)'")
                } else if spec.valueName != nil {
                    lines.append("complete -c \(CLI.name) \(condition) -l \(name) -r -F -d '\(summary)'")
                } else {
                    lines.append("complete -c \(CLI.name) \(condition) -l \(name) -d '\(summary)'")
                }
            }
            lines.append("complete -c \(CLI.name) \(condition) -F")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text for a single-quoted zsh string inside `_describe`'s `name:description` (colons escaped).
    private static func quotedForZsh(_ text: String) -> String {
        text.escapingCharacters { character in
            switch character {
            case "'": "'\"'\"'"
            case ":": "\\:"
            default: nil
            }
        }
    }

    /// Text for a single-quoted fish string.
    private static func quotedForFish(_ text: String) -> String {
        text.escapingCharacters { character in
            switch character {
            case "'": "\\'"
            case "\\": "\\\\"
            default: nil
            }
        }
    }
}
