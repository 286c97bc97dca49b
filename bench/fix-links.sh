#!/usr/bin/env bash
# fix-links on loopback fixtures (#65): N documents (default 1,000) linking to scripts/http-fixture.py,
# the first one signed; the repaired copies judged by PDFium, MuPDF and pyHanko (bench/fix_links.py),
# and the time fix-links adds to the link check (medians of 3 runs each, --jobs 2).
#
#   bash bench/fix-links.sh [N]
#   bash bench/fix-links.sh set     the issue's fixture set (bench/fix_links.py): redirects, dead links
#                                   with and without archived captures, soft 404s, parked domains,
#                                   sign-in walls and healthy pages, with the loopback archive
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-1000}
n=$mode
[ "$mode" = set ] && n=0
cache=bench/.cache
[ -x "$cache/venv/bin/python" ] || python3 -m venv "$cache/venv"
"$cache/venv/bin/python" -c "import pyhanko, fitz, pypdfium2" 2>/dev/null || "$cache/venv/bin/pip" install -q pyhanko pymupdf pypdfium2
swift build -c release --product pdfpipe >/dev/null
pdfpipe=.build/release/pdfpipe
work=$(mktemp -d)
python3 scripts/http-fixture.py >"$work/port" 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 50); do [ -s "$work/port" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(head -1 "$work/port")"
if [ "$mode" = set ]; then
    "$cache/venv/bin/python" bench/fix_links.py make-set "$work/in" "$base"
    cat >"$work/set.json" <<JSON
{ "stages": [ { "use": "validate-links", "with": { "external": { "enabled": true, "allowPrivateAddresses": true,
    "retries": 0, "timeoutSeconds": 5, "maxPerHost": 16, "hostIntervalSeconds": 0,
    "archive": { "enabled": true, "index": "$base/archive/cdx", "replay": "$base/archive/web/" } } } },
  { "use": "fix-links" } ], "report": { "formats": ["json", "replacements"], "failOn": "never" } }
JSON
    s=$(date +%s.%N)
    "$pdfpipe" run "$work/set.json" "$work/in" --out "$work/out-set" --jobs 2 --quiet
    printf 'fixture set: %.2f s\n' "$(echo "$(date +%s.%N) - $s" | bc)"
    "$cache/venv/bin/python" bench/fix_links.py judge-set "$work/in" "$work/out-set" "$base"
    exit $?
fi
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -days 2 \
    -subj "/CN=pdfpipe bench" >/dev/null 2>&1
"$cache/venv/bin/python" bench/fix_links.py make "$work/in" "$base" "$n" "$work/key.pem" "$work/cert.pem"
ext='"external": {"enabled": true, "allowPrivateAddresses": true, "retries": 0, "timeoutSeconds": 5, "maxPerHost": 16, "hostIntervalSeconds": 0}'
cat >"$work/check.json" <<JSON
{ "stages": [ { "use": "validate-links", "with": { $ext } } ], "report": { "formats": ["json"], "failOn": "never" } }
JSON
cat >"$work/fix.json" <<JSON
{ "stages": [ { "use": "validate-links", "with": { $ext } }, { "use": "fix-links" } ],
  "report": { "formats": ["json", "replacements"], "failOn": "never" } }
JSON
seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
median() { sort -n | sed -n 2p; }
for p in check fix; do
    for _ in 1 2 3; do
        rm -rf "$work/out-$p"
        seconds "$pdfpipe" run "$work/$p.json" "$work/in" --out "$work/out-$p" --jobs 2 --quiet
    done | median >"$work/time-$p"
done
"$cache/venv/bin/python" bench/fix_links.py verify "$work/in" "$work/out-fix" "$work/cert.pem"
printf 'documents: %d; rewritten links: %s\n' "$n" \
    "$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$work/out-fix/replacements.json")"
printf 'link check: %.2f s; with fix-links: %.2f s (ratio %.3f)\n' "$(cat "$work/time-check")" "$(cat "$work/time-fix")" \
    "$(echo "$(cat "$work/time-fix") / $(cat "$work/time-check")" | bc -l)"
