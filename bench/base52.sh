# Shared by bench/scale.sh and bench/slurm-scale.sh (sourced from the repository root): builds
# pdfpipe (release) into $pdfpipe, and sets $base to the first 52 PDFs of the real-world corpus
# (bench/realworld.sh builds it: Debian's manuals, pypdf/pikepdf test files, generated ones) that
# open cleanly and are not encrypted, in a stable order.
corpus=bench/.cache/realworld
[ -d "$corpus/debian" ] || bash bench/realworld.sh >/dev/null
command -v /usr/bin/time >/dev/null || apt-get install -y -qq time >/dev/null
swift build -c release --product pdfpipe >/dev/null
pdfpipe=$PWD/.build/release/pdfpipe
mapfile -t base < <(find "$corpus/debian" "$corpus/generated" -name '*.pdf' -size +1k | LC_ALL=C sort | while read -r f; do
  qpdf --check "$f" >/dev/null 2>&1 && echo "$f"; done | head -52)
