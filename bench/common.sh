# Shared by the benchmark scripts: the real manuals they run on, and timing.
# Sourced from the repository root.

cache=bench/.cache
mkdir -p "$cache"

# fetch PACKAGE PATH-INSIDE-IT FILE-NAME: one PDF from a Debian documentation package, once.
fetch() {
  [ -f "$cache/$3" ] && return
  (cd "$cache" && apt-get download "$1" >/dev/null 2>&1 && dpkg-deb -x "$1"_*.deb x && cp "x$2" "$3"; rm -rf x "$1"_*.deb)
}
fetch texlive-pictures-doc /usr/share/doc/texlive-doc/generic/pgf/pgfmanual.pdf pgfmanual.pdf
fetch texlive-latex-base-doc /usr/share/doc/texlive-doc/latex/base/source2e.pdf source2e.pdf
fetch texlive-latex-base-doc /usr/share/doc/texlive-doc/latex/hyperref/hyperref.pdf hyperref.pdf
files=("$cache/pgfmanual.pdf" "$cache/source2e.pdf" "$cache/hyperref.pdf")

# fetch_gz PACKAGE PATH-INSIDE-IT.gz FILE-NAME: the same for a PDF Debian ships compressed.
fetch_gz() {
  [ -f "$cache/$3" ] && return
  (cd "$cache" && apt-get download "$1" >/dev/null 2>&1 && dpkg-deb -x "$1"_*.deb x && gunzip -c "x$2" > "$3"; rm -rf x "$1"_*.deb)
}
# The five manuals of #62 (2,182 pages: TeX, DocBook, ReportLab and a LaTeX standard).
fetch debian-reference-en /usr/share/debian-reference/debian-reference.en.pdf debian-reference.en.pdf
fetch python-reportlab-doc /usr/share/doc/python-reportlab-doc/reportlab-userguide.pdf reportlab-userguide.pdf
fetch_gz debian-policy /usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz fhs-3.0.pdf
five=("$cache/hyperref.pdf" "$cache/source2e.pdf" "$cache/debian-reference.en.pdf" "$cache/reportlab-userguide.pdf" "$cache/fhs-3.0.pdf")

# small_corpus: $cache/small, 600 small real PDFs (the first 600 under 300 KB of Debian's
# texlive-latex-extra-doc, by path; a 590 MB download, once), for the many-small-files case.
small_corpus() {
  [ -d "$cache/small" ] && return
  mkdir -p "$cache/small.tmp"
  (cd "$cache/small.tmp" && apt-get download texlive-latex-extra-doc >/dev/null 2>&1 && dpkg-deb -x texlive-latex-extra-doc_*.deb x \
    && find x -name '*.pdf' -size -300k | LC_ALL=C sort | head -600 | while read -r f; do
      mv "$f" "$(echo "$f" | md5sum | cut -c1-8)-$(basename "$f")"; done && rm -rf x ./*.deb)
  mv "$cache/small.tmp" "$cache/small"
}

command -v bc >/dev/null || apt-get install -y -qq bc >/dev/null
swift build -c release --product pdfpipe >/dev/null
pdfpipe=.build/release/pdfpipe

# median COMMAND...: the median wall time, in seconds, of three runs.
median() {
  local t=() i s e
  for i in 1 2 3; do
    s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
    t+=("$(echo "$e - $s" | bc -l)")
  done
  printf '%s\n' "${t[@]}" | sort -n | sed -n 2p
}

# one_at_a_time SNIPPET, two_at_a_time SNIPPET: the median time of the shell SNIPPET run on every
# file of $files, one after another or two at once (xargs -P2). In SNIPPET, "$1" is the file and
# "$0" the output folder $out; SNIPPET must not contain single quotes.
one_at_a_time() { median sh -c "for f in ${files[*]}; do sh -c '$1' $out \$f; done"; }
two_at_a_time() { median sh -c "printf '%s\n' ${files[*]} | xargs -P2 -I{} sh -c '$1' $out {}"; }
