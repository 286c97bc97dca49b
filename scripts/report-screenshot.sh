#!/usr/bin/env bash
# Regenerates docs/report.png, the README's picture of the HTML report: the broken-link report of
# samples/broken-links.pdf in headless Chromium, its first screen (the report opens on the findings).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${PDFPIPE_BIN:-.build/debug/pdfpipe}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
PDFPIPE_FIXED_DATE=2026-01-01T00:00:00Z "$bin" run broken-link-report samples/broken-links.pdf --offline --out "$out" --quiet || true
cat > "$out/shot.html" <<'HTML'
<!DOCTYPE html><html><body style="margin:0"><iframe id="f" src="report.html" style="width:980px;height:760px;border:0"></iframe>
<script>document.getElementById('f').addEventListener('load',function(){var d=this.contentDocument;
d.querySelectorAll('img').forEach(function(i){i.loading='eager';});
});</script></body></html>
HTML
chromium --headless --no-sandbox --disable-gpu --allow-file-access-from-files --hide-scrollbars \
  --window-size=980,760 --virtual-time-budget=4000 --screenshot="$out/report.png" "file://$out/shot.html" 2>/dev/null
mv "$out/report.png" docs/report.png
echo "wrote docs/report.png"
