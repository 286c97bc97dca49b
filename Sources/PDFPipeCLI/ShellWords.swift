/// A command line split into words by the shell's quoting rules, without a shell: nothing is
/// expanded, substituted or run. The GitHub Action's `args` input (`--offline --shard "1/4"`)
/// arrives as one string; splitting it on spaces would break quoted values and let a value with a
/// space become two arguments.
///
/// Words are separated by blanks and line breaks; `'…'` keeps everything literally; `"…"` keeps
/// everything but `\"`, `\\`, `\$` and `` \` `` (a backslash-newline joins lines); a backslash outside
/// quotes keeps the next character. `$`, `` ` ``, globs, `;`, `|` and the like are plain characters.
package enum ShellWords {
    package struct Unterminated: Error, CustomStringConvertible {
        var quote: Character
        package var description: String { "a \(quote == "\\" ? "backslash at the end" : "\(quote) is not closed")" }
    }

    package static func split(_ text: String) throws(Unterminated) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var chars = text.makeIterator()
        while let c = chars.next() {
            switch c {
            case " ", "\t", "\n", "\r", "\r\n":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'", "\"":
                inWord = true
                guard readQuoted(&chars, until: c, into: &word, escapes: c == "\"") else {
                    throw Unterminated(quote: c)
                }
            case "\\":
                guard let e = chars.next() else { throw Unterminated(quote: "\\") }
                if e == "\n" { continue }
                inWord = true
                word.append(e)
            default:
                inWord = true
                word.append(c)
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// The rest of a quoted run, up to its closing `quote` (false when there is none). In double
    /// quotes (`escapes`), a backslash keeps `"`, `\\`, `$` and `` ` `` and joins lines; before any
    /// other character it is itself. In single quotes nothing is special.
    private static func readQuoted(
        _ chars: inout String.Iterator, until quote: Character, into word: inout String, escapes: Bool
    ) -> Bool {
        while let d = chars.next() {
            if d == quote { return true }
            guard escapes, d == "\\" else {
                word.append(d)
                continue
            }
            guard let e = chars.next() else { return false }
            if e == "\n" { continue }
            if !"\"\\$`".contains(e) { word.append("\\") }
            word.append(e)
        }
        return false
    }

    /// A word as a shell reads it back: bare when it holds only safe characters, else in single
    /// quotes (a `'` in it written `'\''`) — for the command the action prints.
    static func quote(_ word: String) -> String {
        let safe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_./=,:+@%"
        if !word.isEmpty, word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
