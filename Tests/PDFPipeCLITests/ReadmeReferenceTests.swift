import Foundation
import PDFPipeCore
import PDFPipeStages
import TestSupport
import XCTest

@testable import PDFPipeCLI
@testable import PDFPipeWeb

/// (#22, 1) The README's reference tables are held to the one option model: the command synopses
/// and the `run` flag table to the command table (`CLI.commandTable`, which also makes `--help` and
/// parses the arguments), the pipeline key table to `Pipeline.keys` (which also validates the file
/// and makes the schema), and each stage's option table to its descriptor (which also validates,
/// makes the schema and `pdfpipe stages`). A flag, key or option added, renamed or removed on one
/// side only fails here; so does a choice or a default the README states differently.
final class ReadmeReferenceTests: XCTestCase {
    struct Row {
        var keys: [String]
        var type: String
        var defaultText: String
    }

    var readme = ""

    override func setUpWithError() throws {
        // The reference moved to docs/reference.md (#32, 9): the README keeps a newcomer's part.
        readme = try String(contentsOfFile: Repo.root + "/docs/reference.md", encoding: .utf8)
    }

    /// The lines of the section under `heading` (up to the next heading of its level or above).
    func section(_ heading: String) throws -> [Substring] {
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try XCTUnwrap(lines.firstIndex { $0 == heading }, "docs/reference.md has no '\(heading)'")
        let level = heading.prefix { $0 == "#" }.count
        var out: [Substring] = []
        for line in lines[(start + 1)...] {
            let hashes = line.prefix { $0 == "#" }.count
            if hashes > 0 && hashes <= level && line.dropFirst(hashes).hasPrefix(" ") { break }
            out.append(line)
        }
        return out
    }

