#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer + AddressSanitizer) of the destination and link parsers
# (DestinationTable, Destination, PDFAction, LinkAudit, PDFPipeWeb's URIReference), seeded with samples/*.pdf, and
# of the HTML anchor tokenizer (HTMLAnchors) what a page says (SilentPass) and a web archive's index answer (WebArchive): the same bytes read as a web page.
# Usage: bash scripts/fuzz-links.sh [SECONDS=60]
# The modules are built with the instrumentation, as SwiftPM lays them out: PDFPipeCore, SystemIO and
# PDFReader (no C library but zlib), and the link code with the harness
# (Fuzz/LinksFuzz.swift; Fuzz/FuzzRemoteDocuments.swift stands in for the qpdf-backed GoToR file loader).
# Crashing inputs go to fuzz-findings/; leak detection is off (the Swift runtime's caches).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/fuzz/links
mkdir -p "$out" fuzz-findings
flags=(-sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -package-name pdfpipe -I "$out" -L "$out")
source scripts/fuzz-build-reader.sh
swiftc "${flags[@]}" -I "$out/csystem" -emit-library -static -emit-module -module-name PDFPipeCore \
  $(find Sources/PDFPipeCore -name '*.swift') -o "$out/libPDFPipeCore.a" -emit-module-path "$out/PDFPipeCore.swiftmodule"
# PDFPipeWeb's files that need no C library (URI syntax, the HTML anchor tokenizer, a target's facts,
# the fetch model a link's check records and what a page says, the web options).
w=Sources/PDFPipeWeb
swiftc "${flags[@]}" -I Sources/CZlib -I "$out/csystem" -emit-library -static -emit-module -module-name PDFPipeWeb \
  $w/URIReference.swift $w/HTMLAnchors.swift $w/RemoteDocument.swift $w/URLFetch.swift $w/SilentPass.swift $w/WebArchive.swift $w/ExternalSection.swift \
  -o "$out/libPDFPipeWeb.a" -emit-module-path "$out/PDFPipeWeb.swiftmodule"
l=Sources/PDFPipeStages/Links
swiftc "${flags[@]}" -I Sources/CZlib -I "$out/csystem" -module-name LinksFuzz \
  $l/LinkRules.swift $l/DestinationRules.swift $l/External/ExternalLinkRules.swift $l/Suggestions.swift $l/Destination.swift $l/DestinationTable.swift $l/PDFAction.swift $l/LinkRecord.swift $l/LinkAudit.swift $l/LinkAudit+Destinations.swift $l/LinkAudit+URIs.swift $l/LinkAudit+Outline.swift $l/ValidateLinksOptions.swift $l/URISchemes.swift $l/RemoteDocument+Source.swift $l/Fix/LinkFix.swift \
  Sources/PDFPipeStages/PageGeometry.swift Fuzz/FuzzRemoteDocuments.swift Fuzz/LinksFuzz.swift \
  -lPDFPipeWeb -lPDFPipeCore -lPDFReader -lSystemIO "$out/system.o" -lz -o "$out/fuzz-links" 2> >(grep -v "ld.gold: warning" >&2)
corpus=.build/fuzz/links-corpus
mkdir -p "$corpus"
cp samples/*.pdf "$corpus/"
# A web page for the anchor tokenizer to start from.
printf '%s' '<!DOCTYPE html><html><head><title>t</title><style>p{}</style></head><body><h1 id="a">x</h1><a name=b>y</a><!-- c --><script>z</script><p id='"'"'&#x43;&amp;'"'"'></p></body></html>' > "$corpus/page.html"
# A web archive's index answers: the Wayback Machine's JSON rows and pywb's NDJSON.
printf '%s\n' '[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],' '["org,e)/", "20200610120000", "http://www.e.org:80/", "text/html", "200", "D", "1"]]' > "$corpus/cdx.json"
printf '%s\n' '{"timestamp": "20190304050607", "url": "https://e.org/a?x=1", "status": "200"}' > "$corpus/cdx.ndjson"
ASAN_OPTIONS=detect_leaks=0 "$out/fuzz-links" "$corpus" -max_total_time="${1:-60}" -max_len=65536 -dict=Fuzz/extreme-tokens.dict -artifact_prefix=fuzz-findings/ -print_final_stats=1 2>&1 |
  grep -E "stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|crash-|Fatal" || true
if compgen -G "fuzz-findings/crash-*" >/dev/null; then
  echo "crashing inputs in fuzz-findings/ — add each to a test before fixing it"
  exit 1
fi
echo "no crash"
