import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import PDFReader
import Synchronization
import SystemIO

extension ThumbnailsStage {
    /// The file name of one thumbnail, relative to the output folder; never outside it.
    func fileName(for job: Job, page: Int) -> String {
        let stem = job.outputStem
        let name = stem.split(separator: "/").last.map(String.init) ?? stem
        // One pass over the template: a document named '{page}.pdf' keeps its name.
        var t = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            t += rest[..<open]
            let token = rest[rest.index(after: open)..<close]
            switch token {
            case "stem": t += stem
            case "name": t += name
            case "page": t += String(page)
            default:
                if token.hasPrefix("page:0"), let digits = Int(token.dropFirst(6)), (1...9).contains(digits) {
                    t += String(format: "%0\(digits)d", page)
                } else {
                    t += rest[open...close]
                }
            }
            rest = rest[rest.index(after: close)...]
        }
        t += rest
        // Inside the folder whatever the template says ("../" cannot climb out).
        return folder + Paths.standardize("/" + t)
    }

    /// What the incremental manifest keys on: the input's content, the options, the overlay.
    func manifestKey(_ job: Job, marks: [[(PDFRect, Bool)]]) -> String {
        let inputHash = Checksum.fileMD5(job.workingFile) ?? ""
        let overlayKey = marks.map { m in m.map { "\($0.0)\($0.1)" }.joined() }.joined(separator: "|")
        return Checksum.md5(Array((inputHash + fingerprint + overlayKey).utf8))
    }

    /// Incremental: when the manifest has the same key (content, options, overlay) and every file
    /// is still there, records the thumbnails as they are and returns true.
    func skipUpToDate(_ job: inout Job, plan: [(page: Int, file: String)], key: String, manifestPath: String) -> Bool {
        guard let data = FileSystem.contents(manifestPath),
            let manifest = try? JSONParser.parse(String(decoding: data, as: UTF8.self)),
            manifest["key"]?.stringValue == key,
            plan.allSatisfy({ FileSystem.exists(job.outputDirectory + "/" + $0.file) })
        else { return false }
        for p in plan { job.artifacts.append(Artifact(kind: "thumbnail", page: p.page, path: p.file)) }
        if options.contactSheet, let sheet = manifest["contactSheet"]?.stringValue {
            job.artifacts.append(Artifact(kind: "contact-sheet", path: sheet))
        }
        // What poppler said while rendering them, said again: a skip reports what a render would.
        job.reportPopplerMessages(manifest["messages"]?.arrayValue?.compactMap(\.stringValue) ?? [], library: library)
        reportIncomplete(
            &job,
            (manifest["incomplete"]?.arrayValue ?? []).compactMap { e in
                e["page"]?.intValue.map { ($0, e["messages"]?.arrayValue?.compactMap(\.stringValue) ?? []) }
            })
        return true
    }

    func encode(_ image: CairoImage) throws(BridgeError) -> [UInt8] {
        switch options.format {
        case .jpeg: try image.jpegData(quality: options.quality)
        case .webp: try image.webpData(quality: options.quality)
        case .png: try image.pngData(level: options.compression, alpha: transparent)
        }
    }

    /// One image with the document's thumbnails in a grid, from the files just written (PNG) or
    /// rendered again small (JPEG and WebP, which cairo cannot read back).
    func writeContactSheet(_ job: Job, files: [String]) -> String? {
        guard options.format == .png else { return nil }
        let images = files.compactMap { try? CairoImage(png: job.outputDirectory + "/" + $0) }
        guard !images.isEmpty else { return nil }
        let cellW = images.map(\.width).max()!
        let cellH = images.map(\.height).max()!
        let gap = 8
        let columns = min(options.contactSheetColumns, images.count)
        let rows = (images.count + columns - 1) / columns
        guard let sheet = try? CairoImage(width: columns * (cellW + gap) + gap, height: rows * (cellH + gap) + gap)
        else { return nil }
        sheet.fill(red: 1, green: 1, blue: 1)
        for (i, image) in images.enumerated() {
            let x = gap + (i % columns) * (cellW + gap) + (cellW - image.width) / 2
            let y = gap + (i / columns) * (cellH + gap)
            sheet.draw(image, x: x, y: y)
        }
        let relative = OutputNames.file(for: job, folder: folder, extension: "contact.png")
        do {
            try AtomicFile.write(
                try sheet.pngData(level: options.compression, alpha: false), to: job.outputDirectory + "/" + relative,
                binary: true)
        } catch {
            return nil
        }
        return relative
    }
}
