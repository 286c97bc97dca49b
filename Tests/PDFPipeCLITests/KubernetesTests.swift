import Foundation
import PDFBridge
import PDFPipeCore
import TestSupport
import XCTest

/// (#31, 6) Kubernetes without a cluster: contrib/kubernetes's manifests are checked against what a
/// Job needs (batch/v1, an Indexed Job with backoffLimitPerIndex, restartPolicy Never, the image,
/// the volumes the arguments use), and the commands their containers run are run here as a pod runs
/// them: each index with JOB_COMPLETION_INDEX set and `$(VAR)` expanded as Kubernetes expands it,
/// the volumes mapped to folders; then the merge Job's command. The merged report is the
/// one-machine run's.
final class KubernetesTests: XCTestCase {
    var dir = ""

    override func setUp() { dir = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// The manifest as JSON (python3-yaml reads it).
    func manifest(_ name: String) throws -> JSONValue {
        let r = try ExternalTool.run(
            "/usr/bin/python3",
            [
                "-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
                Repo.root + "/contrib/kubernetes/" + name,
            ],
            mergingErrors: false)
        XCTAssertEqual(r.status, 0, r.output)
        return try JSONParser.parse(r.output)
    }

    func testTheIndexedJobAndTheMergeRunAsPodsWould() throws {
        let shards = try manifest("indexed-job.yaml")
        let merge = try manifest("merge-job.yaml")
        for job in [shards, merge] {
            XCTAssertEqual(job["apiVersion"], "batch/v1")
            XCTAssertEqual(job["kind"], "Job")
            XCTAssertNotNil(job["metadata"]?["name"]?.stringValue)
            XCTAssertEqual(job["spec"]?["template"]?["spec"]?["restartPolicy"], "Never")
            let container = try XCTUnwrap(job["spec"]?["template"]?["spec"]?["containers"]?[0])
            XCTAssertEqual(container["image"]?.stringValue, "ghcr.io/pdfpipe/pdfpipe:\(PDFPipeVersion.string)")
            let mounts = Set((container["volumeMounts"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
            let volumes = Set(
                (job["spec"]?["template"]?["spec"]?["volumes"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
            )
            XCTAssertEqual(mounts, volumes, "every mount has its volume")
            // (#42, 7) What the restricted Pod Security profile requires of a pod and its containers.
            let pod = job["spec"]?["template"]?["spec"]?["securityContext"]
            XCTAssertEqual(pod?["runAsNonRoot"], true)
            XCTAssertNotEqual(pod?["runAsUser"]?.intValue ?? 0, 0)
            XCTAssertEqual(pod?["seccompProfile"]?["type"], "RuntimeDefault")
            XCTAssertEqual(container["securityContext"]?["allowPrivilegeEscalation"], false)
            XCTAssertEqual(container["securityContext"]?["capabilities"]?["drop"], ["ALL"])
        }
        let spec = try XCTUnwrap(shards["spec"])
        XCTAssertEqual(spec["completionMode"], "Indexed")
        XCTAssertNotNil(spec["backoffLimitPerIndex"]?.intValue, "a failed index is retried on its own")
        let completions = try XCTUnwrap(spec["completions"]?.intValue)
        XCTAssertLessThanOrEqual(spec["parallelism"]?.intValue ?? 0, completions)
        let shardArgs = (spec["template"]?["spec"]?["containers"]?[0]?["args"]?.arrayValue ?? []).compactMap(
            \.stringValue)
        XCTAssertTrue(
            shardArgs.contains("auto/\(completions)"), "the shard count agrees with completions: \(shardArgs)")

        let volumes = try JobEngine.volumes(in: dir)
        func run(_ container: JSONValue, environment: [String: String]) throws -> Int32 {
            let args = (container["args"]?.arrayValue ?? []).compactMap(\.stringValue).map { a in
                var a = a
                for (k, v) in environment { a = a.replacingOccurrences(of: "$(\(k))", with: v) }
                return a
            }
            XCTAssertFalse(args.contains { $0.contains("$(") }, "every variable is one a pod has: \(args)")
            return try JobEngine.run(
                args, workingDir: container["workingDir"]?.stringValue ?? "/github/workspace",
                environment: environment, volumes: volumes)
        }
        let shardContainer = try XCTUnwrap(spec["template"]?["spec"]?["containers"]?[0])
        for index in 0..<completions {
            XCTAssertEqual(
                try run(shardContainer, environment: ["JOB_COMPLETION_INDEX": String(index)]), 0, "index \(index)")
        }
        let mergeContainer = try XCTUnwrap(merge["spec"]?["template"]?["spec"]?["containers"]?[0])
        let gate = try run(mergeContainer, environment: [:])
        try JobEngine.assertOneMachineRun(
            merged: dir + "/results/merged/report.json", gate: gate, data: dir + "/data", scratch: dir)
    }

    /// (#46, 5) The object-storage variant: no volume but an emptyDir for the local copies; its
    /// pods' arguments run against moto's S3 with JOB_COMPLETION_INDEX, one index twice, then the
    /// merge's: every document once, the merged report whole.
    func testTheObjectStorageVariantNeedsNoSharedVolume() throws {
        let shards = try manifest("indexed-job-s3.yaml")
        let merge = try manifest("merge-job-s3.yaml")
        for job in [shards, merge] {
            let pod = try XCTUnwrap(job["spec"]?["template"]?["spec"])
            XCTAssertEqual(pod["securityContext"]?["runAsNonRoot"], true)
            for v in pod["volumes"]?.arrayValue ?? [] { XCTAssertNil(v["persistentVolumeClaim"], "no shared volume") }
            XCTAssertEqual(pod["containers"]?[0]?["envFrom"]?[0]?["secretRef"]?["name"], "pdfpipe-store")
        }
        // Its own bucket: the definitions' bucket name, in a store another engine's test may share.
        let (client, store) = try ObjectStorageTests.freshBucket("pdfpipe-data", home: dir)
        let spec = try XCTUnwrap(shards["spec"])
        let completions = try XCTUnwrap(spec["completions"]?.intValue)
        let args = (spec["template"]?["spec"]?["containers"]?[0]?["args"]?.arrayValue ?? []).compactMap(\.stringValue)
        XCTAssertFalse(args.contains { $0.contains("$(") }, "nothing to expand: shards name their own folders")
        for index in Array(0..<completions) + [2] {
            let r = try ExternalTool.run(
                try Repo.executable(), args, environment: store.merging(["JOB_COMPLETION_INDEX": String(index)]) { $1 })
            XCTAssertEqual(r.status, 0, "index \(index): \(r.output)")
        }
        try JobEngine.assertStoreMerge(
            (merge["spec"]?["template"]?["spec"]?["containers"]?[0]?["args"]?.arrayValue ?? []).compactMap(
                \.stringValue), client: client, store: store)
    }
}
