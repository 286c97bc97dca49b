import PDFPipeCore

/// Pipelines that come with pdfpipe and are named instead of a file: `pdfpipe run link-audit docs`,
/// and the GitHub Action's default, so that a repository holding only PDFs needs no pipeline file.
/// `pipelines/link-audit.json` is the same pipeline with this repository's inputs (a test holds the
/// two together); the `.deb` and the image install it as /usr/share/pdfpipe/pipelines/link-audit.json.
package enum BuiltinPipelines {
    package struct Entry {
        package var name: String
        package var summary: String
        package var text: String
    }

    package static let all: [Entry] = [
        Entry(
            name: "link-audit",
            summary:
                "every link, bookmark and named destination of the PDFs under the current folder, web links included (--offline leaves them out)",
            text: """
                {
                  "version": 1,
                  "name": "link-audit",
                  "inputs": ["."],
                  "output": "out/link-audit",
                  "stages": [
                    { "use": "resolve-destinations" },
                    {
                      "use": "validate-links",
                      "with": {
                        "inventory": true, "outlines": true, "gotor": true,
                        "external": { "enabled": true, "timeoutSeconds": 20, "retries": 2, "cache": { "path": ".pdfpipe-cache/links.json" } }
                      }
                    }
                  ],
                  "report": { "formats": ["json"], "failOn": "error" }
                }
                """)
    ]

    /// The built-in pipeline a run's first argument names: a bare name (no `/`, not `*.json`) for
    /// which no file exists in `directory`. A file of that name wins, so nothing that worked before
    /// changes meaning.
    static func named(_ argument: String, in directory: String, exists: (String) -> Bool) -> Entry? {
        guard !argument.contains("/"), !argument.hasSuffix(".json"),
            !exists(Paths.absolute(argument, relativeTo: directory))
        else { return nil }
        return all.first { $0.name == argument }
    }

    /// The names, for messages.
    static var names: String { all.map(\.name).joined(separator: ", ") }
}
