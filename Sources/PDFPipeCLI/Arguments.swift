import PDFPipeCore

/// A command line split into options and positional arguments, parsed by hand (no package from
/// outside the toolchain can be fetched). `--name value`, `--name=value`, flags, and `--` to end
/// options.
struct Arguments {
    var positional: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    /// - Parameters:
    ///   - valued: options that take a value (`--out`).
    ///   - flags: options that take none (`--quiet`).
    ///   - listed: the options in the order an error message lists them (default: valued, then flags).
    init(_ args: [String], valued: [String], flags known: [String], listed: [String]? = nil) throws(PipelineError) {
        var i = 0
        var onlyPositional = false
        while i < args.count {
            let a = args[i]
            i += 1
            if onlyPositional || !a.hasPrefix("-") || a == "-" {
                positional.append(a)
                continue
            }
            if a == "--" {
                onlyPositional = true
                continue
            }
            var name = a
            var inline: String?
            if let eq = a.firstIndex(of: "=") {
                name = String(a[..<eq])
                inline = String(a[a.index(after: eq)...])
            }
            if valued.contains(name) {
                if let inline {
                    values[name] = inline
                } else {
                    guard i < args.count else {
                        throw PipelineError(file: nil, message: "option '\(name)' needs a value")
                    }
                    values[name] = args[i]
                    i += 1
                }
            } else if known.contains(name) {
                if inline != nil { throw PipelineError(file: nil, message: "option '\(name)' takes no value") }
                flags.insert(name)
            } else {
                let all = listed ?? (valued + known)
                let list = all.isEmpty ? "this command takes no options" : "options: \(all.joined(separator: ", "))"
                throw PipelineError(
                    file: nil, message: "unknown option '\(name)'\(Suggest.didYouMean(name, all)) (\(list))")
            }
        }
    }
}
