import Foundation
import PDFPipeCore
import SystemIO

/// One search term of the `extract-text` stage, compiled.
public struct SearchTerm: Sendable {
    public var term: String
    public var isRegex: Bool
    public var caseSensitive: Bool
    public var ignoreDiacritics: Bool
    public var severity: Severity
    /// The term as matched: normalized like the text (literal terms).
    let normalized: [Unicode.Scalar]
    let regex: NSRegularExpression?

    public init(term: String, isRegex: Bool, caseSensitive: Bool, ignoreDiacritics: Bool, severity: Severity) throws {
        self.term = term
        self.isRegex = isRegex
        self.caseSensitive = caseSensitive
        self.ignoreDiacritics = ignoreDiacritics
        self.severity = severity
        let options = TextNormalizer.Options(caseSensitive: caseSensitive, ignoreDiacritics: ignoreDiacritics)
        if isRegex {
            regex = try NSRegularExpression(pattern: term, options: caseSensitive ? [] : [.caseInsensitive])
            normalized = []
        } else {
            regex = nil
            normalized = TextNormalizer.normalize(Array(term.unicodeScalars), options).scalars
        }
    }

    var options: TextNormalizer.Options { .init(caseSensitive: caseSensitive, ignoreDiacritics: ignoreDiacritics) }
}

/// A match: the range of Unicode scalars of the page text it covers.
package struct TextMatch: Sendable, Equatable {
    package var range: Range<Int>
}

/// Turns page text into what search compares: NFKC (ligatures, full-width forms), case folded and
/// diacritics removed on request, every run of white space one space, and words hyphenated at a
/// line end joined again. Keeps, for each scalar it produces, the index of the scalar it came from.
package enum TextNormalizer {
    package struct Options: Sendable, Hashable {
        package var caseSensitive: Bool
        package var ignoreDiacritics: Bool
    }

    package static func normalize(_ text: [Unicode.Scalar], _ o: Options) -> (scalars: [Unicode.Scalar], origin: [Int])
    {
        var out: [Unicode.Scalar] = []
        var origin: [Int] = []
        out.reserveCapacity(text.count)
        origin.reserveCapacity(text.count)
        var i = 0
        while i < text.count {
            let s = text[i]
            if s.properties.isWhitespace || s == "\u{00A0}" {
                if let last = out.last, last != " " {
                    out.append(" ")
                    origin.append(i)
                }
                i += 1
                continue
            }
            var piece = String(s)
            if s.isASCII {
                if !o.caseSensitive, s.properties.isUppercase { piece = piece.lowercased() }
            } else {
                piece = piece.precomposedStringWithCompatibilityMapping
                if !o.caseSensitive { piece = piece.lowercased() }
                if o.ignoreDiacritics { piece = piece.folding(options: [.diacriticInsensitive], locale: nil) }
            }
            for p in piece.unicodeScalars {
                out.append(p)
                origin.append(i)
            }
            i += 1
        }
        if out.last == " " {
            out.removeLast()
            origin.removeLast()
        }
        return (out, origin)
    }

    /// Every match of a term in a page's normalized text, as ranges of the original scalars.
    package static func matches(
        of term: SearchTerm, in normalized: (scalars: [Unicode.Scalar], origin: [Int])
    ) -> [TextMatch] {
        search(term, in: normalized, budget: .infinity).matches
    }

    /// Seconds a regular expression may take on one page.
    package static let regexBudget = 2.0
}

/// The time the regular-expression terms may take on one document (`searchSeconds`): each page
/// gets at most `TextNormalizer.regexBudget` of what is left; once it is spent, the pages left are
/// listed (`unsearched`) instead of searched, so that 10,000 pages sharing one hostile content
/// stream cost seconds, not hours.
package struct SearchBudget: Sendable {
    /// Seconds left (infinite: no limit).
    package private(set) var left: Double
    /// The pages not (fully) searched because the budget ran out, in order.
    package private(set) var unsearched: [Int] = []

    package init(seconds: Double) { left = seconds > 0 ? seconds : .infinity }

    package var isSpent: Bool { left <= 0 }

    /// Seconds a term may take on `page`; 0 when the budget is spent (the page is then listed once).
    package mutating func forPage(_ page: Int) -> Double {
        guard left > 0 else {
            if unsearched.last != page { unsearched.append(page) }
            return 0
        }
        return min(TextNormalizer.regexBudget, left)
    }

    package mutating func spend(_ seconds: Double) { left -= seconds }
}

extension TextNormalizer {
    /// The matches of a term, and whether the search finished within `budget` seconds. A regular
    /// expression can backtrack for minutes on a page of hostile text (`[a-z.]+\.example` over
    /// 20,000 characters of `a.a.a…`: ~15 s a page); ICU's progress callback lets the search stop
    /// at the deadline, and the caller says so (`text.search-incomplete`): silence would claim the
    /// page was searched. Literal terms are linear and always finish.
    package static func search(
        _ term: SearchTerm, in normalized: (scalars: [Unicode.Scalar], origin: [Int]), budget: Double
    ) -> (matches: [TextMatch], complete: Bool) {
        let (text, origin) = normalized
        var found: [Range<Int>] = []
        var complete = true
        if let regex = term.regex {
            let string = String(String.UnicodeScalarView(text))
            // UTF-16 offsets back to scalar indices.
            var scalarAt: [Int] = []
            scalarAt.reserveCapacity(text.count * 2 + 1)
            for (k, s) in text.enumerated() {
                scalarAt.append(k)
                if s.value > 0xFFFF { scalarAt.append(k) }
            }
            scalarAt.append(text.count)
            let deadline =
                budget.isFinite ? SystemClock.uptimeNanoseconds + UInt64(max(0, budget) * 1e9) : UInt64.max
            regex.enumerateMatches(
                in: string, options: [.reportProgress], range: NSRange(location: 0, length: scalarAt.count - 1)
            ) {
                m, _, stop in
                if let m, m.range.length > 0 {
                    found.append(scalarAt[m.range.location]..<scalarAt[m.range.location + m.range.length])
                }
                if SystemClock.uptimeNanoseconds > deadline {
                    complete = false
                    stop.pointee = true
                }
            }
        } else {
            let t = term.normalized
            guard !t.isEmpty, t.count <= text.count else { return ([], true) }
            var i = 0
            while i + t.count <= text.count {
                if text[i] == t[0] && text[i..<i + t.count].elementsEqual(t) {
                    found.append(i..<i + t.count)
                    i += t.count
                } else {
                    i += 1
                }
            }
        }
        return (found.map { TextMatch(range: origin[$0.lowerBound]..<(origin[$0.upperBound - 1] + 1)) }, complete)
    }

    /// The match with up to `context` characters either side, white space collapsed, cut at words.
    package static func snippet(_ text: [Unicode.Scalar], _ range: Range<Int>, context: Int = 30) -> String {
        var start = max(0, range.lowerBound - context)
        var end = min(text.count, range.upperBound + context)
        if start > 0 { while start < range.lowerBound, !text[start - 1].properties.isWhitespace { start += 1 } }
        if end < text.count { while end > range.upperBound, !text[end].properties.isWhitespace { end -= 1 } }
        var s = ""
        var lastSpace = false
        for c in text[start..<end] {
            if c.properties.isWhitespace {
                if !lastSpace { s.unicodeScalars.append(" ") }
                lastSpace = true
            } else {
                s.unicodeScalars.append(c)
                lastSpace = false
            }
        }
        s = s.trimmingCharacters(in: .whitespaces)
        return (start > 0 ? "…" : "") + s + (end < text.count ? "…" : "")
    }
}
