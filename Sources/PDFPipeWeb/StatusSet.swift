import PDFPipeCore

/// HTTP statuses as codes and ranges (`200-299,403`).
package struct StatusSet: Sendable, Equatable {
    package var ranges: [ClosedRange<Int>]

    package func contains(_ status: Int) -> Bool { ranges.contains { $0.contains(status) } }

    static func parse(_ text: String, path: String) throws(PipelineError) -> StatusSet {
        var ranges: [ClosedRange<Int>] = []
        for part in text.split(separator: ",") {
            let p = part.trimmingCharacters(in: .whitespaces)
            let bounds = p.split(separator: "-", omittingEmptySubsequences: false).map {
                Int($0.trimmingCharacters(in: .whitespaces))
            }
            guard (1...2).contains(bounds.count), let lo = bounds.first ?? nil, let hi = bounds.last ?? nil,
                (100...999).contains(lo),
                (100...999).contains(hi), lo <= hi
            else {
                throw PipelineError(
                    file: nil, path: path, message: "'\(p)' is not a status code (100-999) or a range like 200-299")
            }
            ranges.append(lo...hi)
        }
        return StatusSet(ranges: ranges)
    }
}
