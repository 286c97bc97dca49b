import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// Issue 29, the unbounded work (9-12): decompression bombs, sparse holes, inputs that are not
/// regular files, and an output folder inside the inputs, through the executable as users run it.
final class TrustCLITests: XCTestCase {
    var dir = ""

    override func setUp() { dir = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Runs pdfpipe (the link audit by default) and returns its exit status, peak RSS, what it
    /// printed and the report. A run still going after `limit` seconds is killed and fails the
    /// test: the regressions here ran for minutes or forever.
    func run(_ args: [String], pipeline: String? = nil, limit: Double = 120) throws -> (
        status: Int32, peakKB: Int, output: String, report: JSONValue
    ) {
        let p = dir + "/p.json"
        try (pipeline ?? #"{"stages": [{"use": "resolve-destinations"}, {"use": "validate-links"}]}"#).write(
            toFile: p, atomically: true, encoding: .utf8)
        let exe = try Repo.executable()
        let log = dir + "/log.txt"
        let argv = ([exe, "run", p] + args + ["--offline"]).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let spawned = argv.withUnsafeBufferPointer { b in
            posix_spawn(&pid, exe, &actions, nil, UnsafeMutablePointer(mutating: b.baseAddress!), environ)
        }
        XCTAssertEqual(spawned, 0)
        let killer = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: killer)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        killer.cancel()
        XCTAssertEqual(status & 0x7f, 0, "pdfpipe was killed after \(limit) s: it did not finish")
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let report = (try? JSONParser.parse(String(contentsOfFile: dir + "/out/report.json", encoding: .utf8))) ?? .null
        return ((status >> 8) & 0xff, usage.ru_maxrss, output, report)
    }

    func document(_ report: JSONValue, _ path: String) -> JSONValue? {
        report["documents"]?.arrayValue?.first { $0["path"]?.stringValue == path }
    }

    func rules(_ d: JSONValue?) -> [String] { d?["findings"]?.arrayValue?.compactMap { $0["rule"]?.stringValue } ?? [] }

