#!/usr/bin/env bash
# Object storage and the merge (#46), on this machine:
#   1. N documents (default 1,000) in a loopback S3 store (moto, scripts/s3-fixture.py): the link
#      audit from the store into the store beside the same run from local disk (throughput ratio).
#   2. The same run SIGKILLed once half of its results are written, then rerun: result objects
#      (duplicates: objects beyond N) and the documents the rerun redid.
#   3. The link audit with the inventory at 52 and at LARGE (default 2,080) documents: time per
#      document and peak memory.
#   4. The LARGE run in 8 shards, merged: merge time beside the one-machine run, peak memory of
#      the merge at 208 and at LARGE documents, and a two-level merge (4 + 4 shards, then the two)
#      against the one-level merge.
#
#   bench/objectstore.sh [N] [LARGE]      (ONLY=merge: parts 3 and 4 alone)
#
# The documents: Debian's TeX manuals (texlive-latex-base-doc, texlive-latex-recommended-doc; the
# first 52 that qpdf checks clean), repeated as hard links in numbered folders.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000}
large=${2:-2080}
cache=bench/.cache/objectstore
work=${TMPDIR:-/tmp}/pdfpipe-objectstore
rm -rf "$work" && mkdir -p "$work" "$cache"
bash scripts/setup.sh --test >/dev/null
py=$PWD/.build/moto/bin/python3  # moto and boto3 (scripts/setup.sh --test)
command -v /usr/bin/time >/dev/null || apt-get install -y -qq time >/dev/null
if [ ! -d "$cache/x" ]; then
  (cd "$cache" && apt-get download texlive-latex-base-doc texlive-latex-recommended-doc >/dev/null 2>&1 \
    && for f in *.deb; do dpkg-deb -x "$f" x; done && rm -f ./*.deb)
fi
swift build -c release --product pdfpipe >/dev/null
pdfpipe=$PWD/.build/release/pdfpipe
mapfile -t base < <(find "$cache/x" -name '*.pdf' -size +1k | LC_ALL=C sort | while read -r f; do
  qpdf --check "$f" >/dev/null 2>&1 && echo "$f"; done | head -52)
batch() { # batch DIR COUNT
  mkdir -p "$1"
  for ((i = 0; i < $2; i++)); do d="$1/$((i / ${#base[@]}))"; mkdir -p "$d"; ln -f "${base[$((i % ${#base[@]}))]}" "$d/$i.pdf"; done
}
cat > "$work/audit.json" <<'JSON'
{ "stages": [ { "use": "resolve-destinations" }, { "use": "validate-links" } ], "report": { "formats": ["json"] } }
JSON
cat > "$work/inventory.json" <<'JSON'
{ "stages": [ { "use": "resolve-destinations" }, { "use": "validate-links", "with": { "inventory": true } } ],
  "report": { "formats": ["json"] } }
JSON
secs() { /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || true; cat "$work/time"; }
# median3 secs CMD… --out DIR …: the median wall time of three runs (DIR emptied before each) and
# the largest peak memory (KB) of the three.
median3() {
  local runs=() out="" prev="" a t kb
  for a in "$@"; do [ "$prev" = --out ] && out=$a; prev=$a; done
  peak=0
  for _ in 1 2 3; do
    rm -rf "$out"
    read -r t kb < <("$@")
    runs+=("$t")
    [ "$kb" -gt "$peak" ] && peak=$kb
  done
  echo "$(printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p) $peak"
}

# The store.
"$py" scripts/s3-fixture.py --minutes 30 > "$work/fixture.json" 2>/dev/null &
fixture=$!
trap 'kill $fixture 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$work/fixture.json" ] && break; sleep 0.2; done
AWS_ACCESS_KEY_ID=$(jq -r .accessKey "$work/fixture.json")
AWS_SECRET_ACCESS_KEY=$(jq -r .secretKey "$work/fixture.json")
AWS_ENDPOINT_URL=$(jq -r .endpoint "$work/fixture.json")
bucket=$(jq -r .bucket "$work/fixture.json")
export AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_ENDPOINT_URL AWS_REGION=us-east-1
if [ "${ONLY:-}" != merge ]; then  # ONLY=merge: parts 3 and 4 alone
batch "$work/in" "$n"
"$py" - "$work/in" "$bucket" <<'PY'
import boto3, os, sys
from concurrent.futures import ThreadPoolExecutor
from botocore.config import Config
root, bucket = sys.argv[1], sys.argv[2]
s3 = boto3.client("s3", config=Config(s3={"addressing_style": "path"}, max_pool_connections=16))
files = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs]
with ThreadPoolExecutor(16) as ex:
    list(ex.map(lambda p: s3.upload_file(p, bucket, "in/" + os.path.relpath(p, root)), files))
PY
count() { "$py" - "$bucket" "$1" <<'PY'
import boto3, sys
from botocore.config import Config
s3 = boto3.client("s3", config=Config(s3={"addressing_style": "path"}))
n = 0
for page in s3.get_paginator("list_objects_v2").paginate(Bucket=sys.argv[1], Prefix=sys.argv[2]):
    n += page.get("KeyCount", 0)
print(n)
PY
}

echo "## 1. $n documents: local disk vs the loopback store (link audit, --jobs 2; median of 3)"
median() { sort -n | sed -n 2p; }
local_t=$(for r in 1 2 3; do rm -rf "$work/out-local"; secs "$pdfpipe" run "$work/audit.json" "$work/in" --out "$work/out-local" --offline --jobs 2 --quiet --fail-on never | cut -d' ' -f1; done | median)
store_t=$(for r in 1 2 3; do secs "$pdfpipe" run "$work/audit.json" "s3://$bucket/in" --out "s3://$bucket/run$r" --offline --jobs 2 --quiet --fail-on never | cut -d' ' -f1; done | median)
echo "local ${local_t} s, store ${store_t} s: store throughput $(python3 -c "print(f'{$local_t/$store_t:.0%}')") of local"
# What the store itself allows: the same requests (a GET of each object, a PUT of a result-sized
# object each) from boto3 in 8 threads, without pdfpipe. moto is a Python server: this floor, not
# pdfpipe, bounds the run from the store.
floor=$("$py" - "$bucket" <<'PY'
import boto3, sys, time
from concurrent.futures import ThreadPoolExecutor
from botocore.config import Config
s3 = boto3.client("s3", config=Config(s3={"addressing_style": "path"}, max_pool_connections=16))
keys = [o["Key"] for p in s3.get_paginator("list_objects_v2").paginate(Bucket=sys.argv[1], Prefix="in/") for o in p.get("Contents", [])]
t = time.time()
with ThreadPoolExecutor(8) as ex:
    list(ex.map(lambda k: s3.get_object(Bucket=sys.argv[1], Key=k)["Body"].read(), keys))
    list(ex.map(lambda i: s3.put_object(Bucket=sys.argv[1], Key=f"floor/{i}", Body=b"x" * 4000), range(len(keys))))
print(f"{time.time() - t:.2f}")
PY
)
echo "the store's own floor (the same GETs and PUTs from boto3, 8 threads): ${floor} s; pdfpipe from the store: $(python3 -c "print(f'{$store_t/$floor:.2f}')")x the floor"

echo "## 2. SIGKILL after $((n / 2)) results, then rerun"
PDFPIPE_TEST_KILL_AFTER_RESULTS=$((n / 2)) "$pdfpipe" run "$work/audit.json" "s3://$bucket/in" --out "s3://$bucket/killed" --offline --jobs 2 --quiet --fail-on never >/dev/null 2>&1 || true
before=$(count killed/results/)
"$pdfpipe" run "$work/audit.json" "s3://$bucket/in" --out "s3://$bucket/killed" --offline --jobs 2 --fail-on never 2>"$work/rerun" >/dev/null || true
after=$(count killed/results/)
echo "results before the rerun: $before; after: $after of $n (duplicates: $((after > n ? after - n : 0)))"
grep -E "resume:|wrote [0-9]+ result" "$work/rerun" | sed 's/^/  /'

fi
echo "## 3. link audit with the inventory: time per document"
rm -rf "$work/in"
for size in 52 "$large"; do
  batch "$work/b$size" "$size"
  read -r t kb < <(median3 secs "$pdfpipe" run "$work/inventory.json" "$work/b$size" --out "$work/o$size" --offline --jobs 2 --quiet --fail-on never)
  echo "$size documents: $t s (median of 3), $(python3 -c "print(f'{$t/$size*1000:.1f}')") ms a document, peak $((kb / 1024)) MB, results.jsonl $(du -h "$work/o$size/results.jsonl" | cut -f1)"
  [ "$size" = 52 ] && rm -rf "$work/b52" "$work/o52"
done
one=$t

echo "## 4. merge: 8 shards of $large, and of $((large / 10))"
for size in $((large / 10)) "$large"; do
  [ -d "$work/b$size" ] || batch "$work/b$size" "$size"
  for k in $(seq 1 8); do
    "$pdfpipe" run "$work/inventory.json" "$work/b$size" --shard "$k/8" --out "$work/s$size/shard-$k" --offline --jobs 2 --quiet --fail-on never >/dev/null 2>&1 || true
  done
  read -r t kb < <(median3 secs "$pdfpipe" merge "$work/s$size" --out "$work/m$size" --quiet --fail-on never)
  echo "merge of 8 shards, $size documents: $t s (median of 3), peak $((kb / 1024)) MB"
done
echo "merge / one-machine run ($large documents): $(python3 -c "print(f'{$t/$one:.1%}')")"
mkdir -p "$work/half1" "$work/half2"
for k in 1 2 3 4; do ln -s "$work/s$large/shard-$k" "$work/half1/shard-$k"; ln -s "$work/s$large/shard-$((k + 4))" "$work/half2/shard-$((k + 4))"; done
"$pdfpipe" merge "$work/half1" --out "$work/mh1" --quiet --fail-on never --allow-partial >/dev/null 2>&1 || true
"$pdfpipe" merge "$work/half2" --out "$work/mh2" --quiet --fail-on never --allow-partial >/dev/null 2>&1 || true
"$pdfpipe" merge "$work/mh1" "$work/mh2" --out "$work/mtree" --quiet --fail-on never >/dev/null 2>&1 || true
strip() { jq -S 'del(.generatedAt, .locations, .incomplete, .documents[].timings)' "$1"; }
if diff <(strip "$work/m$large/report.json") <(strip "$work/mtree/report.json") >/dev/null; then
  echo "two-level merge (4 + 4 shards, then both): the same report"
else
  echo "two-level merge: DIFFERENT from the one-level merge"
fi
rm -rf "$work"
