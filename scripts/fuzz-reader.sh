#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer + AddressSanitizer) of pdfpipe's own PDF object reader, seeded
# with samples/*.pdf. Usage: bash scripts/fuzz-reader.sh [SECONDS=60]
# Crashing inputs are written to fuzz-findings/ (libFuzzer crash-* files). Leak detection is off:
# the Swift runtime keeps metadata caches to the end, which LeakSanitizer reports.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build/fuzz fuzz-findings
r=Sources/PDFBridge/Reader
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name PDFBridge -swift-version 6 -I Sources/CZlib -lz \
  $r/Inflate.swift $r/MappedFile.swift $r/PDFDictionary.swift $r/PDFObject.swift $r/PDFParser.swift $r/PDFReader.swift $r/PDFValue.swift \
  Sources/PDFBridge/PDFRect.swift Sources/PDFBridge/PDFNumber.swift Fuzz/ReaderFuzz.swift -o .build/fuzz/reader 2>&1 | grep -v "ld.gold: warning" || true
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
