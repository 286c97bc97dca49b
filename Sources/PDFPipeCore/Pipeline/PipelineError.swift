/// A problem with a pipeline file or the command line, reported before any document is opened.
/// Printed in compiler style: `pipelines/audit.json:4:20: error: stages[2].with.width: expected …`.
public struct PipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pipeline file, as the user named it (nil for command-line problems).
    public var file: String?
    /// Where in the file, when known.
    public var location: SourceLocation?
    /// The JSON path (`stages[2].with.width`), when the problem is about a value.
    public var path: String?
    public var message: String
    /// Only the environment can fix it (a variable the pipeline names is not set): `pdfpipe run`
    /// refuses the pipeline, `pdfpipe validate` warns (a lint job may not have the run's secrets).
    public var needsEnvironment = false
    /// The other problems found in the same pass (a pipeline file is checked whole); printed after
    /// this one, a line each.
    public var others: [PipelineError] = []

    public init(
        file: String?, location: SourceLocation? = nil, path: String? = nil, message: String,
        needsEnvironment: Bool = false
    ) {
        self.file = file
        self.location = location
        self.path = path
        self.message = message
        self.needsEnvironment = needsEnvironment
    }

    /// This problem and the others found with it, each on its own (no `others`).
    public var all: [PipelineError] {
        var first = self
        first.others = []
        return [first] + others.flatMap(\.all)
    }

    /// One error for several problems (nil for none): the first, with the rest as `others`.
    public static func combined(_ problems: [PipelineError]) -> PipelineError? {
        let flat = problems.flatMap(\.all)
        guard var first = flat.first else { return nil }
        first.others = Array(flat.dropFirst())
        return first
    }

    public var description: String { ([self] + others).map { $0.text(kind: "error") }.joined(separator: "\n") }

    /// The same message as a warning.
    public var warning: String { text(kind: "warning") }

    func text(kind: String) -> String {
        var prefix = file ?? "pdfpipe"
        if let location { prefix += ":\(location.line):\(location.column)" }
        if let path, !path.isEmpty { return "\(prefix): \(kind): \(path): \(message)" }
        return "\(prefix): \(kind): \(message)"
    }
}

/// Suggestions for misspelt names.
package enum Suggest {
    /// The closest candidate within a small edit distance, if any.
    package static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = max(2, word.count / 3)
        var best: (String, Int)?
        for c in candidates {
            let d = distance(word.lowercased(), c.lowercased())
            if d <= limit, best == nil || d < best!.1 { best = (c, d) }
        }
        if let best { return best.0 }
        let w = word.lowercased()
        // An abbreviation (`warn` for `warning`): the only candidate it begins.
        if w.count >= 3 {
            let extending = candidates.filter { $0.lowercased().hasPrefix(w) }
            if extending.count == 1 { return extending[0] }
        }
        // A short form of a longer name (`thumbs` for `thumbnails`, `inspect` for
        // `inspect-links`): the only candidate that shares its first five letters.
        guard w.count >= 5 else { return nil }
        let sharing = candidates.filter { $0.lowercased().hasPrefix(String(w.prefix(5))) }
        return sharing.count == 1 ? sharing[0] : nil
    }

    /// `; did you mean 'width'?` or the empty string.
    package static func didYouMean(_ word: String, _ candidates: [String]) -> String {
        closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&prev, &cur)
        }
        return prev[b.count]
    }
}
