internal import CJPEGEncode
internal import CPoppler
internal import CWebP
import Foundation

extension CairoImage {
    /// The pixels as 8-bit RGB rows (alpha dropped: the page is painted on white).
    func rgbBytes() -> [UInt8] {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            let src = UnsafeRawPointer(data + y * stride)
            for x in 0..<width {
                let v = src.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                let o = (y * width + x) * 3
                out[o] = UInt8((v >> 16) & 0xFF)
                out[o + 1] = UInt8((v >> 8) & 0xFF)
                out[o + 2] = UInt8(v & 0xFF)
            }
        }
        return out
    }

    /// The image as JPEG (libjpeg-turbo), quality 1–100; throws with libjpeg's message when it
    /// cannot (its errors return through the C function, never end the process). The corresponding
    /// C function is `pp_jpeg_encode` (`jpeg_mem_dest`, `jpeg_set_quality`, `jpeg_write_scanlines`).
    package func jpegData(quality: Int) throws(BridgeError) -> [UInt8] {
        let rgb = rgbBytes()
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var err = [CChar](repeating: 0, count: 256)
        let ok = rgb.withUnsafeBufferPointer { b in
            pp_jpeg_encode(b.baseAddress, Int32(width), Int32(height), Int32(quality), &output, &size, &err, err.count)
        }
        defer { pp_jpeg_free(output) }
        guard ok != 0, let output else {
            let message = String(decoding: err.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .encoding(message: "libjpeg: \(message)")
        }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// The image as lossy WebP (libwebp), quality 1–100. The corresponding C function is
    /// `WebPEncodeRGB`.
    /// Throws when libwebp cannot.
    package func webpData(quality: Int) throws(BridgeError) -> [UInt8] {
        let rgb = rgbBytes()
        var output: UnsafeMutablePointer<UInt8>?
        let size = rgb.withUnsafeBufferPointer { b in
            WebPEncodeRGB(
                b.baseAddress, Int32(width), Int32(height), Int32(width * 3), Float(max(1, min(100, quality))), &output)
        }
        guard let output, size > 0 else { throw .encoding(message: "libwebp cannot encode the image") }
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
