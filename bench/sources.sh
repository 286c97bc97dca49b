#!/usr/bin/env bash
# Source mapping's cost and accuracy (#66) on a batch built from its sources: N documents (default
# 300), each from its own sources (scripts/make-source-fixtures.py's manual with the document's
# number in every target): two thirds LaTeX compiled by pdfLaTeX with -synctex=1, one third pandoc
# Markdown (search only). The link audit (link-audit, --offline) with and without --sources, medians
# of 5 interleaved runs each; then how many findings were placed, right, wrong and declined.
#   bash bench/sources.sh [N]
# Needs TeX Live (hyperref), lmodern and pandoc. The built batch is kept in bench/.cache/sources-N.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-300}
corpus=bench/.cache/sources-$n
swift build -c release --product pdfpipe >/dev/null
pdfpipe=$PWD/.build/release/pdfpipe
if [ ! -f "$corpus/done" ]; then
  rm -rf "$corpus"
  mkdir -p "$corpus"
  python3 - "$corpus" "$n" <<'PY'
import importlib.util, json, os, sys
corpus, n = sys.argv[1], int(sys.argv[2])
spec = importlib.util.spec_from_file_location("fx", "scripts/make-source-fixtures.py")
src = open("scripts/make-source-fixtures.py").read().split("\nfor folder, (files, expected)")[0]
fx = {}
exec(src.replace("root = sys.argv[1]", "root = ''"), fx)
truth = []
for k in range(n):
    kind = "markdown" if k % 3 == 2 else "latex"
    files, expected = fx[kind]()
    d = f"{corpus}/docs/d{k:03}"
    def own(t):
        return t.replace("example.com/", f"example.com/d{k}/").replace("missing-", f"missing-d{k}-")
    for name, lines in files.items():
        p = f"{d}/src/{name}"
        os.makedirs(os.path.dirname(p), exist_ok=True)
        open(p, "w").write(own("\n".join(lines)) + "\n")
    for e in expected:
        truth.append({"target": own(e["target"]), "at": f"docs/d{k:03}/src/{e['file']}:{e['line']}"})
json.dump(truth, open(f"{corpus}/truth.json", "w"))
PY
  for d in "$corpus"/docs/*/; do
    if [ -f "$d/src/main.tex" ]; then
      (cd "$d/src" && for _ in 1 2; do pdflatex -synctex=1 -interaction=nonstopmode -halt-on-error -jobname=manual main.tex >/dev/null; done \
        && mv manual.pdf manual.synctex.gz .. && rm -f manual.aux manual.log manual.out)
    else
      (cd "$d/src" && pandoc manual.md -o ../manual.pdf)
    fi
  done
  touch "$corpus/done"
fi
cd "$corpus"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
# Interleaved, 5 runs each: a machine's drift (another job, the page cache) lands on both sides.
: > times.txt
for _ in 1 2 3 4 5; do
  echo "plain $(timed "$pdfpipe" run link-audit docs --offline --out out/plain)" >> times.txt
  echo "mapped $(timed "$pdfpipe" run link-audit docs --offline --sources docs --out out/mapped)" >> times.txt
done
plain=$(awk '$1 == "plain" {print $2}' times.txt | median)
mapped=$(awk '$1 == "mapped" {print $2}' times.txt | median)
echo "documents: $n; link audit ${plain}s, with --sources ${mapped}s: $(echo "scale=3; $mapped / $plain" | bc)x"
python3 - <<'PY'
import json, collections
truth = collections.defaultdict(set)
for t in json.load(open("truth.json")):
    truth[t["target"]].add(t["at"])
r = json.load(open("out/mapped/report.json"))
count = collections.Counter()
for d in r["documents"]:
    for f in d["findings"]:
        s = f.get("source")
        if s is None:
            continue
        if "file" not in s:
            count["declined"] += 1
            continue
        t = s["target"]
        at = f"{s['file']}:{s['line']}"
        ok = at in truth.get(t, set()) or at in truth.get(t[:-4], set())
        count[("right" if ok else "wrong") + " " + s["mapper"]] += 1
print("findings about links:", sum(count.values()), dict(sorted(count.items())))
PY
