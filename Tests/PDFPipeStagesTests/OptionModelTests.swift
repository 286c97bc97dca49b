import PDFPipeCore
import XCTest

@testable import PDFPipeStages

/// (#22, 1) The option model is the one description of what a stage accepts: the loader validates
/// against it, the schema, `pdfpipe stages` and the README's tables are made from or checked against
/// it. These tests hold the stages to it: every declared option is read when the stage is built, and
/// every option a stage reads is declared (a read of an undeclared key would silently get the type's
/// zero value).
final class OptionModelTests: XCTestCase {
    /// The paths of the declared options (`external.cache.path`, `search[].term`).
    static func declaredPaths(_ specs: [OptionSpec], prefix: String = "") -> Set<String> {
        var out: Set<String> = []
        for spec in specs {
            let path = prefix.isEmpty ? spec.key : "\(prefix).\(spec.key)"
            out.insert(path)
            switch spec.kind {
            case .object(let sub): out.formUnion(declaredPaths(sub, prefix: path))
            case .list(let sub): out.formUnion(declaredPaths(sub, prefix: "\(path)[]"))
            default: break
            }
        }
        return out
    }

    /// A `with` object giving every list one item (its first option as a string), so that the
    /// items' options are read too.
    static func sampleOptions(_ specs: [OptionSpec]) -> JSONValue {
        var o: [String: JSONValue] = [:]
        for spec in specs {
            switch spec.kind {
            case .object(let sub): o[spec.key] = sampleOptions(sub)
            case .list: o[spec.key] = ["x"]
            default: break
            }
        }
        return .object(o)
    }

    /// Every stage is built from its typed options (`StageDescriptor(S.self, …)`: the declarations
    /// are the `Options` type's properties, so each is decoded when the stage is built, by
    /// construction), here from sample values of every option, nested ones included.
    func testEveryStageIsBuiltFromSampleValuesOfAllItsOptions() throws {
        XCTAssertFalse(StageTable.all.isEmpty)
        var checked = 0
        for descriptor in StageTable.all {
            let text = JSONWriter.compact([
                "stages": [["use": .string(descriptor.id), "with": Self.sampleOptions(descriptor.options)]]
            ])
            let pipeline = try Pipeline.parse(
                text, file: "p.json", catalog: StageTable.all, formats: ["json"], environment: .offline)
            let options = try XCTUnwrap(pipeline.stages.first?.options)
            _ = descriptor.needs?(options)
            let stage = try Pipeline.$unsetVariablesAreEmpty.withValue(true) { try descriptor.make(options) }
            XCTAssertEqual(type(of: stage).descriptor.id, descriptor.id)
            checked += Self.declaredPaths(descriptor.options).count
        }
        XCTAssertGreaterThan(checked, 100, "the options of all stages, nested ones included")
    }

    /// The keys of the pipeline file: every declared key is read by the loader, and it reads no other
    /// (`$schema` and `$comment` are ignored by design).
    func testEveryPipelineKeyIsRead() throws {
        let log = OptionReadLog()
        let catalog = [CheckStage.descriptor]
        try OptionValues.$readLog.withValue(log) {
            _ = try Pipeline.parse(
                #"{"stages": [{"use": "check"}], "report": {}}"#, file: "p.json", catalog: catalog, formats: ["json"])
        }
        let declared = Self.declaredPaths(Pipeline.keys(catalog: catalog, formats: ["json"]))
            .filter { !$0.hasPrefix("$") }
        XCTAssertEqual(declared.subtracting(log.read).sorted(), [], "declared but never read")
        XCTAssertEqual(log.read.subtracting(declared).sorted(), [], "read but not declared")
        XCTAssertGreaterThan(declared.count, 15)
    }

    /// The check above can fail: a stage reading a key nobody declared is seen.
    func testAnUndeclaredReadIsSeen() {
        let log = OptionReadLog()
        OptionValues.$readLog.withValue(log) {
            let o = OptionValues(["external": ["cache": [:]]])
            _ = o.object("external").object("cache").int("maxAgeSecnds")
            _ = o.list("search")
        }
        XCTAssertEqual(log.read, ["external", "external.cache", "external.cache.maxAgeSecnds", "search"])
        XCTAssertFalse(log.read.isSubset(of: Self.declaredPaths(ValidateLinksStage.descriptor.options)))
    }
}
