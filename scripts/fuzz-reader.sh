#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer + AddressSanitizer) of pdfpipe's own PDF object reader, seeded
# with samples/*.pdf. Usage: bash scripts/fuzz-reader.sh [SECONDS=60]
# Crashing inputs are written to fuzz-findings/ (libFuzzer crash-* files). Leak detection is off:
# the Swift runtime keeps metadata caches to the end, which LeakSanitizer reports.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/fuzz/reader-build
mkdir -p "$out" fuzz-findings
flags=(-sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -package-name pdfpipe -I "$out" -L "$out")
source scripts/fuzz-build-reader.sh
swiftc "${flags[@]}" -I Sources/CZlib -I "$out/csystem" -module-name ReaderFuzz Fuzz/ReaderFuzz.swift \
  -lPDFReader -lSystemIO "$out/system.o" -lz -o .build/fuzz/reader 2> >(grep -v "ld.gold: warning" >&2)
corpus=.build/fuzz/reader-corpus
mkdir -p "$corpus"
cp samples/*.pdf "$corpus/"
ASAN_OPTIONS=detect_leaks=0 .build/fuzz/reader "$corpus" -max_total_time="${1:-60}" -max_len=65536 -dict=Fuzz/extreme-tokens.dict -artifact_prefix=fuzz-findings/ -print_final_stats=1 2>&1 |
  grep -E "stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|crash-|Fatal" || true
if compgen -G "fuzz-findings/crash-*" >/dev/null; then
  echo "crashing inputs in fuzz-findings/ — add each to a test before fixing it"
  exit 1
fi
echo "no crash"
