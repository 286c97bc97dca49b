#!/usr/bin/env bash
# Mutation fuzzing of everything that reads a PDF: N mutated samples (seeded, reproducible) through
# inspect (with the poppler cross-check and the inventory), resolve-destinations, validate-links,
# extract-text and thumbnails with the link overlay, isolated, 20 s per document. Prints what went
# wrong; files that crashed, hung or ran out of memory are copied to fuzz-findings/ to become tests.
# Usage: bash scripts/fuzz.sh [N=5000] [SEED=2] [ENGINE=poppler]   (ENGINE mupdf: the MuPDF build)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5000}
seed=${2:-2}
engine=${3:-poppler}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=.build/release/pdfpipe
if [ "$engine" = mupdf ]; then
  swift build -c release --traits MuPDF --scratch-path .build/mupdf --product pdfpipe >/dev/null
  bin=.build/mupdf/release/pdfpipe
else
  swift build -c release --product pdfpipe >/dev/null
fi
python3 scripts/mutate.py samples "$work/in" "$n" "$seed"
cat >"$work/p.json" <<'JSON'
{"stages": [{"use": "inspect", "with": {"crossCheck": true, "annotations": "list", "forms": true, "attachments": true}},
            {"use": "resolve-destinations"}, {"use": "validate-links", "with": {"gotor": true, "inventory": true}},
            {"use": "extract-text", "with": {"format": "json", "engine": "ENGINE"}}, {"use": "thumbnails", "with": {"width": 40, "overlay": "links", "engine": "ENGINE"}}]}
JSON
sed -i "s/ENGINE/$engine/g" "$work/p.json"
start=$(date +%s)
"$bin" run "$work/p.json" "$work/in" --out "$work/out" --isolate --timeout 20 --quiet --fail-on never
echo "$n mutants (seed $seed) in $(($(date +%s) - start)) s"
python3 - "$work" <<'PY'
import collections, json, os, shutil, sys
work = sys.argv[1]
r = json.load(open(os.path.join(work, "out/report.json")))
bad = ("pdf.crashed", "pdf.timeout", "pdf.out-of-memory")
print("summary:", r["summary"])
print("first finding of failed documents:", dict(collections.Counter(d["findings"][0]["rule"] for d in r["documents"] if d["status"] == "failed")))
found = [(d["path"], f) for d in r["documents"] for f in d.get("findings", []) if f["rule"] in bad]
print(f"crashed, timed out or out of memory: {len(found)}")
for path, f in found:
    print(f"  {path}: {f['rule']}: {f['message']}")
    os.makedirs("fuzz-findings", exist_ok=True)
    shutil.copy(os.path.join(work, "in", path), "fuzz-findings/")
sys.exit(1 if found else 0)
PY
