#!/usr/bin/env python3
"""Mutation fuzzing of what reads a report back (`pdfpipe merge`, and through it every report
format): N mutated copies of the gated golden report.json (values swapped for other types, huge or
negative numbers, keys deleted; seeded, reproducible) merged into every format. Exit codes other
than 0, 1 and 2 (a signal, a crash) are failures; the mutant is kept as fuzz-findings/report-N.json.
A sample of the refusals is printed: each should name the field (documents[3]: a document entry:
findings[0].severity: ...).
Usage: python3 scripts/fuzz-reports.py [N=300] [SEED=1] [BINARY=.build/debug/pdfpipe]"""
import copy, json, os, random, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
binary = sys.argv[3] if len(sys.argv) > 3 else os.path.join(root, ".build/debug/pdfpipe")
base = json.load(open(os.path.join(root, "Tests/PDFPipeCLITests/Golden/gate-report.json")))
values = [None, True, 0, -1, 2**62, 1e300, -0.5, "", "x", "fatal", [], {}, [1, "a"], {"k": None}]

def paths(v, p=()):
    yield p
    if isinstance(v, dict):
        for k, x in v.items():
            yield from paths(x, p + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from paths(x, p + (i,))

every = list(paths(base))[1:]

def mutate(doc):
    for _ in range(random.randint(1, 4)):
        p = random.choice(every)
        parent = doc
        try:
            for k in p[:-1]:
                parent = parent[k]
            if random.random() < 0.3 and isinstance(parent, dict):
                del parent[p[-1]]
            else:
                parent[p[-1]] = copy.deepcopy(random.choice(values))
        except (KeyError, IndexError, TypeError):
            pass
    return doc

codes, failures = {}, 0
with tempfile.TemporaryDirectory() as work:
    for i in range(n):
        mutant = mutate(copy.deepcopy(base))
        path = os.path.join(work, "report.json")
        json.dump(mutant, open(path, "w"))
        r = subprocess.run(
            [binary, "merge", path, "--out", os.path.join(work, "out"), "--format",
             "json,sarif,html,junit,markdown,github,codequality", "--quiet"],
            capture_output=True, text=True, timeout=120)
        codes[r.returncode] = codes.get(r.returncode, 0) + 1
        if r.returncode not in (0, 1, 2):
            failures += 1
            os.makedirs(os.path.join(root, "fuzz-findings"), exist_ok=True)
            json.dump(mutant, open(os.path.join(root, "fuzz-findings", f"report-{i}.json"), "w"))
            print(f"mutant {i}: exit {r.returncode}: {r.stderr[-400:]}")
        elif r.returncode == 2 and random.random() < 0.02:
            print("refused:", r.stderr.strip()[:200])
print(f"{n} mutants: exit codes {dict(sorted(codes.items()))}, {failures} failures")
sys.exit(1 if failures else 0)
