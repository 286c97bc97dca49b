import Foundation
import PDFPipeCore
import PDFReader
import SystemIO

/// `fix-links`' options (`with`).
public struct FixLinksOptions: OptionGroup {
    @Option("folder in the output folder for the repaired copies") public var folder = "fixed"

    public init() {}
}

/// `fix-links`: for each document whose link findings carry an unambiguous fix (`LinkFix`: where a
/// link's permanent redirects lead within its site, the URI a misspelt scheme means, the one name
/// or file that differs only in case), a repaired copy in
/// `fixed/`, written as an incremental update — the original's bytes untouched as the copy's
/// prefix (a signature over them stays valid), then new versions of only the link annotations and
/// actions that change. The `fixes` section lists each change (old → new, why) and each broken
/// link left as it is, with the reason. A checker may decline, never guess: a finding without a
/// fix is listed, not touched.
public struct FixLinksStage: Stage {
    public static let descriptor = StageDescriptor(
        FixLinksStage.self, id: "fix-links",
        summary:
            "write fixed/<document>.pdf: the links with an unambiguous fix rewritten, as an incremental update of the original"
    )

    let folder: String

    public init(_ o: FixLinksOptions) throws(PipelineError) {
        folder = try OutputNames.folder(o.folder)
    }

    /// Findings of these severities without a fix are listed as not fixed (notes are not broken).
    static let brokenLinkSeverities: Set<Severity> = [.error, .warning]

    /// Leaves the work until the document's earlier deferred work (validate-links' web checks) is
    /// done, without holding a worker: the document stays parked while its URLs are checked, and
    /// the fixes are made when its findings are complete (deferred work finishes in order).
    /// Reading the findings at once (`readsEarlierFindings`) made every worker wait on the network:
    /// 200 documents took 201 s instead of 3.
    public func run(_ job: inout Job) throws {
        let stage = self
        job.defer(
            DeferredWork(
                whenReady: { ready in ready() },
                finish: { job in
                    do {
                        try stage.fix(&job)
                    } catch {
                        job.report(Finding(rule: .stageFailed, message: "\(error)"))
                    }
                }))
    }

    /// The fixes of the document's findings, written (see the type).
    func fix(_ job: inout Job) throws {
        let relative = OutputNames.file(for: job, folder: folder, extension: "pdf")
        // The findings name objects of the file validate-links read: the original's only when no
        // earlier stage made a copy (normalize renumbers objects).
        let section = try Self.repair(
            job.source, findings: job.effectiveFindings, output: job.outputDirectory + "/" + relative,
            relative: relative,
            declined: job.workingFile == job.source
                ? nil : "the findings name objects of the normalized copy, not of the original")
        guard let section else { return }
        if let file = section.file { job.artifacts.append(Artifact(kind: "fixed-copy", path: file)) }
        job.setSection(section)
    }

    /// The fixes `findings` carry applied to the document at `source`, as written: the repaired
    /// copy written to `output` (named `relative` in the section) when a fix applies; nil when the
    /// findings have nothing to fix or leave. `declined`: why no copy can be made at all. Used by
    /// the stage and by `pdfpipe fix REPORT` (the findings of a report).
    package static func repair(
        _ source: String, findings all: [Finding], output: String, relative: String, declined: String? = nil
    ) throws -> FixesSection? {
        // Findings about one link's target (they name it: `target` or `uri`).
        let findings = all.filter {
            $0.details["fix"] != nil || $0.details["target"] != nil || $0.details["uri"] != nil
        }
        let fixable = findings.flatMap(Self.fixes)
        var unfixed = findings.filter {
            LinkFix($0) == nil && $0.details["fixes"] == nil
                && (brokenLinkSeverities.contains($0.severity) || $0.details["fixDeclined"] != nil)
        }.map {
            FixesSection.Unfixed(
                page: $0.page, object: $0.object, rule: $0.rule,
                reason: $0.details["fixDeclined"]?.stringValue ?? "no unambiguous fix is known for \($0.rule)")
        }
        guard !fixable.isEmpty else {
            return unfixed.isEmpty ? nil : FixesSection(file: nil, changed: [], unfixed: unfixed)
        }
        func leave(_ why: String, _ these: [(page: Int?, object: String?, rule: String)]) -> FixesSection {
            FixesSection(
                file: nil, changed: [],
                unfixed: unfixed + these.map { .init(page: $0.page, object: $0.object, rule: $0.rule, reason: why) })
        }
        let reader: PDFReader
        switch declined.map({ .failure(Decline(description: $0)) }) ?? Self.reader(source) {
        case .success(let r): reader = r
        case .failure(let why): return leave(why.description, fixable.map { ($0.0.page, $0.0.object, $0.0.rule) })
        }
        let edits = Self.edits(fixable, reader: reader)
        unfixed += edits.unfixed
        guard !edits.changed.isEmpty else { return FixesSection(file: nil, changed: [], unfixed: unfixed) }
        let tail: [UInt8]
        var changed = edits.changed
        do {
            tail = try IncrementalUpdate.tail(for: reader, replacing: edits.objects)
            try Self.addUpdates(edits.alone, to: &changed, reader: reader)
        } catch {
            return leave(error.description, edits.changed.map { ($0.page, $0.object, $0.rule) })
        }
        try Self.write(reader, then: tail, to: output)
        return FixesSection(file: relative, size: reader.byteCount, changed: changed, unfixed: unfixed)
    }

