internal import CPoppler
internal import CZlib

extension CairoImage {
    /// The image as PNG bytes: 8-bit RGB (or RGBA with `alpha`), each row filtered with "Up" and
    /// compressed at `level` (0–9). cairo's own writer always uses libpng's default level, which costs
    /// about as much as rendering a thumbnail; level 1 is several times faster for little size.
    /// Throws when zlib cannot compress (out of memory).
    package func pngData(level: Int, alpha: Bool) throws(BridgeError) -> [UInt8] {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        let channels = alpha ? 4 : 3
        let rowBytes = width * channels
        var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var row = [UInt8](repeating: 0, count: rowBytes)
        // Unchecked buffers: this loop touches every pixel of every thumbnail.
        raw.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let src = UnsafeRawPointer(data + y * stride)
                row.withUnsafeMutableBufferPointer { row in
                    for x in 0..<width {
                        let v = src.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                        var a = UInt32(v >> 24)
                        var r = (v >> 16) & 0xFF
                        var g = (v >> 8) & 0xFF
                        var b = v & 0xFF
                        if alpha && a != 255 && a != 0 {
                            // cairo stores premultiplied alpha; PNG wants it straight.
                            r = r * 255 / a
                            g = g * 255 / a
                            b = b * 255 / a
                        } else if !alpha {
                            a = 255
                        }
                        let o = x &* channels
                        row[o] = UInt8(truncatingIfNeeded: r)
                        row[o &+ 1] = UInt8(truncatingIfNeeded: g)
                        row[o &+ 2] = UInt8(truncatingIfNeeded: b)
                        if alpha { row[o &+ 3] = UInt8(truncatingIfNeeded: a) }
                    }
                    previous.withUnsafeBufferPointer { previous in
                        let base = y * (rowBytes + 1)
                        out[base] = 2  // Up
                        for i in 0..<rowBytes { out[base &+ 1 &+ i] = row[i] &- previous[i] }
                    }
                }
                swap(&row, &previous)
            }
        }
        var compressedLength = compressBound(uLong(raw.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedLength))
        let status = compress2(&compressed, &compressedLength, raw, uLong(raw.count), Int32(max(0, min(9, level))))
        guard status == Z_OK else { throw .encoding(message: "zlib cannot compress the image (compress2: \(status))") }
        compressed.removeSubrange(Int(compressedLength)...)

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ body: [UInt8]) {
            let t = Array(type.utf8)
            png += be32(UInt32(body.count))
            png += t
            png += body
            var crc = crc32(0, t, 4)
            crc = body.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
            png += be32(UInt32(crc))
        }
        chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, alpha ? 6 : 2, 0, 0, 0])
        chunk("IDAT", compressed)
        chunk("IEND", [])
        return png
    }
}

private func be32(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
}
