#!/usr/bin/env bash
# Sets everything up and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
swift build --build-tests
swift test --skip-build --disable-swift-testing
