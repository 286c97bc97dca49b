internal import CPoppler
import Foundation
import SystemIO

/// Checksums through GLib's `GChecksum` (linked already through poppler-glib): no hand-written
/// hash in the project. `GChecksum` objects are freed before each function returns.
package enum Checksum {
    /// The MD5 of `bytes`, as lowercase hex (embedded files declare their checksum as MD5).
    package static func md5(_ bytes: [UInt8]) -> String {
        let c = g_checksum_new(G_CHECKSUM_MD5)!
        defer { g_checksum_free(c) }
        bytes.withUnsafeBufferPointer { g_checksum_update(c, $0.baseAddress, gssize($0.count)) }
        return String(cString: g_checksum_get_string(c))
    }

    /// The MD5 of a file's content, read in 1 MB pieces (never the whole file in memory); nil when
    /// it is not a regular file or cannot be read.
    package static func fileMD5(_ path: String) -> String? {
        guard let (fd, _) = try? MappedFile.openRegular(path) else { return nil }
        defer { try? fd.close() }
        let c = g_checksum_new(G_CHECKSUM_MD5)!
        defer { g_checksum_free(c) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            guard let n = buffer.withUnsafeMutableBytes({ try? fd.read(into: $0) }) else { return nil }
            if n == 0 { break }
            buffer.withUnsafeBufferPointer { g_checksum_update(c, $0.baseAddress, gssize(n)) }
        }
        return String(cString: g_checksum_get_string(c))
    }
}

extension Checksum {
    /// HMAC-SHA256 of `data` under `key` (GLib's `g_compute_hmac_for_data`), as lowercase hex.
    package static func hmacSHA256(key: [UInt8], _ data: [UInt8]) -> String {
        let hex = key.withUnsafeBufferPointer { k in
            data.withUnsafeBufferPointer { d in
                g_compute_hmac_for_data(G_CHECKSUM_SHA256, k.baseAddress, gsize(k.count), d.baseAddress, gsize(d.count))
            }
        }
        guard let hex else { return "" }
        defer { g_free(hex) }
        return String(cString: hex)
    }
}