    /// The fixes a finding carries: its `fix`, or each of a grouped finding's `fixes` (the link's
    /// object and page in the entry).
    static func fixes(_ f: Finding) -> [(Finding, LinkFix)] {
        if let fix = LinkFix(f) { return [(f, fix)] }
        return (f.details["fixes"]?.arrayValue ?? []).compactMap { entry in
            guard let fix = LinkFix(json: entry) else { return nil }
            var one = f
            one.object = entry["object"]?.stringValue
            one.page = entry["page"]?.intValue
            return (one, fix)
        }
    }

    /// A folder name for the copies, checked as the stage's option is.
    package static func outputFolder(_ name: String) throws(PipelineError) -> String { try OutputNames.folder(name) }

    /// A document's report path as a name in the copies' folder (no `..`, no extension).
    package static func outputStem(_ path: String) -> String {
        let p = String(Paths.standardize("/" + path).dropFirst())
        return p.lowercased().hasSuffix(".pdf") ? String(p.dropLast(4)) : p
    }

    /// Each change alone, for SARIF's fixes: an update of its own objects over the original.
    static func addUpdates(
        _ alone: [[(ObjectRef, PDFValue)]], to changed: inout [FixesSection.Change], reader: PDFReader
    ) throws(IncrementalUpdate.Refusal) {
        for (i, objects) in alone.enumerated() {
            changed[i].update = Data(try IncrementalUpdate.tail(for: reader, replacing: objects)).base64EncodedString()
        }
    }

    /// The original's bytes and the update after them, written atomically to `path`.
    static func write(_ reader: PDFReader, then tail: [UInt8], to path: String) throws {
        do throws(AtomicFile.WriteError) {
            let w = try AtomicFile.Writer(path: path)
            w.binary = true
            reader.withBytes { w.write($0) }
            w.write(tail)
            try w.commit()
        } catch {
            throw DocumentFailure(rule: .stageFailed, message: "cannot write the repaired copy: \(error.reason)")
        }
    }

    /// The original, read as written; or why no update is made over it.
    static func reader(_ source: String) -> Result<PDFReader, Decline> {
        do {
            let reader = try PDFReader(path: source)
            guard reader.declines.isEmpty, reader.repairs.isEmpty else {
                return .failure(
                    Decline(description: "parts of the file are damaged; an update over it would keep what is wrong"))
            }
            return .success(reader)
        } catch {
            return .failure(
                Decline(
                    description:
                        "the file is not read as written (\(error.description)); an update over it would keep what is wrong"
                ))
        }
    }

    /// The objects' new versions (each object's fixes applied in turn, in the order first
    /// changed), what changed, the objects of each change made alone over the original, and the
    /// fixes that did not apply.
    static func edits(_ fixable: [(Finding, LinkFix)], reader: PDFReader) -> (
        objects: [(ObjectRef, PDFValue)], changed: [FixesSection.Change], alone: [[(ObjectRef, PDFValue)]],
        unfixed: [FixesSection.Unfixed]
    ) {
        var edited: [ObjectRef: PDFValue] = [:]
        var order: [ObjectRef] = []
        var changed: [FixesSection.Change] = []
        var alone: [[(ObjectRef, PDFValue)]] = []
        var unfixed: [FixesSection.Unfixed] = []
        func set(_ ref: ObjectRef, _ value: PDFValue) {
            if edited[ref] == nil { order.append(ref) }
            edited[ref] = value
        }
        for (finding, fix) in fixable {
            guard let ref = finding.object.flatMap(Self.objectRef) else {
                unfixed.append(
                    .init(
                        page: finding.page, object: finding.object, rule: finding.rule,
                        reason: "the finding names no object"))
                continue
            }
            switch Self.apply(fix, to: edited[ref] ?? reader.resolve(ref), reader: reader) {
            case .success(let (value, action)):
                set(ref, value)
                if let (actionRef, actionValue) = action { set(actionRef, actionValue) }
                // The same fix over the original objects (equal to the above unless an earlier
                // fix changed this object too).
                if case .success(let (v, a)) = Self.apply(fix, to: reader.resolve(ref), reader: reader) {
                    alone.append([(ref, v)] + (a.map { [$0] } ?? []))
                } else {
                    alone.append([(ref, value)] + (action.map { [$0] } ?? []))
                }
                changed.append(
                    .init(
                        page: finding.page, object: ref.description, rule: finding.rule, field: fix.field.rawValue,
                        from: fix.from, to: fix.to, why: fix.why))
            case .failure(let why):
                unfixed.append(
                    .init(page: finding.page, object: finding.object, rule: finding.rule, reason: why.description))
            }
        }
        return (order.map { ($0, edited[$0]!) }, changed, alone, unfixed)
    }

