#!/usr/bin/env bash
# pdfpipe trend on a big ledger (#67): N runs (default 100) of 1,000 findings about links each
# (100,000 link-runs), links breaking, being fixed and breaking again; the time trend takes
# (median of 3) and the size of trend.html, trend.json and trend.md.
#   bash bench/trend.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100}
swift build -c release --product pdfpipe >/dev/null
pdfpipe=$PWD/.build/release/pdfpipe
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/ledger" "$n" <<'PY'
import json, os, sys
folder, n = sys.argv[1], int(sys.argv[2])
os.makedirs(folder)
docs = [f"docs/manual-{d}.pdf" for d in range(50)]
for night in range(n):
    day = f"2026-{1 + night // 28 % 12:02d}-{1 + night % 28:02d}T03:00:00Z"
    links = [[k % 50, 1 + k % 30, f"https://host-{k % 37}.example/{(k + night // 10 * 100) % 1500}",
              "uri.http-error", "error", f"f{k}"] for k in range(1000)]
    record = {"format": "pdfpipe-ledger-record", "version": 1, "run": f"night-{night}", "time": day,
              "pipeline": "nightly", "documents": docs, "links": links}
    name = day.replace("-", "").replace(":", "").replace("T", "").replace("Z", "")
    json.dump(record, open(f"{folder}/{name}-night-{night}.json", "w"), separators=(",", ":"))
PY
times=$(for _ in 1 2 3; do
  t0=$(date +%s.%N); "$pdfpipe" trend "$work/ledger" --out "$work/trend" >/dev/null; t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
done | sort -n | sed -n 2p)
echo "runs: $n, link-runs: $((n * 1000)); pdfpipe trend ${times}s; trend.html $(stat -c %s "$work/trend/trend.html") bytes, trend.json $(stat -c %s "$work/trend/trend.json") bytes, trend.md $(stat -c %s "$work/trend/trend.md") bytes"
