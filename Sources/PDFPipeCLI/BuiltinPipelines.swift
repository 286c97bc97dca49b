import PDFPipeCore

/// Pipelines that come with pdfpipe and are named instead of a file: `pdfpipe run link-audit docs`,
/// and the GitHub Action's default, so that a repository holding only PDFs needs no pipeline file.
/// Each is the file of its name in this repository's `pipelines/` with the current folder as its input
/// (a test holds them together); `pdfpipe pipelines` lists them and `pdfpipe pipelines show NAME`
/// prints one to start a pipeline file from.
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
                """),
        Entry(
            name: "web-links-nightly",
            summary:
                "the link audit for a schedule: a web link is an error once it has failed three runs in a row (confirmRuns), with a cache in .pdfpipe-cache/",
            text: """
                {
                  "version": 1,
                  "name": "web-links-nightly",
                  "inputs": ["."],
                  "output": "out/web-links",
                  "stages": [
                    { "use": "resolve-destinations" },
                    {
                      "use": "validate-links",
                      "with": {
                        "inventory": true, "outlines": true, "gotor": true,
                        "external": {
                          "enabled": true, "timeoutSeconds": 20, "retries": 2, "confirmRuns": 3,
                          "cache": { "path": ".pdfpipe-cache/links.json" }
                        }
                      }
                    }
                  ],
                  "report": { "formats": ["json"], "failOn": "error" }
                }
                """),
        Entry(
            name: "broken-link-report",
            summary:
                "the link audit with each page that has findings drawn beside them, its broken links outlined and numbered (report.html)",
            text: """
                {
                  "version": 1,
                  "name": "broken-link-report",
                  "inputs": ["."],
                  "output": "out/broken-link-report",
                  "stages": [
                    { "use": "resolve-destinations" },
                    {
                      "use": "validate-links",
                      "with": { "external": { "enabled": true, "cache": { "path": ".pdfpipe-cache/links.json" } } }
                    },
                    { "use": "thumbnails", "with": { "width": 240, "pages": "all", "overlay": "links" } }
                  ],
                  "report": { "formats": ["json", "html", "markdown"], "failOn": "error" }
                }
                """),
        Entry(
            name: "anchor-guard",
            summary:
                "every named destination listed with its page and bookmark title, and the internal links checked: run with --baseline (pdfpipe anchors of the last release, or its report.json) to find the anchors a change removes (dest.removed)",
            text: """
                {
                  "version": 1,
                  "name": "anchor-guard",
                  "inputs": ["."],
                  "output": "out/anchor-guard",
                  "stages": [
                    { "use": "resolve-destinations", "with": { "list": true } },
                    { "use": "validate-links", "with": { "outlines": true } }
                  ],
                  "rules": { "\(Rule.destRemoved.id)": "error", "\(Rule.destChanged.id)": "error" },
                  "report": { "formats": ["json", "markdown"], "failOn": "error" }
                }
                """),
    ]

    /// The built-in a missing pipeline file stands for: `pipelines/link-audit.json` (a recipe from
    /// pdfpipe's own repository pasted into another) names `link-audit`.
    static func standingFor(missingFile file: String) -> Entry? {
        var name = Substring(file.split(separator: "/").last ?? "")
        if name.hasSuffix(".json") { name = name.dropLast(5) }
        return all.first { $0.name == name }
    }

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
