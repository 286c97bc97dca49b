#!/usr/bin/env bash
# Sets everything up and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step says how long it took (docs/development.md keeps a table of a clean run's times).
step() {
  local start=$SECONDS
  "$@"
  echo "test.sh: $((SECONDS - start)) s: $*" >&2
}
# Lint first (seconds): the tree is formatted with .swift-format; `swift format format -i -r
# Sources Tests Package.swift` fixes what this finds.
step swift format lint --strict --recursive Sources Tests Package.swift
step scripts/setup.sh --test --mupdf
# Everything the tests use is installed now: a test that finds a prerequisite missing fails
# instead of skipping (Tests/TestSupport/Prerequisite.swift).
export CI=true
# The runner and the page workers again under ThreadSanitizer (a report fails the run: TSan's exit
# code 66); their stress tests keep the cores busy, since races hide on idle machines.
step swift build --build-tests --sanitize=thread --scratch-path .build/tsan
step swift test --skip-build --sanitize=thread --scratch-path .build/tsan --disable-swift-testing \
  --filter 'PageHelpersTests|PageWorkersTests|RunnerTests|BridgeTests.testEngineWork|HostSchedulerTests'
step swift build --build-tests
step swift test --skip-build --disable-swift-testing
# The MuPDF engine, an opt-in build (the MuPDF package trait; AGPL): its suites in that build, where
# a missing engine fails instead of skipping.
step swift build --build-tests --traits MuPDF --scratch-path .build/mupdf
PDFPIPE_EXPECT_MUPDF=1 step swift test --skip-build --traits MuPDF --scratch-path .build/mupdf --disable-swift-testing \
  --filter 'EngineTests|ThumbnailsTests|ExtractTextTests|IncrementalThumbnailsTests|ThumbnailFormatTests'
