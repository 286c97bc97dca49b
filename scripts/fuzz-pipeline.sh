#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer + AddressSanitizer) of the JSON parser/writer and the pipeline
# loader, seeded with pipelines/*.json. Usage: bash scripts/fuzz-pipeline.sh [SECONDS=60]
# Crashing inputs are written to fuzz-findings/ (libFuzzer crash-* files). Leak detection is off:
# the Swift runtime keeps metadata caches to the end, which LeakSanitizer reports.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/fuzz/pipeline-build
mkdir -p "$out" fuzz-findings
flags=(-sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -package-name pdfpipe -I "$out" -L "$out")
source scripts/fuzz-build-reader.sh  # SystemIO, which PDFPipeCore imports
swiftc "${flags[@]}" -I "$out/csystem" -module-name PDFPipeCore $(find Sources/PDFPipeCore -name '*.swift') \
  Fuzz/PipelineFuzz.swift -lSystemIO "$out/system.o" -o .build/fuzz/pipeline 2> >(grep -v "ld.gold: warning" >&2)
corpus=.build/fuzz/pipeline-corpus
mkdir -p "$corpus"
cp pipelines/*.json "$corpus/"
ASAN_OPTIONS=detect_leaks=0 .build/fuzz/pipeline "$corpus" -max_total_time="${1:-60}" -max_len=4096 -detect_leaks=0 -artifact_prefix=fuzz-findings/ -print_final_stats=1 2>&1 |
  grep -E "^#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|crash-" || true
if compgen -G "fuzz-findings/crash-*" >/dev/null; then
  echo "crashing inputs in fuzz-findings/ — add each to a test before fixing it"
  exit 1
fi
echo "no crash"
