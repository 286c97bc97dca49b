internal import CZlib

/// Stream decoding for what the object reader needs: FlateDecode with PNG and TIFF predictors
/// (xref streams and object streams). Anything else is left to qpdf.
enum StreamDecoder {
    struct Unsupported: Error, CustomStringConvertible {
        var description: String
        /// The data inflates past the limit it was given (a decompression bomb, or a stream too
        /// big for this file): nobody may decode it in this process, qpdf neither.
        var isLimit = false
    }

    /// Inflates zlib data; `limit` bounds the output (decompression bombs).
    static func inflate(_ input: UnsafeBufferPointer<UInt8>, limit: Int = 256 << 20) throws(Unsupported) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Unsupported(description: "inflateInit failed")
        }
        defer { inflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: min(limit, max(4096, input.count * 4)))
        var produced = 0
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = UInt32(input.count)
        while true {
            if produced == out.count {
                guard out.count < limit else {
                    throw Unsupported(description: "stream inflates past \(Self.megabytes(limit))", isLimit: true)
                }
                out.append(contentsOf: [UInt8](repeating: 0, count: min(out.count, limit - out.count)))
            }
            let status = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
                stream.next_out = buffer.baseAddress! + produced
                stream.avail_out = UInt32(buffer.count - produced)
                let s = CZlib.inflate(&stream, Z_NO_FLUSH)
                produced = buffer.count - Int(stream.avail_out)
                return s
            }
            if status == Z_STREAM_END { break }
            if status == Z_BUF_ERROR && stream.avail_in == 0 { break }  // truncated: keep what there is
            guard status == Z_OK || status == Z_BUF_ERROR else {
                throw Unsupported(description: "corrupt Flate data (zlib status \(status))")
            }
        }
        out.removeSubrange(produced...)
        return out
    }

    static func megabytes(_ n: Int) -> String {
        n >= 1 << 20 ? "\(n >> 20) MB" : "\(max(1, n >> 10)) KB"
    }

    /// Decodes a stream's data according to its /Filter and /DecodeParms: a chain of Flate filters
    /// (each with its own parameters), whose every stage's output is bounded by `limit`.
    static func decode(_ data: UnsafeBufferPointer<UInt8>, dictionary d: PDFDictionary, limit: Int = 256 << 20)
        throws(Unsupported) -> [UInt8]
    {
        var filters: [String] = []
        switch d["Filter"] {
        case .name(let n)?: filters = [n]
        case .array(let a)?: filters = a.compactMap { if case .name(let n) = $0 { n } else { nil } }
        default: break
        }
        var params: [PDFDictionary?] = []
        switch d["DecodeParms"] {
        case .dictionary(let p)?: params = [p]
        case .array(let a)?: params = a.map { if case .dictionary(let p) = $0 { p } else { nil } }
        default: break
        }
        if filters.isEmpty { return Array(data) }
        guard filters.count <= 8, filters.allSatisfy({ $0 == "FlateDecode" || $0 == "Fl" }) else {
            throw Unsupported(description: "filter \(filters.joined(separator: ", ")) is left to qpdf")
        }
        var out = try inflate(data, limit: limit)
        for (i, _) in filters.enumerated() {
            if i > 0 { out = try out.withUnsafeBufferPointer { b throws(Unsupported) in try inflate(b, limit: limit) } }
            out = try unpredict(out, params: i < params.count ? params[i] : nil)
        }
        return out
    }

    /// Applies a Flate stage's /Predictor, if any.
    static func unpredict(_ data: [UInt8], params: PDFDictionary?) throws(Unsupported) -> [UInt8] {
        var out = data
        if let params, case .int(let predictor)? = params["Predictor"], predictor > 1 {
            var columns = 1
            if case .int(let c)? = params["Columns"] { columns = c }
            var colors = 1
            if case .int(let c)? = params["Colors"] { colors = c }
            var bpc = 8
            if case .int(let b)? = params["BitsPerComponent"] { bpc = b }
            out = try unpredict(out, predictor: predictor, columns: columns, colors: colors, bitsPerComponent: bpc)
        }
        return out
    }

    static func unpredict(_ data: [UInt8], predictor: Int, columns: Int, colors: Int, bitsPerComponent: Int)
        throws(Unsupported) -> [UInt8]
    {
        // The parameters come from the file: bounded as poppler bounds them (at most 32 colour
        // components, 16 bits each), and rows of at most 16 MB, before any arithmetic.
        guard columns >= 1, columns <= 1 << 24, colors >= 1, colors <= 32, [1, 2, 4, 8, 16].contains(bitsPerComponent)
        else {
            throw Unsupported(
                description:
                    "bad predictor parameters (/Columns \(columns), /Colors \(colors), /BitsPerComponent \(bitsPerComponent))"
            )
        }
        let bpp = max(1, (colors * bitsPerComponent + 7) / 8)
        let rowLength = (columns * colors * bitsPerComponent + 7) / 8
        guard rowLength > 0, rowLength <= 16 << 20 else {
            throw Unsupported(description: "bad predictor parameters (rows of \(rowLength) bytes)")
        }
        if predictor == 2 {
            guard bitsPerComponent == 8 else {
                throw Unsupported(description: "TIFF predictor with \(bitsPerComponent) bits")
            }
            var out = data
            var i = 0
            while i < out.count {
                let rowEnd = min(out.count, i + rowLength)
                var j = i + bpp
                while j < rowEnd {
                    out[j] = out[j] &+ out[j - bpp]
                    j += 1
                }
                i = rowEnd
            }
            return out
        }
        guard predictor >= 10 else { throw Unsupported(description: "predictor \(predictor)") }
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        var previous = [UInt8](repeating: 0, count: rowLength)
        var row = [UInt8](repeating: 0, count: rowLength)
        var i = 0
        while i < data.count {
            let type = data[i]
            i += 1
            let n = min(rowLength, data.count - i)
            for k in 0..<rowLength { row[k] = k < n ? data[i + k] : 0 }
            i += n
            for k in 0..<rowLength {
                let left: UInt8 = k >= bpp ? row[k - bpp] : 0
                let up = previous[k]
                let upLeft: UInt8 = k >= bpp ? previous[k - bpp] : 0
                switch type {
                case 0: break
                case 1: row[k] = row[k] &+ left
                case 2: row[k] = row[k] &+ up
                case 3: row[k] = row[k] &+ UInt8((Int(left) + Int(up)) / 2)
                case 4:
                    let p = Int(left) + Int(up) - Int(upLeft)
                    let pa = abs(p - Int(left))
                    let pb = abs(p - Int(up))
                    let pc = abs(p - Int(upLeft))
                    row[k] = row[k] &+ (pa <= pb && pa <= pc ? left : (pb <= pc ? up : upLeft))
                default: throw Unsupported(description: "PNG predictor type \(type)")
                }
            }
            out.append(contentsOf: row[0..<n])
            swap(&previous, &row)
        }
        return out
    }
}