    /// The rows of the first table in `lines` whose header starts with `header`.
    func table(_ lines: [Substring], header: String) throws -> [Row] {
        let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix(header) }, "no table '\(header)'")
        var rows: [Row] = []
        for line in lines[(start + 2)...] {
            guard line.hasPrefix("|") else { break }
            // Cells split at " | " not inside backticks (`head` \| `get`).
            let cells = line.replacingOccurrences(of: "\\|", with: "¦").split(separator: "|").map {
                $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "¦", with: "|")
            }
            let keys = cells[0].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            }
            rows.append(
                Row(keys: keys, type: cells.count > 1 ? cells[1] : "", defaultText: cells.count > 2 ? cells[2] : ""))
        }
        return rows
    }

    /// The options a README table must list: nested objects' options as `object.key`, except where
    /// the README gives the object a table or a row of its own.
    func leaves(_ specs: [OptionSpec], flatten: Bool) -> [String: OptionSpec] {
        var out: [String: OptionSpec] = [:]
        for s in specs {
            if flatten, case .object(let sub) = s.kind {
                for (k, v) in leaves(sub, flatten: true) { out["\(s.key).\(k)"] = v }
            } else {
                out[s.key] = s
            }
        }
        return out
    }

    /// Compares a README table with declared options: the same keys, every choice named in the type
    /// column, and the default in the default column (rows of one key).
    func check(_ rows: [Row], _ specs: [String: OptionSpec], _ what: String) {
        let documented = Set(rows.flatMap(\.keys))
        XCTAssertEqual(
            Set(specs.keys).subtracting(documented).sorted(), [], "\(what): declared, not in the README's table")
        XCTAssertEqual(
            documented.subtracting(specs.keys).sorted(), [], "\(what): in the README's table, not declared")
        for row in rows where row.keys.count == 1 {
            guard let spec = specs[row.keys[0]] else { continue }
            if case .choice(let names) = spec.kind {
                for name in names {
                    XCTAssertTrue(
                        row.type.contains("`\(name)`"),
                        "\(what): \(spec.key): the choice '\(name)' is not in '\(row.type)'")
                }
            }
            switch spec.kind {
            case .bool, .integer, .number, .choice, .string, .pages:
                let d: String
                switch spec.defaultValue {
                case .string(let s): d = s
                case .null: continue
                default: d = JSONWriter.compact(spec.defaultValue)
                }
                if d.isEmpty { continue }
                XCTAssertTrue(
                    row.defaultText.contains(d),
                    "\(what): \(spec.key): default \(d), the README says '\(row.defaultText)'")
            default: break
            }
        }
    }

    func testStageOptionTablesMatchTheDescriptors() throws {
        for d in StageTable.all {
            let lines = try section("### `\(d.id)`")
            if d.options.isEmpty {
                XCTAssertFalse(lines.contains { $0.hasPrefix("| option |") }, d.id)
                continue
            }
            var specs = leaves(d.options, flatten: false)
            var rows = try table(lines, header: "| option |")
            if d.id == "validate-links" {
                // `external` has a section of its own.
                let external = try table(try section("#### External links (`external`)"), header: "| key |")
                check(external, leaves(ExternalOptions.specs, flatten: false), "validate-links.external")
                rows.removeAll { $0.keys == ["external"] }
                specs["external"] = nil
            }
            check(rows, specs, d.id)
        }
    }

    func testPipelineKeyTableMatchesTheDeclaredKeys() throws {
        let rows = try table(try section("## Pipeline files"), header: "| key |")
        check(
            rows, leaves(Pipeline.keys(catalog: StageTable.all, formats: Reporters.formats), flatten: true), "pipeline")
    }

    func testCommandLineMatchesTheCommandTable() throws {
        let lines = try section("## Command line")
        // The synopsis block: a command's line and the indented lines after it.
        let block = lines.drop { $0 != "```" }.dropFirst().prefix { $0 != "```" }
        var synopses: [String: String] = [:]
        var current: String?
        for line in block {
            if line.hasPrefix("pdfpipe ") {
                current = line.split(separator: " ")[1].description
                synopses[current!, default: ""] += line
            } else if line.hasPrefix(" "), let c = current {
                synopses[c, default: ""] += line
            }
        }
        func bracketed(_ s: String) -> [String] {
            s.components(separatedBy: "[").dropFirst().compactMap { part in
                part.hasPrefix("--") ? part.components(separatedBy: "]").first : nil
            }
        }
        for command in CLI.commandTable {
            let synopsis = try XCTUnwrap(synopses[command.name], "README's synopsis lacks '\(command.name)'")
            XCTAssertEqual(bracketed(synopsis), command.flags.map(\.usage), "pdfpipe \(command.name)")
        }
        let run = try XCTUnwrap(CLI.command("run"))
        let rows = try table(lines, header: "| flag (`run`) |").filter { $0.keys != ["INPUT..."] }
        XCTAssertEqual(rows.map { $0.keys.joined(separator: ", ") }, run.flags.map(\.usage), "the run flag table")
        // A flag that overrides a key says so in its default column.
        for flag in run.flags {
            guard let key = flag.key, let row = rows.first(where: { $0.keys == [flag.usage] }) else { continue }
            XCTAssertTrue(row.defaultText.contains("`\(key)`"), "\(flag.name) overrides \(key): '\(row.defaultText)'")
        }
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        let kept = heading.lowercased().unicodeScalars.filter {
            CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == " " || $0 == "_"
        }
        return String(String.UnicodeScalarView(kept)).trimmingCharacters(in: .whitespaces)
            .replacingOccurrences(of: " ", with: "-")
    }

    /// (#32, 9) The README is short and links into docs/: every relative link of the README and of
    /// the reference names a file that exists, and an anchor a heading there has.
    func testTheReadmesLinksIntoDocsResolve() throws {
        let readmeLines = try String(contentsOfFile: Repo.root + "/README.md", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertLessThanOrEqual(
            readmeLines.count, 400, "the README stays a newcomer's read; the reference is in docs/")
        let link = try NSRegularExpression(pattern: #"\]\(([^)\s]*)\)"#)
        let pages = try FileManager.default.contentsOfDirectory(atPath: Repo.root + "/docs/rules").sorted().map {
            "docs/rules/" + $0
        }
        for doc in ["README.md", "docs/reference.md"] + pages {
            let text = try String(contentsOfFile: Repo.root + "/" + doc, encoding: .utf8)
            let folder = (doc as NSString).deletingLastPathComponent
            var checked = 0
            for m in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let target = String(text[Range(m.range(at: 1), in: text)!])
                guard !target.hasPrefix("http"), !target.isEmpty else { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(
                    String.init)
                let file = parts[0].isEmpty ? doc : (folder.isEmpty ? parts[0] : folder + "/" + parts[0])
                let path = Repo.root + "/" + file
                XCTAssertTrue(
                    FileManager.default.fileExists(atPath: path), "\(doc): the link '\(target)' names no file")
                if parts.count == 2, file.hasSuffix(".md"),
                    let body = try? String(contentsOfFile: path, encoding: .utf8)
                {
                    var inCode = false
                    var anchors = Set<String>()
                    for line in body.split(separator: "\n") {
                        if line.hasPrefix("```") { inCode.toggle() }
                        guard !inCode, line.hasPrefix("#") else { continue }
                        anchors.insert(
                            Self.anchor(String(line.drop { $0 == "#" }).trimmingCharacters(in: .whitespaces)))
                    }
                    XCTAssertTrue(anchors.contains(parts[1]), "\(doc): '\(target)': no such heading in \(file)")
                }
                checked += 1
            }
            XCTAssertGreaterThan(checked, 0, doc)
        }
    }
}
