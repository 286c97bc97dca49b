#!/usr/bin/env bash
# Survival by default (issue 44): each hostile file of bench/hostile.py in one batch with the
# samples, WITHOUT --isolate, release build: seconds, peak RSS of the whole run (the parent or its
# largest worker, as /usr/bin/time reports it), whether every good document's result is the one of a
# clean run, and what the hostile document got. Then a 10 MB input truncated to 4 KB while it is
# read, the three manuals cut to 1 MB early in a link audit, and the bulk thumbnail run with the default (workers) against --no-isolate.
#
#   bench/survival.sh      (needs python3; fetches the manuals of bench/common.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
work=$(mktemp -d)
trap 'kill $tarpit 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
python3 bench/hostile.py "$work/hostile" "$port"
# A server that accepts connections and never answers.
python3 -c "
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', $port)); s.listen(128); kept = []
while True: kept.append(s.accept()[0])" &
tarpit=$!
mkdir -p "$work/good"
cp samples/links-internal.pdf samples/text-search.pdf samples/rotated-cropped.pdf samples/outlines.pdf samples/uri-links.pdf "$work/good/"

thumbs='{"stages": [{"use": "thumbnails", "with": {"dpi": 150, "pages": "all", "incremental": false}}]}'
search='{"stages": [{"use": "extract-text", "with": {"format": "none", "search": [{"term": "(a+)+$", "regex": true}]}}]}'
web='{"stages": [{"use": "validate-links", "with": {"external": {"enabled": true, "allowPrivateAddresses": true}}}]}'
audit='{"stages": [{"use": "validate-links"}, {"use": "thumbnails", "with": {"pages": "all", "incremental": false}}]}'

# case NAME FILE PIPELINE [FLAGS...]
case_() {
  local name=$1 file=$2 pipeline=$3; shift 3
  echo "$pipeline" > "$work/$name.json"
  rm -rf "$work/in" && mkdir -p "$work/in" && cp "$work/good/"*.pdf "$work/in/" && cp "$work/hostile/$file" "$work/in/"
  "$pdfpipe" run "$work/$name.json" "$work/good" --out "$work/clean-$name" --quiet --fail-on never "$@" >/dev/null 2>&1 || true
  local s e code
  s=$(date +%s.%N)
  code=0
  /usr/bin/time -o "$work/rss" -f '%M' "$pdfpipe" run "$work/$name.json" "$work/in" --out "$work/out-$name" --quiet --fail-on never "$@" >/dev/null 2>&1 || code=$?
  e=$(date +%s.%N)
  python3 - "$work/clean-$name/report.json" "$work/out-$name/report.json" "$file" "$name" "$(echo "$e - $s" | bc -l)" "$(tail -1 "$work/rss")" "$code" <<'PY'
import json, sys
clean, batch, hostile, name, secs, rss, code = sys.argv[1:]
def docs(p):
    try: r = json.load(open(p))
    except Exception: return None
    out = {}
    for d in r["documents"]:
        d.pop("timings", None); d.pop("workingPath", None)
        for f in d.get("findings", []): f.pop("fingerprint", None)
        out[d["path"]] = d
    return out
c, b = docs(clean), docs(batch)
same = b is not None and all(b.get(k) == v for k, v in c.items())
got = "no report" if b is None else ", ".join(sorted({f["rule"] + (":" + f["budget"] if "budget" in f else "") for f in b.get(hostile, {}).get("findings", [])})) or "nothing"
print(f"{name:<16} {float(secs):7.1f} s {int(rss)//1024:6d} MB  exit {code}  good docs same: {'yes' if same else 'NO'}  {hostile}: {got}")
PY
}
printf '%-16s %9s %9s\n' case time "peak RSS"
case_ type3 type3-recursion.pdf "$thumbs"
case_ huge-pages huge-pages.pdf "$thumbs"
case_ operator-bomb operator-bomb.pdf "$thumbs"
case_ search search-bomb.pdf "$search"
case_ web-tarpit tarpit-links.pdf "$web" --timeout 10
case_ xref-columns xref-columns-1e12.pdf "$audit"

# Truncated while it is read: a copy of pgfmanual.pdf cut to 4 KB two seconds into the run.
mkdir -p "$work/trunc" && cp "$cache/pgfmanual.pdf" "$work/trunc/big.pdf" && cp "$work/good/"*.pdf "$work/trunc/"
echo "$audit" > "$work/trunc.json"
s=$(date +%s.%N)
( sleep 2; truncate -s 4096 "$work/trunc/big.pdf" ) &
cutter=$!
code=0
"$pdfpipe" run "$work/trunc.json" "$work/trunc" --out "$work/out-trunc" --quiet --fail-on never --jobs 1 >/dev/null 2>&1 || code=$?
e=$(date +%s.%N)
wait "$cutter"
python3 -c "
import json; r = json.load(open('$work/out-trunc/report.json'))
d = {x['path']: x for x in r['documents']}
print('truncated        %7.1f s  exit $code  documents: %d  big.pdf: %s' % ($e - $s, len(d), ', '.join(f['rule'] for f in d['big.pdf']['findings'])))"

# Truncated early in a link audit (issue 60, class 7): the three manuals, each cut to 1 MB a fraction of
# a second into an offline audit. Before ff1e072 the reader went on through the zeros (5-26 s on
# these; a 300 s case was seen); now each cut file stops its reader once.
for delay in 0.15 0.3; do
  rm -rf "$work/cut" "$work/out-cut" && mkdir -p "$work/cut" && cp "${files[@]}" "$work/cut/"
  s=$(date +%s.%N)
  ( sleep "$delay"; for f in "$work/cut/"*.pdf; do truncate -s 1M "$f"; done ) &
  cutter=$!
  code=0
  "$pdfpipe" run link-audit "$work/cut" --offline --out "$work/out-cut" --quiet --fail-on never >/dev/null 2>&1 || code=$?
  e=$(date +%s.%N)
  wait "$cutter"
  python3 -c "
import json; r = json.load(open('$work/out-cut/report.json'))
rules = sorted({f['rule'] for d in r['documents'] for f in d['findings'] if f['severity'] == 'error'})
print('cut at %-5s s    %7.1f s  exit $code  documents: %d  errors: %s' % ('$delay', $e - $s, len(r['documents']), ', '.join(rules)))"
done

# The default's cost on the bulk thumbnail run (bench/thumbnails.sh's first row).
echo '{"stages": [{"use": "thumbnails", "with": {"width": 200, "pages": "all", "incremental": false}}]}' > "$work/bulk.json"
w=$(median "$pdfpipe" run "$work/bulk.json" "${files[@]}" --out "$work/b1" --jobs 1 --quiet --fail-on never)
n=$(median "$pdfpipe" run "$work/bulk.json" "${files[@]}" --out "$work/b2" --jobs 1 --quiet --fail-on never --no-isolate)
printf 'bulk thumbnails (3 manuals): default (workers) %.2f s, --no-isolate %.2f s: %.3fx\n' "$w" "$n" "$(echo "$w / $n" | bc -l)"
