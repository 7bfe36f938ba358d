import ArgumentParser
import ShopCommands

/// `fakenft --generate-completion-script SHELL`: ArgumentParser's script for the app and its
/// subcommands, with the shop's commands (``ShopCommand/completions``) completed in front of it:
/// their first words where a subcommand may stand, then each one's second words and options.
enum CompletionScripts {
    /// The shell `arguments` ask a script for (`--generate-completion-script zsh`), if they do.
    static func asked(_ arguments: [String]) -> CompletionShell? {
        let flag = "--generate-completion-script"
        guard let first = arguments.first else { return nil }
        if first.hasPrefix(flag + "=") { return CompletionShell(rawValue: String(first.dropFirst(flag.count + 1))) }
        guard first == flag, arguments.count == 2 else { return nil }
        return CompletionShell(rawValue: arguments[1])
    }

    /// The whole script for `shell`.
    static func script(for shell: CompletionShell) -> String {
        let parser = FakeNFTCommand.completionScript(for: shell)
        switch shell {
        case .zsh: return zsh(parser)
        case .fish: return fish(parser)
        default: return bash(parser)
        }
    }

    private static let comment =
        "# The shop's commands ('fakenft help'): a first word, then its second words and options."
    private static let connection = LocalCommands.connectionOptions.sorted().map { "--" + $0 }
    private static var firsts: [String] { ShopCommand.completions.map(\.word) }

    /// The words to offer after `completion`'s first word: its second words right after it, its
    /// options anywhere.
    private static func arm(
        _ completion: ShopCommand.Completion, verbs: (String) -> String, options: (String) -> String
    )
        -> String
    {
        let rest = (completion.options + connection).joined(separator: " ")
        guard !completion.verbs.isEmpty else { return "    \(completion.word)) \(options(rest)) ;;" }
        return "    \(completion.word)) \(verbs(completion.verbs.joined(separator: " "))); \(options(rest)) ;;"
    }

    private static func bash(_ parser: String) -> String {
        let arms = ShopCommand.completions.map {
            arm($0, verbs: { "((COMP_CWORD == at + 1)) && words='\($0)'" }, options: { "words+=' \($0)'" })
        }
        return parser + """

            \(comment)
            _fakenft_shop() {
                local -i at=0 i=1
                while ((i < COMP_CWORD)); do
                    case "${COMP_WORDS[i]}" in
                    \(connection.joined(separator: "|"))) ((i += 2)) ;;
                    -*) ((i += 1)) ;;
                    *) at=i; break ;;
                    esac
                done
                local words=''
                if ((at == 0)) && [[ "${2}" == -* || "${3}" == -* ]]; then
                    # an option of the app, the default subcommand, or its value
                    local -a COMP_WORDS=("${COMP_WORDS[0]}" app "${COMP_WORDS[@]:1}")
                    local -i COMP_CWORD=$((COMP_CWORD + 1))
                    _fakenft "${@}"
                elif ((at == 0)); then
                    _fakenft "${@}"
                    words='\(firsts.joined(separator: " "))'
                else
                    case "${COMP_WORDS[at]}" in
            \(arms.joined(separator: "\n"))
                    *) _fakenft "${@}"; return ;;
                    esac
                fi
                COMPREPLY+=($(compgen -W "${words}" -- "${2}"))
            }
            complete -o filenames -F _fakenft_shop fakenft

            """
    }

    /// ArgumentParser's functions renamed `_fakenft_parser…`, so that `_fakenft`, the name zsh
    /// calls, is the one that knows the shop's commands.
    private static func zsh(_ parser: String) -> String {
        let tail = parser.range(of: "if [[ \"${funcstack[1]}\"", options: .backwards)?.lowerBound ?? parser.endIndex
        let renamed = String(parser[..<tail]).replacingOccurrences(of: "_fakenft", with: "_fakenft_parser")
            .replacingOccurrences(of: "#compdef fakenft_parser", with: "#compdef fakenft")
        let arms = ShopCommand.completions.map {
            arm($0, verbs: { "((CURRENT == at + 1)) && candidates=(\($0))" }, options: { "candidates+=(\($0))" })
        }
        return renamed + """
            \(comment)
            _fakenft() {
                local -i at=0 i=2
                while ((i < CURRENT)); do
                    case "${words[i]}" in
                    \(connection.joined(separator: "|"))) ((i += 2)) ;;
                    -*) ((i += 1)) ;;
                    *) at=i; break ;;
                    esac
                done
                local -a candidates
                if ((at == 0)) && [[ "${PREFIX}" == -* || "${words[CURRENT-1]}" == -* ]]; then
                    # an option of the app, the default subcommand, or its value
                    words=("${words[1]}" app "${(@)words[2,-1]}")
                    ((CURRENT += 1))
                    _fakenft_parser "${@}"
                elif ((at == 0)); then
                    _fakenft_parser "${@}"
                    candidates=(\(firsts.joined(separator: " ")))
                else
                    case "${words[at]}" in
            \(arms.joined(separator: "\n"))
                    *) _fakenft_parser "${@}"; return ;;
                    esac
                fi
                compadd -a candidates
            }

            if [[ "${funcstack[1]}" = _fakenft ]]; then
                _fakenft "${@}"
            else
                compdef _fakenft fakenft
            fi

            """
    }

    private static func fish(_ parser: String) -> String {
        var lines = [
            comment,
            "complete -c fakenft -n '__fish_use_subcommand' -fa '\(firsts.joined(separator: " "))'",
        ]
        for completion in ShopCommand.completions {
            let seen = "__fish_seen_subcommand_from \(completion.word)"
            if !completion.verbs.isEmpty {
                let verbs = completion.verbs.joined(separator: " ")
                lines.append(
                    "complete -c fakenft -n '\(seen); and not __fish_seen_subcommand_from \(verbs)' -fa '\(verbs)'")
            }
            for option in completion.options {
                let flag = option == "--json" ? "" : " -r"
                lines.append("complete -c fakenft -n '\(seen)' -l \(option.dropFirst(2))\(flag)")
            }
        }
        return parser + "\n" + lines.joined(separator: "\n") + "\n"
    }
}
