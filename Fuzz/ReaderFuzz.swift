// libFuzzer target for pdfpipe's own PDF object reader: cross-reference tables and streams, object
// streams, Flate with predictors, the object parser. Linked with the PDFReader module, built with the
// fuzzer's instrumentation by scripts/fuzz-reader.sh. On every input: opening never crashes, and neither does
// reading every object and every stream's data of a file it accepted.
import Foundation
import PDFReader

let fuzzPath = "/dev/shm/pdfpipe-fuzz-\(getpid()).pdf"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard FileManager.default.createFile(atPath: fuzzPath, contents: Data(bytes: data, count: size)),
        let reader = try? PDFReader(path: fuzzPath)
    else { return 0 }
    _ = PDFObject.root(of: reader)["Pages"]?["Kids"]
    for n in 0..<min(reader.objectCount, 5_000) {
        let ref = ObjectRef(n, 0)
        _ = try? reader.object(ref)
        _ = reader.streamData(ref)
    }
    return 0
}
