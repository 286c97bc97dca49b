#!/usr/bin/env bash
# The GitHub Action's entrypoint (action.yml): runs pdfpipe on the runner's workspace with the
# action's inputs (or, with `merge`, joins shards' reports), prints the annotations, appends the report to the step summary, writes the
# step's outputs, and ends with pdfpipe's exit code, so the step fails by the gate (--fail-on).
# Installed in the image as /usr/share/pdfpipe/github-action.sh (scripts/build-deb.sh).
#
# Inputs arrive as GitHub passes them to actions: INPUT_<NAME> with the name upper-cased and its
# hyphens kept (INPUT_FAIL-ON, INPUT_WORKING-DIRECTORY), which a shell cannot name, hence printenv.
set -uo pipefail
input() { printenv "INPUT_$1" || true; }

pipeline=$(input PIPELINE)
inputs=$(input INPUTS)
args=$(input ARGS)
fail_on=$(input FAIL-ON)
format=$(input FORMAT)
baseline=$(input BASELINE)
directory=$(input WORKING-DIRECTORY)
out=$(input OUT)
merge=$(input MERGE)
annotations=$(input ANNOTATIONS)

cd "${GITHUB_WORKSPACE:-.}" || exit 3
if [ -n "$directory" ]; then cd "$directory" || { echo "::error title=pdfpipe::no folder '$directory'"; exit 2; }; fi
[ -n "$pipeline" ] || pipeline=pipelines/link-audit.json
[ -n "$out" ] || out=out/pdfpipe
# What the action itself needs (the report, SARIF for code scanning, the page for people, the
# summary and the annotations), then whatever the workflow asks for.
formats=json,sarif,html,markdown,github
[ -n "$format" ] && formats="$formats,$format"

# Inputs, shard reports and extra arguments: separated by spaces or line breaks (no shell is
# involved: nothing in them is expanded or run).
if [ -n "$merge" ]; then
  # The gate of a sharded run: the shards' reports (files, or folders of them) merged.
  read -r -d '' -a reports <<<"$merge"
  command=(pdfpipe merge "${reports[@]}")
else
  read -r -d '' -a listed <<<"$inputs"
  command=(pdfpipe run "$pipeline" "${listed[@]}")
fi
command+=(--out "$out" --format "$formats")
[ -n "$fail_on" ] && command+=(--fail-on "$fail_on")
[ -n "$baseline" ] && command+=(--baseline "$baseline")
read -r -d '' -a extra <<<"$args"
command+=("${extra[@]}")

echo "pdfpipe: ${command[*]}"
"${command[@]}"
code=$?

# A shard's step leaves the annotations and the summary to the merge's (annotations: false).
if [ "$annotations" != "false" ]; then
  [ -f "$out/github.txt" ] && cat "$out/github.txt"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out/report.md" ]; then cat "$out/report.md" >>"$GITHUB_STEP_SUMMARY"; fi
fi

# A number from report.json's summary (or baseline) object: the report is written by pdfpipe with
# one key per line, so no JSON tool is needed in the image.
field() {
  awk -v block="\"$1\": {" -v key="\"$2\":" '
    index($0, block) == 3 { inside = 1; next }
    inside && /^  }/ { exit }
    inside && index($0, key) { gsub(/[^0-9]/, "", $2); print $2; exit }' "$out/report.json" 2>/dev/null
}
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "exit-code=$code"
    echo "errors=$(field summary errors)"
    echo "warnings=$(field summary warnings)"
    echo "new=$(field baseline new)"
    echo "report-json=$out/report.json"
    echo "report-sarif=$out/report.sarif"
    echo "report-html=$out/report.html"
  } >>"$GITHUB_OUTPUT"
fi
exit "$code"
