#!/usr/bin/env bash
# Sets everything up and runs the tests, by tier (docs/development.md, "Two tiers"):
#   scripts/test.sh fast          the edit loop: lint, build, the unit and stage tests (well under a
#                                 minute of tests here)
#   scripts/test.sh integration   packages, image, schedulers, object storage, browser, README
#                                 recipes, ThreadSanitizer, the MuPDF build, the contributor recipe
#   scripts/test.sh               both (what .ci/run runs)
set -euo pipefail
cd "$(dirname "$0")/.."
tier=${1:-all}
case "$tier" in fast | integration | all) ;; *) echo "test.sh: unknown tier '$tier' (fast, integration)" >&2; exit 2 ;; esac
# Each step says how long it took (docs/development.md keeps a table of a clean run's times).
step() {
  local start=$SECONDS
  "$@"
  echo "test.sh: $((SECONDS - start)) s: $*" >&2
}
# The integration tier: test classes that build packages or images, start schedulers, servers, a
# browser or outside validators, or run the built program end to end (batches, worker processes,
# the README's commands); every other class of the four test targets is the fast tier. A class is
# named here once; TestTierTests checks that each name is a class.
integration='\.(DebPackageTests|ImageTests|SlurmTests|AWSBatchTests|KubernetesTests|ObjectStorageTests|HostileStoreTests|ProducerTests|HTMLReportTests|ExternalLinkTests|ReadmeCommandTests|ReadmeRecipeTests|PreCommitTests|ReportSchemaTests|ScaleTests|IsolationTests|SurvivalTests|HostileBatchTests|TrustCLITests|ShardAutoTests|LedgerReplayTests)/'
# Lint first (seconds): the tree is formatted with .swift-format; `swift format format -i -r
# Sources Tests Package.swift` fixes what this finds.
step swift format lint --strict --recursive Sources Tests Package.swift
# The fast tier installs only what it uses; the integration tier everything (docs/development.md).
if [ "$tier" = fast ]; then step scripts/setup.sh --fast-test; else step scripts/setup.sh --test --mupdf; fi
# Everything the tests use is installed now: a test that finds a prerequisite missing fails
# instead of skipping (Tests/TestSupport/Prerequisite.swift).
export CI=true
# No test writes into the source tree (two commits once committed a test's links.json): what git
# sees, ignored files included (the build folders aside), is the same after the tests as before.
tree() { git status --porcelain --untracked-files=all --ignored 2>/dev/null | grep -v '^!! "\{0,1\}\.build/\|^!! \.swiftpm/' || true; }
before=$(tree)
trap 'after=$(tree); if [ "$before" != "$after" ]; then echo "test.sh: the tests changed the source tree:" >&2; diff <(echo "$before") <(echo "$after") >&2; exit 1; fi' EXIT
if [ "$tier" != fast ]; then
  # The runner and the page workers again under ThreadSanitizer (a report fails the run: TSan's exit
  # code 66); their stress tests keep the cores busy, since races hide on idle machines.
  step swift build --build-tests --sanitize=thread --scratch-path .build/tsan
  step swift test --skip-build --sanitize=thread --scratch-path .build/tsan --disable-swift-testing \
    --filter 'PageHelpersTests|PageWorkersTests|RunnerTests|BridgeTests.testEngineWork|HostSchedulerTests'
fi
step swift build --build-tests
if [ "$tier" != integration ]; then
  step swift test --skip-build --disable-swift-testing --skip "$integration"
fi
if [ "$tier" != fast ]; then
  step swift test --skip-build --disable-swift-testing --filter "$integration"
  # The MuPDF engine, an opt-in build (the MuPDF package trait; AGPL): its suites in that build, where
  # a missing engine fails instead of skipping.
  step swift build --build-tests --traits MuPDF --scratch-path .build/mupdf
  PDFPIPE_EXPECT_MUPDF=1 step swift test --skip-build --traits MuPDF --scratch-path .build/mupdf --disable-swift-testing \
    --filter 'EngineTests|ThumbnailsTests|ExtractTextTests|IncrementalThumbnailsTests|ThumbnailFormatTests'
  # The contributor recipe followed literally, in a copy of the tree: the toy stage in the real table.
  step bash scripts/recipe-check.sh
  # The coverage-guided fuzzers build outside SwiftPM (libFuzzer brings its own main), so nothing
  # else notices when a change breaks them (two did, unnoticed): each built and run a few seconds.
  for f in reader links pipeline; do step bash "scripts/fuzz-$f.sh" 5; done
fi
