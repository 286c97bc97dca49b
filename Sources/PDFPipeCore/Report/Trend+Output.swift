/// A trend as JSON (`trend.json`) and Markdown (`trend.md`, for a step summary or a pull-request
/// comment).
extension Trend {
    /// Rows listed at most in each table of the Markdown (the JSON has them all).
    public static let markdownRows = 20

    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "format": "pdfpipe-trend", "version": 1,
            "runs": .array(
                runs.map { r in
                    [
                        "run": .string(r.run), "time": .string(r.time), "pipeline": .string(r.pipeline),
                        "errors": .int(r.errors), "warnings": .int(r.warnings), "notes": .int(r.notes),
                        "families": .object(r.families.mapValues { .int($0) }), "new": .int(r.new),
                        "fixed": .int(r.fixed), "still": .int(r.still),
                        "counts": .object(r.counts.mapValues { .int($0) }),
                    ]
                }),
            "brokenNow": .array(
                current.map { b in
                    [
                        "document": .string(b.document), "target": .string(b.target), "rule": .string(b.rule),
                        "since": .string(b.since), "runs": .int(b.runs), "days": .double(b.days),
                    ]
                }),
            "hosts": .array(
                hosts.map { ["host": .string($0.host), "brokenNow": .int($0.broken), "breaks": .int($0.breaks)] }),
            "documentsWorse": .array(
                documents.map { ["document": .string($0.document), "first": .int($0.first), "last": .int($0.last)] }
            ),
        ]
        if let t = timeToFix {
            o["timeToFix"] = ["fixed": .int(fixDays.count), "medianDays": .double(t.median), "p90Days": .double(t.p90)]
        }
        return .object(o)
    }

    public var markdown: String {
        var out = "# Link rot\n\n"
        guard let first = runs.first, let last = runs.last else { return out + "No run in the ledger.\n" }
        out +=
            "\(runs.count) run\(runs.count == 1 ? "" : "s") from \(Escape.markdown(first.time)) to \(Escape.markdown(last.time)). "
            + "Broken now: **\(current.count)** (\(last.new) new in the last run, \(last.fixed) fixed)."
        if let t = timeToFix {
            out +=
                " Time to fix: median \(Self.days(t.median)), 90 % within \(Self.days(t.p90)) (\(fixDays.count) fixed)."
        }
        out +=
            "\n\n| run | time | broken | new | fixed | still broken | warnings |\n|---|---|---:|---:|---:|---:|---:|\n"
        for r in runs.suffix(Self.markdownRows) {
            out +=
                "| \(Escape.markdown(r.run)) | \(Escape.markdown(r.time)) | \(r.errors) | \(r.new) | \(r.fixed) | \(r.still) | \(r.warnings) |\n"
        }
        if !current.isEmpty {
            out +=
                "\n## Broken now, the oldest first\n\n| since | runs | days | document | target |\n|---|---:|---:|---|---|\n"
            for b in current.prefix(Self.markdownRows) {
                out +=
                    "| \(Escape.markdown(b.since)) | \(b.runs) | \(Self.number(b.days)) | \(Escape.markdown(b.document)) | \(Escape.markdown(b.target)) |\n"
            }
            if current.count > Self.markdownRows {
                out += "\n\(current.count - Self.markdownRows) more in trend.json.\n"
            }
        }
        if !hosts.isEmpty {
            out += "\n## Hosts that rot most\n\n| host | broken now | times a link broke |\n|---|---:|---:|\n"
            for h in hosts.prefix(Self.markdownRows) {
                out += "| \(Escape.markdown(h.host)) | \(h.broken) | \(h.breaks) |\n"
            }
        }
        if !documents.isEmpty {
            out +=
                "\n## Documents that got worse\n\n| document | broken in the first run | broken now |\n|---|---:|---:|\n"
            for d in documents.prefix(Self.markdownRows) {
                out += "| \(Escape.markdown(d.document)) | \(d.first) | \(d.last) |\n"
            }
        }
        return out
    }

    static func number(_ d: Double) -> String {
        d == d.rounded() ? String(Int(d)) : String(format: "%.1f", d)
    }

    static func days(_ d: Double) -> String { "\(number(d)) day\(d == 1 ? "" : "s")" }
}
