#!/usr/bin/env bash
# Sets everything up, builds pdfpipe and runs the default pipeline on samples/.
# The samples include broken documents on purpose, so the run reports errors (exit code 1).
# PDFPIPE_BIN=path runs that build instead of making a release build (the README test does).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
bin=${PDFPIPE_BIN:-}
if [ -z "$bin" ]; then
  swift build -c release --product pdfpipe
  bin=.build/release/pdfpipe
fi
set +e
"$bin" run pipelines/default.json "$@"
code=$?
set -e
echo "demo: pdfpipe exited with $code (1 = findings at or above --fail-on); report: out/default/report.json"
[ "$code" -le 1 ]
