import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#21, 9) Install without building: `scripts/build-deb.sh` (the README's command) makes a Debian
/// package whose binary carries the Swift runtime and Foundation (no Swift library is loaded from
/// anywhere), whose `Depends` names the package of every library the binary needs, and which
/// installs into a fresh root directory (`dpkg --root`, nothing else installed there) and runs the
/// demo from the installed files with the same findings as the build under test. `apt-get install
/// -s` confirms that apt resolves the package's dependencies on this (bookworm) machine.
final class DebPackageTests: XCTestCase {
    var dir = ""

    override func setUp() { dir = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func sh(_ command: String) throws -> (status: Int32, output: String) {
        try ExternalTool.run("/bin/bash", ["-c", command], environment: ["LD_LIBRARY_PATH": ""])
    }

    func testThePackageInstallsIntoACleanRootAndRunsTheDemo() throws {
        let build = try sh("cd '\(Repo.root)' && PDFPIPE_BUILD_OUT='\(dir)/built' bash scripts/build-deb.sh 2>&1")
        XCTAssertEqual(build.status, 0, String(build.output.suffix(3000)))
        let arch = try sh("dpkg --print-architecture").output.trimmingCharacters(in: .whitespacesAndNewlines)
        let deb = dir + "/built/deb/pdfpipe_\(PDFPipeVersion.string)_\(arch).deb"
        XCTAssertTrue(FileManager.default.fileExists(atPath: deb), build.output)

        // The control file: name, version, and a Depends that covers every library the binary needs.
        let info = try sh("dpkg-deb --field '\(deb)' Package Version Depends").output
        XCTAssertTrue(info.contains("Package: pdfpipe\n"), info)
        XCTAssertTrue(info.contains("Version: \(PDFPipeVersion.string)\n"), info)
        let depends = Set(
            (info.split(separator: "\n").first { $0.hasPrefix("Depends: ") } ?? "").dropFirst("Depends: ".count)
                .split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) })
        for needed in ["libqpdf29", "libpoppler-glib8", "libcairo2", "libglib2.0-0", "libcurl4", "libc6"] {
            XCTAssertTrue(depends.contains(needed), "Depends lacks \(needed): \(depends.sorted())")
        }

        // Into a fresh root: an empty dpkg database, nothing else (Depends cannot be met there:
        // the libraries come from this machine, where apt says they are met).
        let root = dir + "/root"
        XCTAssertEqual(
            try sh(
                "mkdir -p '\(root)/var/lib/dpkg/info' '\(root)/var/lib/dpkg/updates' && touch '\(root)/var/lib/dpkg/status'"
            ).status, 0)
        let install = try sh("dpkg --root='\(root)' --log=/dev/null --force-not-root --force-depends -i '\(deb)' 2>&1")
        XCTAssertEqual(install.status, 0, install.output)
        XCTAssertTrue(try sh("dpkg --root='\(root)' -s pdfpipe").output.contains("Status: install ok installed"))
        let simulated = try sh("apt-get install -s '\(deb)' 2>&1")
        XCTAssertEqual(simulated.status, 0, simulated.output)
        XCTAssertTrue(simulated.output.contains("Inst pdfpipe"), simulated.output)

        // The installed binary loads no Swift library, and each library it loads comes from a
        // package of its Depends (or from one of those packages' own dependencies).
        let exe = root + "/usr/bin/pdfpipe"
        let ldd = try sh("ldd '\(exe)'").output
        XCTAssertFalse(ldd.lowercased().contains("swift"), ldd)
        XCTAssertFalse(ldd.contains("not found"), ldd)
        let needed = try sh("readelf -d '\(exe)' | sed -n 's/.*(NEEDED).*\\[\\(.*\\)\\]/\\1/p'").output.split(
            separator: "\n"
        ).map(String.init)
        XCTAssertTrue(needed.contains("libqpdf.so.29") || needed.contains { $0.hasPrefix("libqpdf.so.") }, "\(needed)")
        for lib in needed where !lib.hasPrefix("ld-linux") {
            let owner = try sh(
                "dpkg -S \"$(readlink -f \"$(ldd '\(exe)' | awk '$1 == \"\(lib)\" {print $3}')\")\" 2>/dev/null || dpkg -S \"$(ldd '\(exe)' | awk '$1 == \"\(lib)\" {print $3}')\""
            ).output
            let package = String(owner.split(separator: ":").first ?? "")
            XCTAssertTrue(depends.contains(package), "\(lib) comes from '\(package)', which Depends does not name")
        }

        // The demo from the installed files: the default pipeline on the installed samples.
        XCTAssertEqual(
            try sh("'\(exe)' --version").output.trimmingCharacters(in: .whitespacesAndNewlines),
            "pdfpipe \(PDFPipeVersion.string)")
        let share = root + "/usr/share/pdfpipe"
        let demo = try sh(
            "cd '\(dir)' && '\(exe)' run '\(share)/pipelines/default.json' '\(share)/samples' --out installed --quiet; echo \"exit $?\""
        )
        XCTAssertTrue(demo.output.hasSuffix("exit 1\n"), "findings in the samples, as the demo says: \(demo.output)")
        XCTAssertEqual(
            CapturedCLI().run(
                [
                    "run", Repo.root + "/pipelines/default.json", Repo.root + "/samples", "--out", dir + "/built",
                    "--quiet",
                ], in: dir), .findings)
        func findings(_ report: String) throws -> [JSONValue] {
            try (Repo.stableReport(report)["documents"]?.arrayValue ?? []).map { d in
                ["path": d["path"] ?? .null, "findings": d["findings"] ?? .null, "status": d["status"] ?? .null]
            }
        }
        let installed = try findings(dir + "/installed/report.json")
        XCTAssertEqual(installed.count, 21)
        XCTAssertEqual(
            installed, try findings(dir + "/built/report.json"),
            "the installed binary finds what the build under test finds")
    }
}
