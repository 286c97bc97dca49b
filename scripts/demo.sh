#!/usr/bin/env bash
# Sets everything up, builds pdfpipe and runs the main job on samples/: the built-in
# broken-link-report (every link, bookmark and destination checked, web links left out; each page
# with findings drawn beside them) into out/demo, with the HTML and Markdown reports.
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
"$bin" run broken-link-report samples --offline --out out/demo "$@"
code=$?
set -e
[ "$code" -le 1 ] || { echo "demo: pdfpipe exited with $code" >&2; exit "$code"; }
cat <<NEXT

demo: pdfpipe exited with $code: the samples are broken on purpose (1 = findings at or above failOn).
  open   out/demo/report.html         each page with findings, its broken links outlined and numbered
  read   out/demo/report.md           the same for a pull request or a step summary
  then   export PATH="$PWD/.build/release:\$PATH"
         pdfpipe run link-audit YOUR-FOLDER --offline     your own PDFs (drop --offline to check web links)
         pdfpipe pipelines                                 the built-in pipelines; README.md, "Using it in CI"
NEXT
