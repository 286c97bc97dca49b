/// The JSON Schema (draft 2020-12) of pipeline files, made from the same tables the loader uses, so
/// the committed copy in `pipelines/` can be checked against it.
public enum PipelineSchema {
    public static func make(catalog: [StageDescriptor], formats: [String]) -> JSONValue {
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
            uniqueKeysWithValues: Rules.all.map { r -> (String, JSONValue) in
                (
                    r.id,
                    [
                        "description": .string("\(r.summary) (default: \(r.severity.rawValue))"),
                        "enum": .array(RuleLevel.names.map { .string($0) }),
                    ]
                )
            })
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://pdfpipe.invalid/pipeline.schema.json",
            "title": "pdfpipe pipeline",
            "type": "object",
            "additionalProperties": false,
            "required": ["stages"],
            "properties": [
                "$schema": ["type": "string"],
                "$comment": [
                    "anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]],
                    "description": "notes for people; pdfpipe ignores it",
                ],
                "version": ["const": .int(Pipeline.currentVersion), "description": "format version"],
                "name": ["type": "string", "minLength": 1, "description": "shown in reports; default: the file name"],
                "inputs": [
                    "type": "array", "items": ["type": "string", "minLength": 1],
                    "description":
                        "files, folders (searched for *.pdf) and globs with **, relative to the working folder",
                ],
                "output": ["type": "string", "minLength": 1, "description": "output folder; default: out/NAME"],
                "jobs": [
                    "type": "integer", "minimum": 0, "maximum": 1024,
                    "description": "documents at once; 0: one per processor",
                ],
                "isolation": [
                    "enum": .array(Isolation.allCases.map { .string($0.rawValue) }),
                    "description": "process: each document in a child process",
                ],
                "timeoutSeconds": [
                    "type": "number", "minimum": 0, "maximum": 86400,
                    "description": "seconds per document (0: none); a limit turns process isolation on",
                ],
                "memoryLimitMB": [
                    "type": "integer", "minimum": 0, "maximum": 1_048_576,
                    "description":
                        "address-space limit per document in MB (0: none); a limit turns process isolation on",
                ],
                "stages": ["type": "array", "minItems": 1, "items": ["oneOf": .array(stageVariants)]],
                "rules": ["type": "object", "additionalProperties": false, "properties": .object(ruleProps)],
                "report": [
                    "type": "object", "additionalProperties": false,
                    "properties": [
                        "formats": [
                            "type": "array", "minItems": 1, "items": ["enum": .array(formats.map { .string($0) })],
                        ],
                        "failOn": ["enum": .array(FailOn.allCases.map { .string($0.rawValue) })],
                        "baseline": [
                            "type": "string", "minLength": 1,
                            "description":
                                "baseline file (pdfpipe baseline writes one) or an earlier report.json: findings in it do not fail the run",
                        ],
                        "ratchet": [
                            "type": "boolean",
                            "description": "also fail when findings of the baseline are gone (update the baseline)",
                        ],
                    ],
                ],
                "ignore": [
                    "type": "array",
                    "description":
                        "findings to take out of the counts, each with a reason; every field but reason is optional and all given must match",
                    "items": [
                        "type": "object", "additionalProperties": false, "required": ["reason"],
                        "properties": [
                            "rule": [
                                "type": "string", "minLength": 1, "description": "rule id, or a glob over ids (uri.*)",
                            ],
                            "path": [
                                "type": "string", "minLength": 1,
                                "description":
                                    "glob over the document's path (relative to the input root, or as the inputs were named)",
                            ],
                            "uri": [
                                "type": "string", "minLength": 1,
                                "description":
                                    "regular expression searched for in the finding's target (uri, file or #name)",
                            ],
                            "page": ["type": "integer", "minimum": 1],
                            "reason": [
                                "type": "string", "minLength": 1,
                                "description": "why; shown beside each finding it takes out",
                            ],
                            "expires": [
                                "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
                                "description":
                                    "YYYY-MM-DD; afterwards the entry no longer applies and is reported (config.suppression-expired)",
                            ],
                        ],
                    ],
                ],
            ],
        ]
    }
}
