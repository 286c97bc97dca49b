#!/usr/bin/env python3
"""Web links, pdfpipe beside lychee on the loopback lab of bench/chaos_server.py (see bench/web.sh).

    web.py PDFPIPE LYCHEE [SCENARIO...]     scenarios: chaos ratelimit shards flaky (default: all)

For each: true broken found, healthy links called broken, wall time and the peak requests per host
per second the server saw; pdfpipe at its defaults and with lychee's settings (10 per host), lychee
at its defaults. A fresh server for every run (the chaos is "once per URL").
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
PORT = 18100
BROKEN = {"http-error", "timeout", "unreachable", "redirect-loop", "too-many-redirects", "fragment-missing", "malformed"}


class Server:
    def __init__(self, run=1):
        self.p = subprocess.Popen([sys.executable, HERE + "/chaos_server.py", "serve", str(PORT), "--lifetime", "900",
                                   "--run", str(run)], stdout=subprocess.PIPE)
        self.p.stdout.readline()

    def stats(self):
        return json.load(urllib.request.urlopen("http://127.0.0.1:%d/__stats" % PORT))

    def stop(self):
        self.p.kill()
        self.p.wait()


def pipeline(folder, external):
    path = folder + "/pipeline.json"
    ext = {"enabled": True, "allowPrivateAddresses": True}
    ext.update(external)
    with open(path, "w") as f:
        json.dump({"stages": [{"use": "validate-links", "with": {"external": ext}}],
                   "rules": {"uri.insecure-scheme": "off"}, "report": {"formats": ["json"]}}, f)
    return path


SILENT = {"uri.soft-404", "uri.parked", "uri.login-wall"}


def pdfpipe_broken(report):
    out = set()
    docs = json.load(open(report))["documents"]
    # The lab has no soft 404, parked domain or sign-in page: each such warning is a false one.
    silent = sum(1 for d in docs for f in d.get("findings", []) if f.get("rule") in SILENT)
    if silent:
        print("  %s: %d silent-pass warnings (uri.soft-404, uri.parked, uri.login-wall)" % (report, silent))
    for d in docs:
        for link in d.get("links", []):
            if (link.get("check") or {}).get("outcome") in BROKEN:
                out.add(link["uri"].split("#")[0] if "/doc/" not in link["uri"] else link["uri"])
    return out


def run_pdfpipe(binary, folder, external, shards=1, extra=()):
    pipe = pipeline(folder, external)
    start = time.monotonic()
    procs = []
    for k in range(shards):
        out = "%s/out%d" % (folder, k)
        args = [binary, "run", pipe, folder + "/pdfs", "--out", out, "--quiet", *extra]
        if shards > 1:
            args += ["--shard", "%d/%d" % (k + 1, shards)]
        procs.append((subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), out))
    broken = set()
    codes = []
    for p, out in procs:
        codes.append(p.wait())
        broken |= pdfpipe_broken(out + "/report.json")
    return broken, time.monotonic() - start, codes


def run_lychee(binary, folder, args=()):
    start = time.monotonic()
    out = folder + "/lychee.json"
    subprocess.run([binary, "--no-progress", "--format", "json", "--output", out, *args, folder + "/urls.txt"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - start
    report = json.load(open(out))
    broken = set()
    for key in ("error_map", "fail_map"):
        for items in (report.get(key) or {}).values():
            for item in items:
                broken.add(item["url"])
    return broken, wall


def score(truth, broken):
    # A PDF fragment's URL is written with its fragment in the lab's truth; compare by base too.
    def base(u):
        return u.split("#")[0]
    truth_b = {base(u): t for u, t in truth.items()}
    found = {base(u) for u in broken}
    true_broken = {u for u, t in truth_b.items() if t}
    return len(found & true_broken), len(true_broken), len(found - true_broken)


def row(name, truth, broken, wall, stats):
    hit, total, false = score(truth, broken)
    print("| %-34s | %4d/%-4d | %5d | %7.1f s | %5d |" % (name, hit, total, false, wall, stats["peakPerHostPerSecond"]))
    return wall


def header(title):
    print("\n### %s\n" % title)
    print("| run                                | broken    | false | wall      | peak/host/s |")
    print("|------------------------------------|-----------|-------|-----------|-------|")


def scenario(name, pdfpipe, lychee):
    folder = tempfile.mkdtemp(prefix="pdfpipe-web-")
    subprocess.run([sys.executable, HERE + "/chaos_server.py", "make", folder, str(PORT), name], check=True)
    truth = json.load(open(folder + "/truth.json"))
    if name == "flaky":
        return flaky(folder, truth, pdfpipe)
    header({"chaos": "2,000 URLs over 40 hosts, with chaos", "ratelimit": "410 healthy URLs, one host allowing 5 requests/s",
            "shards": "440 healthy URLs on a 5 requests/s host, each in two PDFs: 4 shards at once"}[name])
    walls = {}
    runs = [("pdfpipe (defaults)", {}, None)]
    if name == "chaos":
        runs.append(("pdfpipe (lychee's settings)", {"maxPerHost": 10, "retries": 3}, None))
        runs.append(("pdfpipe (probeHosts off)", {"probeHosts": False}, None))
    runs.append(("lychee (defaults)", None, []))
    for label, external, largs in runs:
        server = Server()
        try:
            if external is not None:
                shards = 4 if name == "shards" else 1
                broken, wall, _ = run_pdfpipe(pdfpipe, folder, external, shards=shards)
                label += " ×4 shards" if shards > 1 else ""
            else:
                if name == "shards":
                    # lychee has no shards: four processes over the same URL list's quarters… of the PDFs'
                    # URLs, each URL in two of them.
                    urls = open(folder + "/urls.txt").read().split()
                    half = len(urls) // 2
                    parts = [urls[:half // 2] + urls[half:half + half // 2], urls[half // 2:half] + urls[half + half // 2:]]
                    parts = parts + parts
                    start = time.monotonic()
                    procs = []
                    for k, part in enumerate(parts):
                        f = "%s/l%d" % (folder, k)
                        os.makedirs(f, exist_ok=True)
                        open(f + "/urls.txt", "w").write("\n".join(part) + "\n")
                        procs.append(subprocess.Popen([lychee, "--no-progress", "--format", "json", "--output",
                                                       f + "/lychee.json", f + "/urls.txt"],
                                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                    for p in procs:
                        p.wait()
                    wall = time.monotonic() - start
                    broken = set()
                    for k in range(4):
                        rep = json.load(open("%s/l%d/lychee.json" % (folder, k)))
                        for key in ("error_map", "fail_map"):
                            for items in (rep.get(key) or {}).values():
                                broken |= {i["url"] for i in items}
                    label += " ×4 processes"
                else:
                    broken, wall = run_lychee(lychee, folder, largs)
            walls[label] = row(label, truth, broken, wall, server.stats())
        finally:
            server.stop()
    if name == "chaos":
        print("\npdfpipe / lychee wall time at defaults: %.2f×" % (walls["pdfpipe (defaults)"] / walls["lychee (defaults)"]))


def flaky(folder, truth, pdfpipe):
    print("\n### Flakiness replay: 5 scheduled runs; 2 links always dead, 12 failing in 1-2 of the 5\n")
    print("| confirmRuns | red runs | links that made a run red |")
    print("|-------------|----------|---------------------------|")
    for k in (1, 3):
        cache = folder + "/cache%d/links.json" % k
        red = 0
        culprits = set()
        for run in range(1, 6):
            server = Server(run)
            try:
                ext = {"confirmRuns": k, "cache": {"path": cache}, "retries": 0}
                env = dict(os.environ, PDFPIPE_RUN_ID="replay-%d-%d" % (k, run))
                pipe = pipeline(folder, ext)
                out = folder + "/o"
                code = subprocess.run([pdfpipe, "run", pipe, folder + "/pdfs", "--out", out, "--quiet"], env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
                if code == 1:
                    red += 1
                    for d in json.load(open(out + "/report.json"))["documents"]:
                        for f in d["findings"]:
                            if f["severity"] == "error":
                                culprits.add(f["uri"].rsplit("/", 1)[-1])
            finally:
                server.stop()
        print("| %11d | %8d | %s |" % (k, red, ", ".join(sorted(culprits))))


if __name__ == "__main__":
    pdfpipe, lychee = sys.argv[1], sys.argv[2]
    for name in sys.argv[3:] or ["chaos", "ratelimit", "shards", "flaky"]:
        scenario(name, pdfpipe, lychee)
