import Foundation
import SystemIO
import XCTest

/// (#22, 3) The one read/write loop: through a pipe, whose writes come back short once its buffer
/// (64 KB) is full, 4 MB arrive whole and in order; a positioned read past the end is refused.
final class SystemIOTests: XCTestCase {
    func testShortWritesThroughAPipeAreCompleted() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let bytes = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 12) }
        let (input, output) = (fds[1], fds[0])
        let writer = Thread {
            XCTAssertTrue(SystemIO.writeAll(input, bytes))
            close(input)
        }
        writer.start()
        let read = SystemIO.readAll(output)
        close(output)
        XCTAssertEqual(read.count, bytes.count)
        XCTAssertTrue(read == bytes)
    }

    func testPositionedReadsAndWrites() throws {
        let path = NSTemporaryDirectory() + "systemio-\(UUID().uuidString)"
        defer { unlink(path) }
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertTrue(SystemIO.writeAll(fd, Array("hello, world".utf8), at: 0))
        XCTAssertTrue(SystemIO.writeAll(fd, Array("W".utf8), at: 7))
        XCTAssertEqual(SystemIO.read(fd, count: 5, at: 7).map { String(decoding: $0, as: UTF8.self) }, "World")
        XCTAssertNil(SystemIO.read(fd, count: 5, at: 10), "the file ends before")
        XCTAssertFalse(SystemIO.writeAll(-1, [1]))
        XCTAssertEqual(SystemIO.errnoText(EBADF), "Bad file descriptor")
    }
}