/// gzip files (RFC 1952) read whole: SyncTeX's `NAME.synctex.gz`.
package enum Gzip {
    /// Why the bytes given are not the whole stream.
    package enum Cut: Sendable, Equatable {
        /// It decompresses past the limit.
        case limit
        /// It ends (or turns corrupt) before its end.
        case short
    }

    /// The decompressed bytes, at most `limit` (a decompression bomb), and whether they are not
    /// all of it; nil when the data is not gzip or is corrupt from the start. A file cut short
    /// gives what it held.
    package static func decompress(_ input: [UInt8], limit: Int) -> (bytes: [UInt8], cut: Cut?)? {
        guard input.count >= 18, input[0] == 0x1F, input[1] == 0x8B else { return nil }
        var stream = z_stream()
        // 16 + 15: a gzip header and trailer around a deflate stream of any window size.
        guard inflateInit2_(&stream, 16 + 15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: min(limit, max(1 << 16, input.count * 4)))
        var produced = 0
        return input.withUnsafeBufferPointer { inBuffer -> (bytes: [UInt8], cut: Cut?)? in
            stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
            stream.avail_in = UInt32(inBuffer.count)
            while true {
                if produced == out.count {
                    guard out.count < limit else {
                        out.removeSubrange(produced...)
                        return (out, .limit)
                    }
                    out.append(contentsOf: [UInt8](repeating: 0, count: min(out.count, limit - out.count)))
                }
                let status = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress! + produced
                    stream.avail_out = UInt32(buffer.count - produced)
                    let s = CZlib.inflate(&stream, Z_NO_FLUSH)
                    produced = buffer.count - Int(stream.avail_out)
                    return s
                }
                if status == Z_STREAM_END { break }
                if status == Z_BUF_ERROR && stream.avail_in == 0 {
                    out.removeSubrange(produced...)
                    return (out, .short)
                }
                guard status == Z_OK || status == Z_BUF_ERROR else {
                    if produced == 0 { return nil }
                    out.removeSubrange(produced...)
                    return (out, .short)
                }
            }
            out.removeSubrange(produced...)
            return (out, nil)
        }
    }
}
