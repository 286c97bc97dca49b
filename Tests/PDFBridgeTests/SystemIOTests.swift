import Foundation
import SystemIO
import XCTest

/// (#22, 3; #33, 4) The one read/write loop, on the one descriptor type: through a pipe, whose
/// writes come back short once its buffer (64 KB) is full, 4 MB arrive whole and in order; a
/// positioned read past the end is refused; failures are thrown as `Errno`.
final class SystemIOTests: XCTestCase {
    /// Issue 44: a mapped file truncated while it is read faulted (SIGBUS, the whole batch lost).
    /// Now the pages past the new end read as zeros and the mapping says so.
    func testAMappedFileTruncatedUnderItsReaderReadsZerosAndSaysSo() throws {
        let path = NSTemporaryDirectory() + "/pdfpipe-truncated-\(UUID().uuidString).bin"
        defer { unlink(path) }
        let size = 1 << 20
        try Data(repeating: 0x41, count: size).write(to: URL(fileURLWithPath: path))
        let file = try MappedFile(path: path)
        XCTAssertEqual(file[size - 1], 0x41)
        XCTAssertFalse(file.truncatedWhileRead)
        XCTAssertEqual(truncate(path, 4096), 0)
        XCTAssertEqual(file[100], 0x41, "what is still in the file reads as before")
        XCTAssertEqual(file[size - 1], 0, "past the new end: zeros, not a fault")
        XCTAssertEqual(file[200_000], 0)
        XCTAssertTrue(file.truncatedWhileRead)
        // Another mapping of another file is not affected.
        let other = try MappedFile(path: path)
        XCTAssertEqual(other.count, 4096)
        XCTAssertFalse(other.truncatedWhileRead)
    }

    func testShortWritesThroughAPipeAreCompleted() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let bytes = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 12) }
        let (input, output) = (FileDescriptor(rawValue: fds[1]), FileDescriptor(rawValue: fds[0]))
        let writer = Thread {
            do {
                try input.writeAll(bytes)
            } catch {
                XCTFail("\(error)")
            }
            try? input.close()
        }
        writer.start()
        let read = try output.readAll()
        try output.close()
        XCTAssertEqual(read.count, bytes.count)
        XCTAssertTrue(read == bytes)
    }

    func testPositionedReadsAndWrites() throws {
        let path = NSTemporaryDirectory() + "systemio-\(UUID().uuidString)"
        defer { unlink(path) }
        let fd = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_EXCL, permissions: 0o600)
        defer { try? fd.close() }
        try fd.writeAll(Array("hello, world".utf8), at: 0)
        try fd.writeAll(Array("W".utf8), at: 7)
        XCTAssertEqual(try fd.read(count: 5, at: 7).map { String(decoding: $0, as: UTF8.self) }, "World")
        XCTAssertNil(try fd.read(count: 5, at: 10), "the file ends before")
        XCTAssertThrowsError(try FileDescriptor(rawValue: -1).writeAll([1])) { error in
            XCTAssertEqual(error as? Errno, Errno(rawValue: EBADF))
            XCTAssertEqual("\(error)", "Bad file descriptor")
        }
        XCTAssertThrowsError(try FileDescriptor.open(path + "-missing", O_RDONLY)) { error in
            XCTAssertEqual(error as? Errno, .noSuchFile)
        }
    }
}

/// (#33, 4) The one way pdfpipe starts a program.
final class ChildProcessTests: XCTestCase {
    func testInputOutputAndHowItEnded() throws {
        let cat = try ChildProcess(executable: "/bin/cat", arguments: [])
        try XCTUnwrap(cat.input).writeAll(Array("round trip\n".utf8))
        cat.closeInput()
        XCTAssertNil(cat.input, "closed")
        XCTAssertEqual(String(decoding: try cat.output.readAll(), as: UTF8.self), "round trip\n")
        XCTAssertEqual(cat.wait(), .exited(0))
        XCTAssertEqual(try ChildProcess(executable: "/bin/sh", arguments: ["-c", "exit 3"]).wait(), .exited(3))
        XCTAssertEqual(
            try ChildProcess(executable: "/bin/sh", arguments: ["-c", "kill -9 $$"]).wait(), .signaled(SIGKILL))
        XCTAssertThrowsError(try ChildProcess(executable: "/nonexistent/program", arguments: []))
    }

    /// A descriptor this process holds without close-on-exec (as a library's, or another thread's
    /// at that moment) does not reach the child: only its standard three (and what `ls` opens).
    func testNoOtherDescriptorLeaksIntoTheChild() throws {
        let leaky = open("/dev/null", O_RDONLY)  // no O_CLOEXEC
        defer { close(leaky) }
        XCTAssertGreaterThan(leaky, 2)
        let ls = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "ls /proc/$$/fd"])
        ls.closeInput()
        let fds = String(decoding: try ls.output.readAll(), as: UTF8.self).split(separator: "\n").compactMap {
            Int32($0)
        }
        ls.wait()
        XCTAssertFalse(fds.contains(leaky), "\(fds)")
        XCTAssertTrue(fds.allSatisfy { $0 <= 3 }, "\(fds)")
    }

    /// Standard error to a file the caller holds, or into the output pipe.
    func testErrorOutput() throws {
        let both = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "echo out; echo err >&2"], errorOutput: .output)
        both.closeInput()
        XCTAssertEqual(String(decoding: try both.output.readAll(), as: UTF8.self), "out\nerr\n")
        both.wait()
    }
}
