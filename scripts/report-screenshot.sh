#!/usr/bin/env bash
# Regenerates docs/report.png, the README's picture of the HTML report: the broken-link report of
# samples/broken-links.pdf in headless Chromium, scrolled to its first page.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${PDFPIPE_BIN:-.build/debug/pdfpipe}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
PDFPIPE_FIXED_DATE=2026-01-01T00:00:00Z "$bin" run pipelines/broken-link-report.json samples/broken-links.pdf --offline --out "$out" --quiet || true
cat > "$out/shot.html" <<'HTML'
<!DOCTYPE html><html><body style="margin:0"><iframe id="f" src="report.html" style="width:980px;height:760px;border:0"></iframe>
<script>document.getElementById('f').addEventListener('load',function(){var d=this.contentDocument;
d.querySelectorAll('img').forEach(function(i){i.loading='eager';});
var w=this.contentWindow;setTimeout(function(){var p=d.querySelectorAll('.page')[1],h=d.querySelector('header').getBoundingClientRect().height;w.scrollTo(0,p.getBoundingClientRect().top+w.scrollY-h-40);},300);});</script></body></html>
HTML
chromium --headless --no-sandbox --disable-gpu --allow-file-access-from-files --hide-scrollbars \
  --window-size=980,760 --virtual-time-budget=4000 --screenshot="$out/report.png" "file://$out/shot.html" 2>/dev/null
mv "$out/report.png" docs/report.png
echo "wrote docs/report.png"
