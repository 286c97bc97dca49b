#!/usr/bin/env bash
# The rendering and text engines side by side on the same 2 cores (#20):
#   A. the first page of every Debian manual of the real-world corpus (bench/realworld.sh fetches
#      it), 200 px wide, PNG: the common bulk-thumbnail case;
#   B. every page of the three manuals of bench/common.sh, 200 px wide, PNG;
#   C. the text of those three manuals.
# pdfpipe runs with poppler (the default build) and with MuPDF (a build with the MuPDF trait), both
# --jobs 2, one process; the peers run two at a time (xargs -P2): mutool (mupdf-tools), pdftocairo
# and pdftotext (poppler-utils), pypdfium2 and PyMuPDF (PyPI, in bench/.cache/venv). Medians of
# three runs; each line ends with the tool's time over pdfpipe-with-MuPDF's. Then the peak RSS of
# one page worker on pgfmanual.pdf with either engine.
#   bash bench/engines.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
scripts/setup.sh --test --mupdf >/dev/null
swift build -c release --traits MuPDF --scratch-path .build/mupdf --product pdfpipe >/dev/null
mupdf=.build/mupdf/release/pdfpipe
[ -d "$cache/realworld/debian" ] || bash bench/realworld.sh >/dev/null
[ -x "$cache/venv/bin/python" ] || python3 -m venv "$cache/venv"
"$cache/venv/bin/python" -c "import pypdfium2, PIL, pymupdf" 2>/dev/null || "$cache/venv/bin/pip" install -q pypdfium2 pillow pymupdf
py="$cache/venv/bin/python"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mapfile -t corpus < <(find "$cache/realworld/debian" -name '*.pdf' | sort)
printf '%s\n' "${corpus[@]}" > "$out/corpus.txt"
pipe() { echo "{\"stages\": [$1], \"report\": {\"formats\": [\"json\"], \"failOn\": \"never\"}}" > "$out/$2.json"; }
for e in poppler mupdf; do
  pipe "{\"use\": \"thumbnails\", \"with\": {\"width\": 200, \"pages\": \"1\", \"incremental\": false, \"engine\": \"$e\"}}" "first-$e"
  pipe "{\"use\": \"thumbnails\", \"with\": {\"width\": 200, \"pages\": \"all\", \"incremental\": false, \"engine\": \"$e\"}}" "all-$e"
  pipe "{\"use\": \"extract-text\", \"with\": {\"engine\": \"$e\"}}" "text-$e"
done
p2() { median sh -c "xargs -P2 -n1 sh -c '$1' $out < $2"; }
printf '%s\n' "${files[@]}" > "$out/manuals.txt"
run() { median "$1" run "$out/$2.json" "${@:3}" --out "$out/r" --jobs 2 --quiet; }
row() { printf '%-44s %8.2f %8.2fx\n' "$1" "$2" "$(echo "$2 / $3" | bc -l)"; }
pages=0
for f in "${files[@]}"; do pages=$((pages + $(pdfinfo "$f" | awk '/^Pages:/ {print $2}'))); done

echo "A. first page of ${#corpus[@]} real documents, 200 px PNG        seconds   / mupdf engine"
a_pop=$(run "$pdfpipe" first-poppler "${corpus[@]}")
a_mu=$(run "$mupdf" first-mupdf "${corpus[@]}")
a_mt=$(p2 'mutool draw -q -w 200 -o "$0/m-$(echo "$1" | md5sum | cut -c1-12).png" "$1" 1 2>/dev/null' "$out/corpus.txt")
a_pc=$(p2 'pdftocairo -png -singlefile -f 1 -l 1 -scale-to-x 200 -scale-to-y -1 "$1" "$0/c-$(echo "$1" | md5sum | cut -c1-12)" 2>/dev/null' "$out/corpus.txt")
a_pd=$(p2 "$py bench/pdfium_thumbs.py \"\$1\" \"\$0/p\" 1 1" "$out/corpus.txt")
row "pdfpipe engine mupdf, --jobs 2" "$a_mu" "$a_mu"
row "pdfpipe engine poppler, --jobs 2" "$a_pop" "$a_mu"
row "mutool draw, xargs -P2" "$a_mt" "$a_mu"
row "pdftocairo, xargs -P2" "$a_pc" "$a_mu"
row "pypdfium2, xargs -P2" "$a_pd" "$a_mu"

echo "B. every page of the three manuals ($pages pages), 200 px PNG  seconds   / mupdf engine"
b_pop=$(run "$pdfpipe" all-poppler "${files[@]}")
b_mu=$(run "$mupdf" all-mupdf "${files[@]}")
b_mt=$(p2 'mutool draw -q -w 200 -o "$0/m-$(basename "$1" .pdf)-%d.png" "$1" 2>/dev/null' "$out/manuals.txt")
b_pd=$(p2 "$py bench/pdfium_thumbs.py \"\$1\" \"\$0/p\"" "$out/manuals.txt")
row "pdfpipe engine mupdf, --jobs 2" "$b_mu" "$b_mu"
row "pdfpipe engine poppler, --jobs 2" "$b_pop" "$b_mu"
row "mutool draw, xargs -P2" "$b_mt" "$b_mu"
row "pypdfium2, xargs -P2" "$b_pd" "$b_mu"

echo "C. text of the three manuals                                seconds   / mupdf engine"
c_pop=$(run "$pdfpipe" text-poppler "${files[@]}")
c_mu=$(run "$mupdf" text-mupdf "${files[@]}")
c_mt=$(p2 'mutool draw -q -F txt -o "$0/$(basename "$1" .pdf).txt" "$1" 2>/dev/null' "$out/manuals.txt")
c_pt=$(p2 'pdftotext "$1" "$0/$(basename "$1" .pdf).txt" 2>/dev/null' "$out/manuals.txt")
c_pm=$(p2 "$py bench/pymupdf_text.py \"\$1\" \"\$0/pm-\$(basename \"\$1\" .pdf).txt\"" "$out/manuals.txt")
row "pdfpipe engine mupdf, --jobs 2" "$c_mu" "$c_mu"
row "pdfpipe engine poppler, --jobs 2" "$c_pop" "$c_mu"
row "mutool draw -F txt, xargs -P2" "$c_mt" "$c_mu"
row "pdftotext, xargs -P2" "$c_pt" "$c_mu"
row "PyMuPDF get_text, xargs -P2" "$c_pm" "$c_mu"

for e in poppler mupdf; do
  bin=$pdfpipe; [ "$e" = mupdf ] && bin=$mupdf
  pipe "{\"use\": \"thumbnails\", \"with\": {\"width\": 200, \"pages\": \"all\", \"incremental\": false, \"engine\": \"$e\", \"pageWorkers\": 1}}" "rss-$e"
  /usr/bin/time -o "$out/rss" -f '%M' "$bin" run "$out/rss-$e.json" "$cache/pgfmanual.pdf" --out "$out/r" --jobs 1 --quiet >/dev/null 2>&1 || true
  printf 'peak RSS, one worker, every page of pgfmanual.pdf, %s: %d MB\n' "$e" "$(($(tail -1 "$out/rss") / 1024))"
done
