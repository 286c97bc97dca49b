#!/usr/bin/env bash
# Sets everything up, builds pdfpipe and runs the default pipeline on samples/.
# The samples include broken documents on purpose, so the run reports errors (exit code 1).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product pdfpipe
set +e
.build/release/pdfpipe run pipelines/default.json "$@"
code=$?
set -e
echo "demo: pdfpipe exited with $code (1 = findings at or above --fail-on); report: out/default/report.json"
[ "$code" -le 1 ]
