import Foundation

/// The repository's samples/ folder, for every test target.
public enum Samples {
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples").path

    public static func path(_ name: String) -> String { folder + "/" + name }

    /// Every sample PDF, sorted.
    public static var all: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".pdf") }.sorted()
    }

    /// Samples both libraries can open without a password.
    public static var readable: [String] {
        all.filter { !["garbage.pdf", "empty.pdf", "encrypted-user.pdf"].contains($0) }
    }
}

/// Small PDFs written in a test from object texts (object N is objects[N-1]; the catalog is 1 0 R),
/// with a classic cross-reference table.
public enum TestPDF {
    /// `trailer`: more trailer entries (` /Info 9 0 R`).
    public static func write(_ path: String, objects: [String], trailer: String = "") throws {
        var out = "%PDF-1.7\n"
        var offsets: [Int] = []
        for (i, o) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(o)\nendobj\n"
        }
        let xref = out.utf8.count
        out +=
            "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
            + offsets.map { String(format: "%010d 00000 n \n", $0) }.joined()
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R\(trailer) >>\nstartxref\n\(xref)\n%%EOF\n"
        try out.write(toFile: path, atomically: true, encoding: .ascii)
    }

    /// A one-page PDF (its folders made) whose links point at the named destinations `names`,
    /// which it does not define: one `dest.name-not-found` each; none for no names.
    public static func withBrokenNames(_ path: String, _ names: [String]) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let annots = (0..<names.count).map { "\($0 + 4) 0 R" }.joined(separator: " ")
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"]
        objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [\(annots)] >>")
        for (i, name) in names.enumerated() {
            objects.append("<< /Type /Annot /Subtype /Link /Rect [0 \(i * 20) 100 \(i * 20 + 15)] /Dest (\(name)) >>")
        }
        try write(path, objects: objects)
    }
}

/// A loopback server that did not start.
public struct ServerFailure: Error, CustomStringConvertible {
    public var description: String
}

/// A program the tests use as a second opinion (pdftotext, qpdf, xmllint, …), run to its end.
public enum ExternalTool {
    /// What a started server prints first (its port, its address), up to its first newline.
    public static func firstLine(of pipe: Pipe) -> String {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Starts one of the project's loopback servers (`python3 SCRIPT ARGS…`, which prints its port
    /// first) and returns it with its port; the caller terminates it.
    public static func startServer(_ script: String, _ arguments: [String] = []) throws -> (Process, Int) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [script] + arguments
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        guard let port = Int(firstLine(of: out).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            p.terminate()
            throw ServerFailure(description: "\(script) printed no port")
        }
        return (p, port)
    }

    /// The exit status and what the program wrote (standard output, and standard error if `mergingErrors`),
    /// with `environment` added to this process's.
    public static func run(
        _ executable: String, _ arguments: [String], mergingErrors: Bool = true, environment: [String: String] = [:]
    ) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = mergingErrors ? pipe : FileHandle.nullDevice
        try p.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text)
    }
}

/// Threads that keep the cores busy while a concurrency test runs: races hide on idle machines.
public final class CoreLoad: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var threads: [Thread] = []

    /// Starts one spinning thread per processor (at least two).
    public init(threads count: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)) {
        for _ in 0..<count {
            let t = Thread { [self] in
                var x: UInt64 = 1
                while isRunning {
                    for _ in 0..<100_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 }
                }
                if x == 0 { print("") }  // keeps the loop from being optimised away
            }
            threads.append(t)
            t.start()
        }
    }

    private var isRunning: Bool { lock.withLock { running } }

    /// Stops the threads and waits until they have ended.
    public func stop() {
        lock.withLock { running = false }
        while threads.contains(where: { $0.isExecuting }) { usleep(1000) }
    }
}
