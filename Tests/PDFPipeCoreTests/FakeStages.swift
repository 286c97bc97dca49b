import Foundation
import PDFPipeCore

/// Stages without any PDF library, to test the loader and the runner. Their options are declared
/// as specs by hand (the loader's lower level, `StageDescriptor(id:…options:make:)`), to reach every
/// kind of option without a stage of pdfpipe's.
struct NoteStage: Stage {
    static let descriptor = StageDescriptor(
        id: "note", summary: "reports one finding per document",
        options: [
            OptionSpec("width", .integer(min: 1, max: 10_000), default: 200, "a width"),
            OptionSpec("mode", .choice(["fast", "slow"]), default: "fast", "a mode"),
            OptionSpec("pages", .pages, default: "all", "pages"),
            OptionSpec("ratio", .number(min: 0, max: 1), default: 0.5, "a ratio"),
            OptionSpec(
                "external",
                .object([
                    OptionSpec("enabled", .bool, default: false, "on or off"),
                    OptionSpec("timeoutSeconds", .number(min: 0.1, max: 600), default: 20, "seconds"),
                ]), default: nil, "nested"),
        ],
        make: { options in NoteStage(width: options.int("width")) })

    var width: Int

    init(width: Int) { self.width = width }
    init(_ options: NoOptions) { self.init(width: 200) }

    func run(_ job: inout Job) throws {
        job.pageCount = job.relativePath.count
        job.pageLabels = (1...job.relativePath.count).map { "p\($0)" }
        job.report(Finding(rule: .pdfEncrypted, page: 2, message: "width \(width) on '\(job.relativePath)'"))
        // Vary the work so that documents finish out of order.
        if job.relativePath.hasPrefix("slow") { usleep(20_000) }
    }
}

struct FailingStage: Stage {
    struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
    static let descriptor = StageDescriptor(
        id: "fail", summary: "fails on documents whose name contains 'bad'",
        options: [OptionSpec("fatal", .bool, default: false, "throw DocumentFailure instead")],
        make: { options in FailingStage(fatal: options.bool("fatal")) })

    var fatal: Bool

    init(fatal: Bool) { self.fatal = fatal }
    init(_ options: NoOptions) { self.init(fatal: false) }

    func run(_ job: inout Job) throws {
        guard job.relativePath.contains("bad") else { return }
        if fatal { throw DocumentFailure(rule: .pdfUnreadable, message: "cannot open") }
        throw Boom()
    }
}

/// Appends a byte to documents whose name contains 'growing' while it reads them: a file that
/// changes under the run (a build still writing it).
struct GrowingStage: Stage {
    static let descriptor = StageDescriptor(
        id: "grow", summary: "appends to files named 'growing…' while they are read", options: [],
        make: { _ in GrowingStage(NoOptions()) })

    init(_ options: NoOptions) {}

    func run(_ job: inout Job) throws {
        job.report(Finding(rule: .pdfEncrypted, message: "read '\(job.relativePath)'"))
        guard job.relativePath.contains("growing"), let h = FileHandle(forWritingAtPath: job.source) else { return }
        h.seekToEndOfFile()
        h.write(Data([0x0A]))
        try? h.close()
    }
}

let fakeCatalog = [NoteStage.descriptor, FailingStage.descriptor]

/// A stage with a run-wide service (#64): the service counts the documents of its stage instance,
/// says the count as a run finding and a run section, answers a worker's question with it, and in
/// a worker forwards to the parent's.
struct CountingStage: Stage {
    static let descriptor = StageDescriptor(
        CountingStage.self, id: "count", summary: "counts documents in a run-wide service",
        service: { _, label, context in CountingStage.service(context, label) })

    final class Counter: RunService, @unchecked Sendable {
        let count = Locked(0)
        let asked = Locked<(@Sendable (JSONValue) -> JSONValue)?>(nil)
        func shutdown() throws {}
        var needsShutdown: Bool { false }
        func runFindings() -> [Finding] {
            [Finding(rule: .pdfEncrypted, message: "counted \(count.withLock { $0 })")]
        }
        func runSections() -> [String: JSONValue] { ["counted": .int(count.withLock { $0 })] }
        func answer(_ question: JSONValue) -> JSONValue {
            .int(count.withLock { $0 } + (question.intValue ?? 0))
        }
        func forward(to ask: @escaping @Sendable (JSONValue) -> JSONValue) { asked.withLock { $0 = ask } }
    }

    static func service(_ context: RunContext, _ label: String) -> Counter {
        context.service(ServiceKey(stage: label, "counter")) { Counter() }
    }

    init(_ options: NoOptions) {}

    func run(_ job: inout Job) throws {
        Self.service(job.context, job.stage).count.withLock { $0 += 1 }
    }
}