    /// The object's action (`/A`), and its own object when it is one.
    static func action(of d: PDFDictionary, reader: PDFReader) -> (ObjectRef?, PDFDictionary?) {
        switch d["A"] {
        case .dictionary(let a)?: return (nil, a)
        case .ref(let r)?:
            if case .dictionary(let a) = reader.resolve(r) { return (r, a) }
            return (r, nil)
        default: return (nil, nil)
        }
    }

    /// `12 0 R` as a reference.
    static func objectRef(_ s: String) -> ObjectRef? {
        let parts = s.split(separator: " ")
        guard parts.count == 3, parts[2] == "R", let n = Int(parts[0]), let g = Int(parts[1]), n > 0, g >= 0 else {
            return nil
        }
        return ObjectRef(n, g)
    }

    struct Decline: Error, CustomStringConvertible {
        var description: String
    }

    /// `object` (a link annotation or an outline item) with `fix` applied; and, when the value to
    /// change is in an action of its own (`/A 14 0 R`), that action's new version. Declines when
    /// the object does not say what the finding read (`fix.from`).
    static func apply(_ fix: LinkFix, to object: PDFValue, reader: PDFReader) -> Result<
        (PDFValue, (ObjectRef, PDFValue)?), Decline
    > {
        guard case .dictionary(var d) = object else {
            return .failure(Decline(description: "the object is not a dictionary"))
        }
        let (actionRef, action) = Self.action(of: d, reader: reader)
        func matches(_ v: PDFValue?) -> Bool {
            switch v {
            case .string(let b)?:
                return fix.fromBytes.map { $0 == b } ?? (String(decoding: b, as: UTF8.self) == fix.from)
            case .name(let n)?: return fix.fromBytes == nil && n == fix.from
            default: return false
            }
        }
        func replaced(_ v: PDFValue?) -> PDFValue {
            if fix.toName { return .name(fix.to) }
            if let b = fix.toBytes { return .string(b) }
            if case .name? = v { return .name(fix.to) }
            return .string(Array(fix.to.utf8))
        }
        func withAction(_ a: PDFDictionary) -> (PDFValue, (ObjectRef, PDFValue)?) {
            if let actionRef { return (.dictionary(d), (actionRef, .dictionary(a))) }
            d["A"] = .dictionary(a)
            return (.dictionary(d), nil)
        }
        switch fix.field {
        case .uri:
            guard var a = action, a["S"] == PDFValue.name("URI"), matches(a["URI"]) else {
                return .failure(Decline(description: "the link's URI action does not say '\(fix.from)'"))
            }
            a["URI"] = replaced(a["URI"])
            return .success(withAction(a))
        case .dest:
            if matches(d["Dest"]) {
                d["Dest"] = replaced(d["Dest"])
                return .success((.dictionary(d), nil))
            }
            guard var a = action, a["S"] == PDFValue.name("GoTo"), matches(a["D"]) else {
                return .failure(Decline(description: "the link's destination is not the name '\(fix.from)'"))
            }
            a["D"] = replaced(a["D"])
            return .success(withAction(a))
        case .file:
            guard var a = action else { return .failure(Decline(description: "the link has no action")) }
            if matches(a["F"]) {
                a["F"] = replaced(a["F"])
                return .success(withAction(a))
            }
            // A file specification: its /F and /UF (the Unicode name viewers prefer) both.
            guard case .dictionary(var spec)? = a["F"], matches(spec["UF"]) || matches(spec["F"]) else {
                return .failure(Decline(description: "the action's file is not '\(fix.from)'"))
            }
            if spec["F"] != nil { spec["F"] = .string(Array(fix.to.utf8)) }
            // /UF is a text string: UTF-16BE with its byte-order mark past ASCII.
            if spec["UF"] != nil {
                spec["UF"] = .string(
                    fix.to.utf8.allSatisfy { $0 < 0x80 }
                        ? Array(fix.to.utf8)
                        : [0xFE, 0xFF] + fix.to.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
            }
            a["F"] = .dictionary(spec)
            return .success(withAction(a))
        }
    }
}
