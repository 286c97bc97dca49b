internal import CJPEG
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

    /// The image as JPEG (libjpeg-turbo), quality 1–100. The corresponding C functions are
    /// `jpeg_mem_dest`, `jpeg_set_quality` and `jpeg_write_scanlines`.
    public func jpegData(quality: Int) -> [UInt8] {
        var rgb = rgbBytes()
        var cinfo = jpeg_compress_struct()
        var jerr = jpeg_error_mgr()
        cinfo.err = jpeg_std_error(&jerr)
        jpeg_CreateCompress(&cinfo, JPEG_LIB_VERSION, MemoryLayout<jpeg_compress_struct>.size)
        defer { jpeg_destroy_compress(&cinfo) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        jpeg_mem_dest(&cinfo, &buffer, &size)
        cinfo.image_width = JDIMENSION(width)
        cinfo.image_height = JDIMENSION(height)
        cinfo.input_components = 3
        cinfo.in_color_space = JCS_RGB
        jpeg_set_defaults(&cinfo)
        jpeg_set_quality(&cinfo, Int32(max(1, min(100, quality))), 1)
        jpeg_start_compress(&cinfo, 1)
        rgb.withUnsafeMutableBufferPointer { b in
            while cinfo.next_scanline < cinfo.image_height {
                var row: JSAMPROW? = b.baseAddress! + Int(cinfo.next_scanline) * width * 3
                _ = jpeg_write_scanlines(&cinfo, &row, 1)
            }
        }
        jpeg_finish_compress(&cinfo)
        guard let buffer else { return [] }
        defer { free(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    /// The image as lossy WebP (libwebp), quality 1–100. The corresponding C function is
    /// `WebPEncodeRGB`.
    public func webpData(quality: Int) -> [UInt8] {
        let rgb = rgbBytes()
        var output: UnsafeMutablePointer<UInt8>?
        let size = rgb.withUnsafeBufferPointer { b in
            WebPEncodeRGB(
                b.baseAddress, Int32(width), Int32(height), Int32(width * 3), Float(max(1, min(100, quality))), &output)
        }
        guard let output, size > 0 else { return [] }
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
