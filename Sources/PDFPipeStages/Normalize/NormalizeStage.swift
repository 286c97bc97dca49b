import Foundation
import PDFBridge
import PDFPipeCore
import PDFReader
import SystemIO

/// A file that is deleted when the job lets go of it (the normalized working copy).
final class TemporaryFile {
    let path: String
    init(path: String) { self.path = path }
    deinit { FileSystem.unlink(path) }
}

/// `normalize`'s options (`with`): qpdf's job options, the passwords, and the kept copy.
public struct NormalizeOptions: OptionGroup {
    /// qpdf --object-streams.
    public enum ObjectStreams: String, Sendable, CaseIterable, OptionChoice { case preserve, disable, generate }
    /// qpdf --decode-level.
    public enum DecodeLevel: String, Sendable, CaseIterable, OptionChoice { case none, generalized, specialized, all }
    /// qpdf --remove-unreferenced-resources.
    public enum RemoveUnreferenced: String, Sendable, CaseIterable, OptionChoice { case auto, yes, no }

    @Option("qpdf --object-streams") public var objectStreams = ObjectStreams.preserve
    @Option("qpdf --linearize (web-optimized)") public var linearize = false
    @Option("qpdf --compress-streams") public var compressStreams = true
    @Option("qpdf --recompress-flate") public var recompressFlate = false
    @Option("qpdf --decode-level") public var decodeLevel = DecodeLevel.generalized
    @Option("qpdf --deterministic-id (the same input gives the same bytes)") public var deterministicId = true
    @Option("qpdf --remove-unreferenced-resources") public var removeUnreferencedResources = RemoveUnreferenced.auto
    @Option("qpdf --preserve-unreferenced") public var preserveUnreferenced = false
    @Option("qpdf --normalize-content") public var normalizeContent = false
    @Option("qpdf --newline-before-endstream") public var newlineBeforeEndstream = false
    @Option("qpdf --qdf (readable in a text editor)") public var qdf = false
    @Option("qpdf --min-version, e.g. '1.5' (empty: none)") public var minVersion = ""
    @Option("qpdf --force-version, e.g. '1.4' (empty: none)") public var forceVersion = ""
    @Option("write the copy unencrypted (qpdf --decrypt), so later stages can read it") public var decrypt = true
    @Option("environment variable holding the password of encrypted documents") public var passwordEnv = ""
    @Option("file whose first line is the password (never put the password itself in a pipeline)")
    public var passwordFile = ""
    @Option(
        "passwords per document: the first entry whose path matches a document gives its password (neither env nor file: none); others use passwordEnv or passwordFile"
    )
    public var passwords: [PasswordEntry] = []
    @Option("also write the copy to the output folder") public var keep = false
    @Option("folder in the output folder for kept copies") public var folder = "normalized"

    public init() {}

    /// An entry of `passwords` (a plain string is its path).
    public struct PasswordEntry: OptionGroup {
        @Option("glob of the documents (relative to the input root, or as named: 'contracts/**/*.pdf')")
        public var path = ""
        @Option("environment variable holding their password") public var env = ""
        @Option("or a file whose first line is their password (when env is not given)") public var file = ""

        public init() {}
    }
}

/// `normalize`: rewrites the document through qpdf's job interface (repairing damage, decrypting with
/// a password given by environment variable or file, object streams, linearization, …). The copy is
/// the working file of the later stages; the original is never touched.
public struct NormalizeStage: Stage {
    public static let descriptor = StageDescriptor(
        NormalizeStage.self, id: "normalize",
        summary:
            "rewrite the document with qpdf (repair, decrypt, object streams, linearize, …); later stages read the copy"
    )

    /// qpdf job JSON for the write options (input, output and password are added per document).
    let jobOptions: [String: JSONValue]
    let passwordEnv: String
    let passwordFile: String
    /// Per-document passwords: a glob, and the variable or file that holds the password.
    let passwords: [(path: String, env: String, file: String)]
    let keep: Bool
    let folder: String

