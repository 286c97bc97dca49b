import Foundation
import PDFBridge
import PDFPipeCore
import TestSupport
import XCTest

/// What the job-engine tests (Kubernetes, AWS Batch) share: a container's command run here as the
/// engine runs it in the image (the entrypoint `pdfpipe`, the container's folders mapped to
/// scratch folders, only the variables the engine sets), and the check that the merged shards are
/// the one-machine run.
enum JobEngine {
    /// The image's volumes as scratch folders: `/data` holds the pipelines and the PDFs (as `pdf`),
    /// `/results` the shards. Returns the mapping from container paths to them.
    static func volumes(in dir: String) throws -> [(container: String, here: String)] {
        let data = dir + "/data"
        let results = dir + "/results"
        for d in [data, results, dir + "/workspace"] {
            try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: Repo.root + "/pipelines", toPath: data + "/pipelines")
        try FileManager.default.copyItem(atPath: Repo.root + "/samples", toPath: data + "/pdf")
        return [("/results", results), ("/github/workspace", dir + "/workspace"), ("/data", data)]
    }

    /// `pdfpipe args` in `workingDir`, with no environment but `environment` (and PATH), container
    /// paths mapped by `volumes`; its exit status.
    static func run(
        _ args: [String], workingDir: String, environment: [String: String],
        volumes: [(container: String, here: String)]
    ) throws -> Int32 {
        func mapped(_ s: String) -> String {
            for (c, h) in volumes where s == c || s.hasPrefix(c + "/") { return h + s.dropFirst(c.count) }
            return s
        }
        var env = environment
        env["PATH"] = ProcessInfo.processInfo.environment["PATH"]
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Repo.executable())
        p.arguments = args.map(mapped)
        p.currentDirectoryURL = URL(fileURLWithPath: mapped(workingDir))
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// The object-storage variant's end: every sample has one result object, and the merge
    /// `command` (the container's) gates as the pipeline says and writes a complete merged report
    /// into the store (`results/merged/report.json` of the bucket `pdfpipe-data`).
    static func assertStoreMerge(
        _ command: [String], client: S3Client, store: [String: String], file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let samples = try ObjectStorageTests.samples().count
        XCTAssertEqual(
            try client.list(bucket: "pdfpipe-data", prefix: "results/results/").count, samples, "each result once",
            file: file, line: line)
        let gate = try ExternalTool.run(try Repo.executable(), command, environment: store)
        // The samples' errors, at the pipeline's failOn.
        XCTAssertEqual(gate.status, 1, gate.output, file: file, line: line)
        let report = try XCTUnwrap(
            try client.get(bucket: "pdfpipe-data", key: "results/merged/report.json"), file: file, line: line)
        let merged = try JSONParser.parse(String(decoding: report, as: UTF8.self))
        XCTAssertEqual(merged["documents"]?.arrayValue?.count, samples, file: file, line: line)
        XCTAssertNil(merged["incomplete"], file: file, line: line)
    }

    /// The merged report at `merged` is the one a single run of the link audit over `data/pdf`
    /// writes (documents, findings, summary), and the merge exits as that run does (`gate`).
    static func assertOneMachineRun(
        merged: String, gate: Int32, data: String, scratch dir: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let single = try ExternalTool.run(
            "/bin/bash",
            [
                "-c",
                "cd '\(data)' && '\(try Repo.executable())' run pipelines/link-audit.json pdf --offline --quiet --out '\(dir)/single'; echo exit=$?",
            ])
        XCTAssertTrue(
            single.output.hasSuffix("exit=\(gate)\n"),
            "the merge fails as the one-machine run: \(gate), \(single.output)",
            file: file, line: line)
        let m = try Repo.stableReport(merged)
        let whole = try Repo.stableReport(dir + "/single/report.json")
        XCTAssertEqual(m["summary"], whole["summary"], file: file, line: line)
        func documents(_ r: JSONValue) -> [String]? {
            r["documents"]?.arrayValue?.map { "\($0["path"] ?? .null) \($0["findings"]?.arrayValue?.count ?? -1)" }
        }
        XCTAssertEqual(documents(m), documents(whole), file: file, line: line)
        XCTAssertGreaterThan(documents(whole)?.count ?? 0, 1, file: file, line: line)
    }
}
