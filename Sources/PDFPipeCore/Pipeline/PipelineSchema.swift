/// The keys of a pipeline file, described once (#22, 1): the loader validates against them, the JSON
/// Schema is made from them, the command line's overriding flags check their values with them, and
/// a test holds the README's table to them.
extension Pipeline {
    /// Long on purpose (one of the five functions of 80+ lines, docs/development.md): a table, not
    /// logic: one `OptionSpec` per key of the pipeline file, in the order the reference lists them.
    public static func keys(catalog: [StageDescriptor], formats: [String]) -> [OptionSpec] {
        let stageVariants: [JSONValue] = catalog.map { d in
            [
                "type": "object",
                "description": .string(d.summary),
                "additionalProperties": false,
                "required": ["use"],
                "properties": [
                    "use": ["const": .string(d.id)],
                    "with": OptionSpec.objectSchema(d.options),
                ],
            ]
        }
        let ruleProps = Dictionary(
            uniqueKeysWithValues: RuleCatalog(stages: catalog).all.map { r -> (String, JSONValue) in
                (
                    r.id,
                    [
                        "description": .string("\(r.summary) (default: \(r.severity.rawValue))"),
                        "enum": .array(RuleLevel.names.map { .string($0) }),
                    ]
                )
            })
        return [
            OptionSpec("$schema", .string, default: .null, "the JSON Schema editors check the file against; ignored"),
            OptionSpec(
                "$comment",
                .custom(
                    schema: ["anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]]],
                    description: "string or array of strings"), default: .null,
                "notes for people; pdfpipe ignores it"),
            OptionSpec("version", .constant(.int(currentVersion)), default: .int(currentVersion), "format version"),
            OptionSpec("name", .text, default: .null, "shown in reports; default: the file name"),
            OptionSpec(
                "inputs", .array(.text, minItems: 0), default: [],
                "files, folders (searched for *.pdf) and globs with **, relative to the working folder",
                valueName: "an array of paths or globs"),
            OptionSpec(
                "output", .text, default: .null, "output folder; default: out/NAME", valueName: "a folder path"),
            OptionSpec(
                "jobs", .integer(min: 0, max: 1024), default: 0, "documents at once; 0: one per processor",
                valueName: "an integer 0...1024 (0: one per processor)"),
            OptionSpec(
                "stages",
                .custom(
                    schema: ["type": "array", "minItems": 1, "items": ["oneOf": .array(stageVariants)]],
                    description: "non-empty array of {\"use\": STAGE, \"with\": {OPTIONS}}"), default: .null,
                "run in order on each document"),
            OptionSpec(
                "rules",
                .custom(
                    schema: ["type": "object", "additionalProperties": false, "properties": .object(ruleProps)],
                    description: "object: rule id -> 'error' | 'warning' | 'note' | 'off'"), default: .null,
                "changes a rule's severity, or turns it off"),
            OptionSpec(
                "report",
                .object([
                    OptionSpec(
                        "formats", .array(.choice(formats), minItems: 1), default: ["json"], "reports to write"),
                    OptionSpec(
                        "failOn", .choice(FailOn.allCases.map(\.rawValue)), default: "error",
                        "the exit-code threshold"),
                    OptionSpec(
                        "baseline", .text, default: .null,
                        "baseline file (pdfpipe baseline writes one) or an earlier report.json: findings in it do not fail the run",
                        valueName: "the path of a baseline file (pdfpipe baseline writes one)"),
                    OptionSpec(
                        "ratchet", .bool, default: false,
                        "also fail when findings of the baseline are gone (update the baseline)",
                        valueName: "true or false"),
                    OptionSpec(
                        "ledger", .text, default: .null,
                        "a folder (or s3://bucket/prefix/) that keeps one record of each run's broken links (pdfpipe trend reads it)",
                        valueName: "the path of a folder"),
                    OptionSpec(
                        "sources", .array(.text, minItems: 0), default: [],
                        "folders of the sources the PDFs are built from (relative to the working folder): each finding about a link gets the source line that made it (SyncTeX beside the PDF, else search)"
                    ),
                ]), default: .null, "reports and the exit code"),
            OptionSpec(
                "isolation", .choice(Isolation.allCases.map(\.rawValue)), default: "auto",
                "process: each document in a child process; none: all in this one; auto: process when a stage renders pages or reads their text (thumbnails, extract-text)"
            ),
            OptionSpec(
                "timeoutSeconds", .number(min: 0, max: 86400), default: 0,
                "seconds per document (0: none); a limit turns process isolation on",
                valueName: "seconds 0...86400 (0: none)"),
            OptionSpec(
                "memoryLimitMB", .integer(min: 0, max: 1_048_576), default: 0,
                "address-space limit per document in MB (0: none); a limit turns process isolation on",
                valueName: "megabytes 0...1048576 (0: none)"),
            OptionSpec(
                "ignore",
                .custom(schema: Suppression.schema, description: "array of {rule, path, uri, page, reason, expires}"),
                default: [],
                "findings to take out of the counts, each with a reason; every field but reason is optional and all given must match"
            ),
        ]
    }
}

/// The JSON Schema (draft 2020-12) of pipeline files, made from the same tables the loader uses, so
/// the committed copy in `pipelines/` can be checked against it.
package enum PipelineSchema {
    package static func make(catalog: [StageDescriptor], formats: [String]) -> JSONValue {
        guard case .object(var schema) = OptionSpec.objectSchema(Pipeline.keys(catalog: catalog, formats: formats))
        else { return .null }
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = "https://pdfpipe.invalid/pipeline.schema.json"
        schema["title"] = "pdfpipe pipeline"
        schema["required"] = ["stages"]
        return .object(schema)
    }
}

extension Suppression {
    /// The keys of an `ignore` entry, declared once, in the order messages list them: the schema
    /// and the reader's check of unknown keys (`Suppression.init(json:)`) are made from them.
    static let fields: [(key: String, schema: JSONValue)] = [
        ("rule", ["type": "string", "minLength": 1, "description": "rule id, or a glob over ids (uri.*)"]),
        (
            "path",
            [
                "type": "string", "minLength": 1,
                "description":
                    "glob over the document's path (relative to the input root, or as the inputs were named)",
            ]
        ),
        (
            "uri",
            [
                "type": "string", "minLength": 1,
                "description": "regular expression searched for in the finding's target (uri, file or #name)",
            ]
        ),
        ("page", ["type": "integer", "minimum": 1]),
        ("reason", ["type": "string", "minLength": 1, "description": "why; shown beside each finding it takes out"]),
        (
            "expires",
            [
                "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
                "description":
                    "YYYY-MM-DD; afterwards the entry no longer applies and is reported (config.suppression-expired)",
            ]
        ),
    ]

    /// The schema of `ignore`.
    static let schema: JSONValue = [
        "type": "array",
        "items": [
            "type": "object", "additionalProperties": false, "required": ["reason"],
            "properties": .object(Dictionary(uniqueKeysWithValues: fields.map { ($0.key, $0.schema) })),
        ],
    ]
}