    public init(_ o: NormalizeOptions) throws(PipelineError) {
        var j: [String: JSONValue] = [
            "objectStreams": .string(o.objectStreams.rawValue),
            "compressStreams": .string(o.compressStreams ? "y" : "n"),
            "decodeLevel": .string(o.decodeLevel.rawValue),
            "removeUnreferencedResources": .string(o.removeUnreferencedResources.rawValue),
        ]
        // qpdf's job JSON: a flag given is "" (its key is the option's).
        let flags: [(String, Bool)] = [
            ("linearize", o.linearize), ("recompressFlate", o.recompressFlate), ("deterministicId", o.deterministicId),
            ("preserveUnreferenced", o.preserveUnreferenced), ("normalizeContent", o.normalizeContent),
            ("newlineBeforeEndstream", o.newlineBeforeEndstream), ("qdf", o.qdf), ("decrypt", o.decrypt),
        ]
        for (flag, on) in flags where on { j[flag] = "" }
        for (key, v) in [("minVersion", o.minVersion), ("forceVersion", o.forceVersion)] {
            guard !v.isEmpty else { continue }
            guard v.range(of: #"^1\.[0-7](\.[0-9]+)?$|^2\.0$"#, options: .regularExpression) != nil else {
                throw PipelineError(
                    file: nil, path: key, message: "expected a PDF version such as '1.5' or '2.0', got '\(v)'")
            }
            j[key] = .string(v)
        }
        if o.linearize && o.qdf {
            throw PipelineError(
                file: nil, path: "qdf", message: "qdf and linearize cannot be combined (qpdf refuses it)")
        }
        jobOptions = j
        passwordEnv = o.passwordEnv
        passwordFile = o.passwordFile
        var passwords: [(path: String, env: String, file: String)] = []
        for (i, p) in o.passwords.enumerated() {
            guard !p.path.isEmpty else {
                throw PipelineError(
                    file: nil, path: "passwords[\(i)].path",
                    message:
                        "expected a glob of documents, like {\"path\": \"contracts/*.pdf\", \"env\": \"CONTRACTS_PASSWORD\"}"
                )
            }
            passwords.append((path: p.path, env: p.env, file: p.file))
        }
        self.passwords = passwords
        keep = o.keep
        folder = try OutputNames.folder(o.folder)
    }

    /// The document's password: from the first `passwords` entry whose path matches it, else
    /// from `passwordEnv` or `passwordFile`; or why there is none.
    func password(for path: String, workingPath: String? = nil) -> (password: String?, missing: String) {
        var env = passwordEnv
        var file = passwordFile
        var from = ("passwordEnv", "passwordFile")
        if let (i, p) = passwords.enumerated().first(where: { _, p in
            Glob.match(pattern: p.path, path: path)
                || (workingPath.map { Glob.match(pattern: p.path, path: $0) } ?? false)
        }) {
            (env, file) = (p.env, p.file)
            from = ("passwords[\(i)].env", "passwords[\(i)].file")
        }
        if !env.isEmpty {
            guard let v = Environment[env] else {
                return (nil, "the environment variable '\(env)' named by \(from.0) is not set")
            }
            return (v, "")
        }
        if !file.isEmpty {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                return (nil, "the password file '\(file)' named by \(from.1) cannot be read")
            }
            return (String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""), "")
        }
        if from.0 != "passwordEnv" {
            // An entry with neither: these documents have no password (the default is not tried).
            return (nil, "\(from.0.dropLast(4)) gives no password for it")
        }
        return (nil, "no password was given (set passwordEnv or passwordFile, or passwords per document)")
    }

    public func run(_ job: inout Job) throws {
        let input = job.workingFile
        let keptRelative = OutputNames.file(for: job, folder: folder, extension: "pdf")
        let final = keep ? job.outputDirectory + "/" + keptRelative : nil
        let directory = final.map(Paths.parent) ?? NSTemporaryDirectory() + "pdfpipe-\(getpid())"
        do {
            try AtomicFile.makeDirectory(directory)
        } catch {
            throw DocumentFailure(
                rule: .stageFailed, message: "cannot make the folder for the normalized copy: \(error.reason)")
        }
        let output = directory + "/.pdfpipe-normalize-\(UUID().uuidString).pdf"
        let temp = TemporaryFile(path: output)

        var j = jobOptions
        j["inputFile"] = .string(input)
        j["outputFile"] = .string(output)
        // As QPDFFile does: qpdf sizes buffers from a cross-reference stream's numbers as stated.
        if let why = XRefStreamCheck.hostile(path: input) {
            j["ignoreXrefStreams"] = ""
            job.report(
                Finding(
                    rule: .pdfDamaged,
                    message:
                        "\(why); qpdf reads it without the file's cross-reference streams (objects found by scanning)"))
        }
        let (pw, missing) = password(for: job.relativePath)
        if let pw { j["password"] = .string(pw) }
        // The original as pdfpipe's reader sees it (nil if the reader does not take it): its size in
        // objects decides where qpdf runs, its page tree gives the page count before.
        let original = try? PDFReader(path: input)
        let objects = original.flatMap { PDFObject(source: $0, value: $0.trailer)["Size"]?.int } ?? 0
        let (status, log) = QPDFJob.run(json: JSONWriter.compact(.object(j)), objects: objects)

        guard try succeeded(status, log, &job, input: input, output: output, password: pw, missing: missing) else {
            return
        }

        // qpdf's closing "operation succeeded with warnings" is no finding of its own.
        let damage = log.warnings.filter { !$0.contains("operation succeeded with warnings") }
        job.reportDamage(damage.map { $0.replacingOccurrences(of: output, with: input) })
        let warnings = damage.count

        // Pages before (as the original's page tree declares them) and after.
        let declared =
            original.map { PDFObject.root(of: $0)["Pages"]?["Count"]?.int }
            ?? Self.declaredPageCount(input, password: pw)
        // qpdf copies /Count as it was (a wrong /Count stays wrong), so the copy's pages are counted
        // by walking its page tree: the pages qpdf kept, which later stages read.
        let after = Self.pagesFound(output)
        if let declared, let after, declared != after {
            job.report(
                Finding(
                    rule: .pdfPagesLost,
                    message: "the original's page tree declares \(declared) pages; the normalized copy has \(after)"))
        }

        if let final {
            guard FileSystem.rename(output, final) == 0 else {
                throw DocumentFailure(
                    rule: .stageFailed, message: "cannot write '\(keptRelative)': \(Errno.current)"
                )
            }
            job.workingFile = final
            job.artifacts.append(Artifact(kind: "normalized", path: keptRelative))
        } else {
            job.workingFile = output
            job.resources.store(temp)
        }
        if let after { job.pageCount = after }
        job[.normalize] = NormalizeSection(
            warnings: warnings, pagesDeclared: declared, pages: after, file: keep ? keptRelative : nil)
    }

    /// Whether qpdf's job made the copy: a crash or a file it cannot repair ends the document; a
    /// password that does not open it is a finding, and the document goes on as it is (false).
    func succeeded(
        _ status: Int, _ log: QPDFJobLog, _ job: inout Job, input: String, output: String, password pw: String?,
        missing: String
    ) throws -> Bool {
        if log.signal != 0 {
            throw DocumentFailure(
                rule: .pdfCrashed,
                message: "qpdf crashed on the document: its process was killed by signal \(log.signal)")
        }
        guard status == 0 || status == 3 else {
            let message = log.errors.map { job.qpdfMessage($0, paths: [input, output]).text }.joined(separator: "; ")
            if message.contains("invalid password") {
                // Leave the working file as it is: stages that can open it (poppler opens files with
                // only an owner password) go on; the others say they cannot.
                let why = pw == nil ? missing : "the password given does not open it"
                job.report(
                    Finding(rule: .pdfEncrypted, message: "the document is encrypted and was not normalized: \(why)"))
                return false
            }
            if let why = job.notAPDF() { throw DocumentFailure(rule: .pdfUnreadable, message: why) }
            throw DocumentFailure(
                rule: .pdfUnreadable,
                message: "qpdf cannot repair the file: \(message.isEmpty ? "exit status \(status)" : message)")
        }
        return true
    }

    /// /Root /Pages /Count of a file: pdfpipe's reader when it takes the file, qpdf otherwise.
    static func declaredPageCount(_ path: String, password: String?) -> Int? {
        if let r = try? PDFReader(path: path) { return PDFObject.root(of: r)["Pages"]?["Count"]?.int }
        guard let q = try? QPDFFile(path: path, password: password) else { return nil }
        return PDFObject.root(of: QPDFSource(q))["Pages"]?["Count"]?.int
    }

    /// The pages of the (qpdf-written) copy, found by walking its page tree.
    static func pagesFound(_ path: String) -> Int? {
        if let r = try? PDFReader(path: path) { return PageTree.pages(r).count }
        return try? QPDFFile(path: path, password: nil).pageCount()
    }

}

