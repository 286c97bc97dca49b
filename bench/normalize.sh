#!/usr/bin/env bash
# normalize benchmark: pdfpipe's normalize stage against the qpdf command line with the same options
# (object streams generated, deterministic ID, decode level generalized) on big real manuals, one file
# at a time, and a batch with --jobs 1 and 2 against qpdf one at a time and `xargs -P2`.
#
#   bench/normalize.sh     fetches the manuals into bench/.cache (as bench/links.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
command -v qpdf >/dev/null || apt-get install -y -qq qpdf >/dev/null
pipeline=$(mktemp)
echo '{"stages": [{"use": "normalize", "with": {"objectStreams": "generate", "keep": true}}]}' > "$pipeline"
out=$(mktemp -d)
qpdf_opts=(--object-streams=generate --deterministic-id --decode-level=generalized --compress-streams=y --remove-unreferenced-resources=auto --decrypt)

# "in-process": PDFPIPE_QPDF_PROCESS=never keeps qpdf in pdfpipe's own (multi-threaded) process
# instead of its single-threaded helper, to show what the helper is for.
printf '%-16s %10s %10s %8s %12s\n' file "pdfpipe s" "qpdf s" "ratio" "in-process s"
for f in "${files[@]}"; do
  p=$(median "$pdfpipe" run "$pipeline" "$f" --out "$out/p" --jobs 1 --quiet --fail-on never)
  i=$(median env PDFPIPE_QPDF_PROCESS=never "$pdfpipe" run "$pipeline" "$f" --out "$out/p" --jobs 1 --quiet --fail-on never)
  q=$(median qpdf "${qpdf_opts[@]}" "$f" "$out/q.pdf")
  printf '%-16s %10.2f %10.2f %7.2fx %12.2f\n' "$(basename "$f")" "$p" "$q" "$(echo "$p / $q" | bc -l)" "$i"
done
mkdir -p "$out/batch"
for f in "${files[@]}"; do cp "$f" "$out/batch/a-$(basename "$f")"; cp "$f" "$out/batch/b-$(basename "$f")"; done
p1=$(median "$pdfpipe" run "$pipeline" "$out/batch" --out "$out/p" --jobs 1 --quiet --fail-on never)
p2=$(median "$pdfpipe" run "$pipeline" "$out/batch" --out "$out/p" --jobs 2 --quiet --fail-on never)
q1=$(median sh -c "for f in $out/batch/*.pdf; do qpdf ${qpdf_opts[*]} \"\$f\" $out/q.pdf; done")
q2=$(median sh -c "ls $out/batch/*.pdf | xargs -P2 -I{} qpdf ${qpdf_opts[*]} {} {}.out.pdf")
printf 'six files: pdfpipe --jobs 1 %.2f s, --jobs 2 %.2f s (%.2fx); qpdf one at a time %.2f s, xargs -P2 %.2f s\n' \
  "$p1" "$p2" "$(echo "$p1 / $p2" | bc -l)" "$q1" "$q2"
rm -rf "$out" "$pipeline"
