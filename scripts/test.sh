#!/usr/bin/env bash
# Sets everything up and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
# The runner and the page workers again under ThreadSanitizer (a report fails the run: TSan's exit
# code 66); their stress tests keep the cores busy, since races hide on idle machines.
swift build --build-tests --sanitize=thread --scratch-path .build/tsan
swift test --skip-build --sanitize=thread --scratch-path .build/tsan --disable-swift-testing \
  --filter 'PageHelpersTests|PageWorkersTests|RunnerTests'
swift build --build-tests
swift test --skip-build --disable-swift-testing