/// The helper process that runs big documents' qpdf jobs single-threaded (`QPDFJob.Helper`, where the
/// why is). Only the pdfpipe executable sets it up; in the tests, jobs run in the test process unless
/// a test asks for the helper.
package enum QPDFHelper {
    /// Documents from this many objects (the trailer's /Size) up go to the helper: starting it costs
    /// about 20 ms, which a single-threaded qpdf saves from about 3 000 objects up (measured on real
    /// manuals of 36 to 90 000 objects; docs/benchmarks.md).
    package static let defaultMinimumObjects = 5000

    /// The helper's life, for `pdfpipe __qpdf-job`: returns its exit status.
    package static func main() -> Int32 { QPDFJob.helperMain() }

    /// Sets up the helper with the running executable. `mode` (the environment variable
    /// `PDFPIPE_QPDF_PROCESS`): `auto` or nil (documents from `defaultMinimumObjects` objects up),
    /// `always`, or `never`. `executable` (`PDFPIPE_QPDF_HELPER`) replaces the running executable,
    /// e.g. with a script that runs it under a debugger or counts its starts.
    package static func enable(mode: String?, executable override: String? = nil) {
        guard let running = ProcessControl.executablePath, mode != "never" else {
            QPDFJob.helper = nil
            return
        }
        let executable = override ?? running
        QPDFJob.helper = QPDFJob.Helper(
            executable: executable, minimumObjects: mode == "always" ? 0 : defaultMinimumObjects)
    }
}

/// `normalize`: qpdf's warnings on the document, the pages its page tree declares and the pages
/// the copy has, and the copy kept (`keep: true`).
public struct NormalizeSection: ReportSection, Equatable {
    public static let key = "normalize"
    public var warnings: Int
    /// The original's `/Count` (absent when it has none that reads).
    public var pagesDeclared: Int?
    /// The pages of the normalized copy.
    public var pages: Int?
    /// The kept copy, relative to the output folder.
    public var file: String?

    public init(warnings: Int, pagesDeclared: Int? = nil, pages: Int? = nil, file: String? = nil) {
        self.warnings = warnings
        self.pagesDeclared = pagesDeclared
        self.pages = pages
        self.file = file
    }
}

extension SectionKey where Value == NormalizeSection {
    public static var normalize: Self { NormalizeSection.sectionKey }
}