    /// A link annotation in an object stream filtered /FlateDecode twice, whose data is the
    /// object followed by `megabytes` MB of spaces: a few KB on disk (made with python3's zlib).
    func writeBomb(_ path: String, megabytes: Int) throws {
        let script = #"""
            import sys, zlib
            path, mb = sys.argv[1], int(sys.argv[2])
            inner = b"4 0 << /Type /Annot /Subtype /Link /Rect [0 0 1 1] /A << /S /Launch /F (x.exe) >> >>"
            c = zlib.compressobj(9)
            once = c.compress(inner)
            chunk = b" " * (1 << 20)
            for _ in range(mb):
                once += c.compress(chunk)
            once += c.flush()
            data = zlib.compress(once, 9)
            objs = {1: b"<< /Type /Catalog /Pages 2 0 R >>", 2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R] >>",
                    5: b"<< /Type /ObjStm /N 1 /First 4 /Filter [/FlateDecode /FlateDecode] /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"}
            out = b"%PDF-1.7\n"; offs = {}
            for n in sorted(objs):
                offs[n] = len(out); out += b"%d 0 obj\n" % n + objs[n] + b"\nendobj\n"
            x = len(out)
            rows = bytes([0, 0, 0, 0, 0])
            for n in range(1, 7):
                if n == 4: rows += bytes([2, 0, 0, 5, 0])
                else:
                    o = x if n == 6 else offs[n]
                    rows += bytes([1, o >> 16 & 255, o >> 8 & 255, o & 255, 0])
            out += b"6 0 obj\n<< /Type /XRef /Size 7 /W [1 3 1] /Root 1 0 R /Length %d >>\nstream\n" % len(rows) + rows
            out += b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % x
            open(path, "wb").write(out)
            """#
        let r = try ExternalTool.run("/usr/bin/python3", ["-c", script, path, String(megabytes)])
        XCTAssertEqual(r.status, 0, r.output)
    }

    /// (9) A few KB that inflate to 1 GB were decoded whole (here 512 MB) (2.1 GB peak RSS, 22 s, no isolation):
    /// now the reader stops at its bound, declines the object stream without handing it to qpdf,
    /// and says so; a stream of a sane ratio is still read.
    func testADecompressionBombIsStoppedAndSaid() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeBomb(dir + "/in/bomb.pdf", megabytes: 512)
        try writeBomb(dir + "/in/fine.pdf", megabytes: 1)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: dir + "/in/bomb.pdf")[.size] as? Int)
        XCTAssertLessThan(size, 8 << 10, "a bomb of \(size) bytes")
        let r = try run([dir + "/in", "--out", dir + "/out", "--jobs", "1"])
        XCTAssertLessThan(r.peakKB, 400 << 10, "peak RSS \(r.peakKB >> 10) MB")
        let bomb = rules(document(r.report, "bomb.pdf"))
        XCTAssertTrue(bomb.contains("pdf.limit-exceeded"), "\(bomb)")
        // pdfpipe's reader did not read the object; poppler, which parses an object stream as it
        // goes, reads the link, and the cross-check says where the two disagree.
        XCTAssertTrue(bomb.contains("pdf.link-count-mismatch"), "\(bomb)")
        let launch = document(r.report, "bomb.pdf")?["findings"]?.arrayValue?.first {
            $0["rule"] == "action.launch-target-missing"
        }
        XCTAssertEqual(launch?["reader"], "poppler")
        let message =
            document(r.report, "bomb.pdf")?["findings"]?.arrayValue?.first {
                $0["rule"] == "pdf.limit-exceeded"
            }?["message"]?.stringValue ?? ""
        XCTAssertTrue(message.contains("inflates past 16 MB"), message)
        XCTAssertTrue(rules(document(r.report, "fine.pdf")).contains("action.launch-target-missing"))
    }

    /// (10) A damaged file followed by a sparse hole ran for minutes (qpdf's and poppler's
    /// recovery read every byte of the hole); now the hole is left out and said.
    func testASparseHoleIsLeftOut() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        let objects = HostilePDFs.onePage(annots: [
            "<< /Type /Annot /Subtype /Link /Rect [10 10 100 30] /Dest (no.such.name) >>"
        ])
        let path = dir + "/in/holey.pdf"
        try Data(HostilePDFs.classic(objects, shift: 3)).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(truncate(path, 4 << 30), 0)
        var st = stat()
        stat(path, &st)
        try XCTSkipIf(Int(st.st_blocks) * 512 > 1 << 20, "this file system does not keep the hole sparse")
        let r = try run([dir + "/in", "--out", dir + "/out"], limit: 60)
        let d = document(r.report, "holey.pdf")
        XCTAssertTrue(rules(d).contains("dest.name-not-found"), "\(rules(d))")
        XCTAssertTrue(
            d?["findings"]?.arrayValue?.contains { $0["message"]?.stringValue?.contains("4 GiB never written") == true }
                == true, "\(d ?? .null)")
    }

    /// (11) A FIFO, a character device or a link to /dev/zero named as an input was opened and
    /// read forever. Each is refused at once with a finding of its own; the rest of the batch runs.
    func testInputsThatAreNotRegularFilesAreRefused() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Samples.path("links-internal.pdf"), toPath: dir + "/in/good.pdf")
        XCTAssertEqual(mkfifo(dir + "/in/fifo.pdf", 0o644), 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/in/zero.pdf", withDestinationPath: "/dev/zero")
        let r = try run(
            [dir + "/in/fifo.pdf", dir + "/in/zero.pdf", "/dev/null", dir + "/in/good.pdf", "--out", dir + "/out"],
            limit: 60)
        XCTAssertEqual(r.report["documents"]?.arrayValue?.count, 4, r.output)
        for (name, kind) in [
            ("in/fifo.pdf", "a FIFO"), ("in/zero.pdf", "a character device"), ("null", "a character device"),
        ] {
            let d = r.report["documents"]?.arrayValue?.first { $0["path"]?.stringValue?.hasSuffix(name) == true }
            XCTAssertEqual(d?["status"], "failed", name)
            let message = d?["findings"]?[0]?["message"]?.stringValue ?? ""
            XCTAssertTrue(
                message.contains("is \(kind)") && message.contains("not a regular file"), "\(name): \(message)")
        }
        let good = r.report["documents"]?.arrayValue?.first { $0["path"]?.stringValue?.hasSuffix("good.pdf") == true }
        XCTAssertEqual(good?["status"], "ok")
    }

    /// (12) With --out inside an input folder, each run audited the previous run's outputs (its
    /// review copies) too: 2, then 4, then 6 documents. The output folder is never an input.
    func testTheOutputFolderIsNeverAnInput() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Samples.path("links-internal.pdf"), toPath: dir + "/in/a.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("broken-links.pdf"), toPath: dir + "/in/b.pdf")
        let pipeline =
            #"{"stages": [{"use": "validate-links"}, {"use": "review-copy"}], "output": "out"}"#
        var counts: [Int] = []
        for _ in 0..<3 {
            let r = try run([dir + "/in", "--out", dir + "/in/out"], pipeline: pipeline)
            let report = try JSONParser.parse(String(contentsOfFile: dir + "/in/out/report.json", encoding: .utf8))
            counts.append(report["documents"]?.arrayValue?.count ?? -1)
            if counts.count > 1 { XCTAssertTrue(r.output.contains("in the output folder"), r.output) }
        }
        XCTAssertEqual(counts, [2, 2, 2])
        XCTAssertFalse(
            (try FileManager.default.subpathsOfDirectory(atPath: dir + "/in/out")).filter { $0.hasSuffix(".pdf") }
                .isEmpty, "the review copies are there, and were not inputs")
    }
}
