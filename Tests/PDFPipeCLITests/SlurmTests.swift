import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#31, 4-5) The shipped Slurm job definitions on a real Slurm: `scripts/slurm-e2e.sh` brings up a
/// single-node cluster from Debian's packages, submits contrib/slurm/pdfpipe-array.sbatch (8 tasks,
/// at most 2 at a time) and the merge after it, requeues a task while it runs, and compares the
/// merged report with a one-machine run: the same documents, findings and exit code.
final class SlurmTests: XCTestCase {
    func testAnArrayOnARealSlurmGivesTheOneMachineReport() throws {
        guard getuid() == 0 else { throw XCTSkip("slurm-e2e.sh starts slurmctld and slurmd: it needs root") }
        let r = try ExternalTool.run("/bin/bash", [Repo.root + "/scripts/slurm-e2e.sh", try Repo.executable()])
        XCTAssertEqual(r.status, 0, String(r.output.suffix(3000)))
        XCTAssertTrue(r.output.contains("task 3 requeued while running: yes"), r.output)
        XCTAssertTrue(r.output.contains("84 documents; merged report matches the one-machine run"), r.output)
        XCTAssertTrue(
            r.output.contains("merge job FAILED, exit code 1; one machine: exit code 1"),
            "the merge is the gate: findings at or above failOn fail it, as they fail the one-machine run")
    }
}
