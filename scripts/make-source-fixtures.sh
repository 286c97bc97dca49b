#!/usr/bin/env bash
# Builds the committed fixtures of source mapping and anchor diffs (Tests/Fixtures/sources/) from
# the sources beside them. Needs TeX Live (texlive-latex-base, -recommended, -extra: hyperref;
# texlive-xetex, texlive-fonts-recommended, lmodern, tex-gyre, latexmk), pandoc, chromium, and
# python3-venv (Sphinx from PyPI).
# The tests read the committed outputs; this script is how they were made, and how to remake them.
#   scripts/make-source-fixtures.sh
#
# anchors/: manual.tex (v1) and its rebuild as a release would change it (v2: 3 labels renamed,
# 2 removed, one chapter inserted), compiled with pdflatex (hyperref destlabel: each \label names
# its section's destination). v1/manual.pdf, v2/manual.pdf, and rebuild/manual.pdf (v1 compiled
# again by XeTeX: the same anchors in other bytes, from another engine and PDF writer).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)/Tests/Fixtures/sources"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1767225600 FORCE_SOURCE_DATE=1

latex() { # DIR NAME [ENGINE]: two runs (the second writes the bookmarks and references)
  (cd "$1" && for _ in 1 2; do "${3:-pdflatex}" -interaction=nonstopmode -halt-on-error "$2.tex" >/dev/null; done)
}

# v2 of the manual: what a release changes.
v2() {
  sed -e 's/sec:download}/sec:downloading}/g; s/sec:env}/sec:environment}/g; s/ch:usage}/ch:using}/g' \
      -e '/section{Examples}/,+1d' \
      -e 's/\\section{Exit codes}\\label{sec:exit}/\\section{Exit codes}/' \
      -e 's/^\\chapter{Configuration}/\\chapter{Upgrading}\\label{ch:upgrade}\n\\section{From version 1}\\label{sec:from-v1}\nText.\n\\chapter{Configuration}/'
}

a="$here/anchors"
mkdir -p "$work/v1" "$work/v2" "$work/rebuild" "$a/v1" "$a/v2" "$a/rebuild"
cp "$a/manual.tex" "$work/v1/manual.tex"
v2 < "$a/manual.tex" > "$work/v2/manual.tex"
cp "$a/manual.tex" "$work/rebuild/manual.tex"
latex "$work/v1" manual
latex "$work/v2" manual
latex "$work/rebuild" manual xelatex
for v in v1 v2 rebuild; do cp "$work/$v/manual.pdf" "$a/$v/manual.pdf"; done
cp "$work/v2/manual.tex" "$a/v2/manual.tex"
echo "wrote $a/{v1,v2,rebuild}/manual.pdf"

# Source mapping: the sources (scripts/make-source-fixtures.py writes them and expected.json), and
# what each producer makes of them. latex/: pdfLaTeX and XeTeX with -synctex=1, in a folder of
# another name (the SyncTeX paths are not the repository's: they are mapped by their tails).
python3 "$(dirname "$0")/make-source-fixtures.py" "$here"
for engine in pdflatex xelatex; do
  b="$work/build-$engine/src"
  mkdir -p "$b" "$here/latex/$engine"
  cp -r "$here/latex/src/." "$b/"
  (cd "$b" && for _ in 1 2; do "$engine" -synctex=1 -interaction=nonstopmode -halt-on-error -jobname=manual main.tex >/dev/null; done)
  cp "$b/manual.pdf" "$b/manual.synctex.gz" "$here/latex/$engine/"
done
# markdown/: pandoc (through pdfLaTeX), no SyncTeX.
mkdir -p "$here/markdown/pandoc"
(cd "$here/markdown/src" && pandoc manual.md -o "$work/manual-md.pdf")
cp "$work/manual-md.pdf" "$here/markdown/pandoc/manual.pdf"
# html/: printed by headless Chromium.
mkdir -p "$here/html/chromium"
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
  --print-to-pdf="$here/html/chromium/manual.pdf" "file://$here/html/src/manual.html" 2>/dev/null
# sphinx/: Sphinx's LaTeX builder, then latexmk (pdfLaTeX), no SyncTeX. Sphinx from PyPI, in a
# virtual environment of its own.
[ -x "$work/venv/bin/sphinx-build" ] || { python3 -m venv "$work/venv" && "$work/venv/bin/pip" install -q sphinx; }
mkdir -p "$here/sphinx/sphinx"
"$work/venv/bin/sphinx-build" -M latexpdf "$here/sphinx/src" "$work/sphinx" -q >/dev/null
cp "$work/sphinx/latex/manual.pdf" "$here/sphinx/sphinx/manual.pdf"
echo "wrote $here/{latex/pdflatex,latex/xelatex,markdown/pandoc,html/chromium,sphinx/sphinx}"
