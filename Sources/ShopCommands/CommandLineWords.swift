/// A command line as one string (what an SSH client sends) split into its words as a POSIX shell
/// splits them, without expanding anything: blanks separate words, single quotes keep what is
/// between them, double quotes keep all but `\"` and `\\`, and a backslash keeps the next character.
public enum CommandLineWords {
    public static func split(_ line: String) throws(CommandFailure) -> [String] {
        var words: [String] = [], word = "", inWord = false
        var quote: Character?, escaped = false
        for character in line {
            if escaped {
                word.append(character)
                escaped = false
                continue
            }
            switch (quote, character) {
            case ("'", "'"), ("\"", "\""): quote = nil
            case ("'", _): word.append(character)
            case ("\"", "\\"): escaped = true
            case ("\"", _): word.append(character)
            case (_, "'"), (_, "\""):
                quote = character
                inWord = true
            case (_, "\\"):
                escaped = true
                inWord = true
            case (_, " "), (_, "\t"), (_, "\n"):
                if inWord { words.append(word) }
                word = ""
                inWord = false
            default:
                word.append(character)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { throw .usage("the command line ends inside a quote or after a backslash") }
        if inWord { words.append(word) }
        return words
    }
}
