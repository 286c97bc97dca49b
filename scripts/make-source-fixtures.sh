#!/usr/bin/env bash
# Builds the committed fixtures of source mapping and anchor diffs (Tests/Fixtures/sources/) from
# the sources beside them. Needs TeX Live (texlive-latex-base, -recommended, -extra: hyperref).
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
