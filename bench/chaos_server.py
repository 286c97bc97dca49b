#!/usr/bin/env python3
"""The web-link lab of bench/web.sh: many hosts on loopback, each URL with a known truth, and the
chaos real sites show once in a while. Bounded and self-stopping (--lifetime seconds).

    chaos_server.py serve PORT [--lifetime S] [--run K]  40 hosts, 127.0.0.1 to 127.0.0.40 (loopback
                                                         addresses: hosts a checker paces apart),
                                                         on PORT; prints PORT when ready; /__stats
    chaos_server.py make DIR PORT SCENARIO               write DIR/urls.txt, DIR/truth.json and
                                                         DIR/pdfs/*.pdf (20 links each)

Scenarios: chaos (2,000 URLs over 40 hosts: 200 truly broken; healthy ones that reset the first
connection (10 %), answer 429 with Retry-After: 2 once (5 %), answer slowly once (3 %, 25 s), 503
once (2 %), bot walls (1 %), permanent redirect chains, PDF #page fragments); ratelimit (410
healthy URLs on one host that lets 5 requests per second through, the rest 429 Retry-After: 1);
shards (440 healthy URLs on that host, each in two PDFs); flaky (14 links: 2 always dead, 12 that
fail in 1 or 2 of 5 runs, never 3 in a row: --run K says which run it is).
"""
import json
import random
import os
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOSTS = 40


def kind_of(i):
    """The class of URL i of the chaos set (deterministic, spread over the hosts)."""
    r = random.Random(i).randrange(100)
    if r < 10:
        return "broken"
    if r < 20:
        return "reset"
    if r < 25:
        return "429"
    if r < 28:
        return "slow"
    if r < 30:
        return "503"
    if r < 31:
        return "botwall"
    if r < 35:
        return "redirect"
    if r < 37:
        return "pdf"
    return "ok"


FLAKY = {  # link -> runs (1-5) in which it fails; never three in a row
    **{"dead%d" % k: {1, 2, 3, 4, 5} for k in range(2)},
    **{"f%d" % k: s for k, s in enumerate([{1}, {2}, {3}, {4}, {5}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {1, 3}, {2, 5}, {1, 5}])},
}


def make(folder, scenario, ports):
    urls, truth = [], {}
    if scenario == "chaos":
        for i in range(2000):
            k = kind_of(i)
            host = ports[i % HOSTS]
            path = {"pdf": "/doc/%d.pdf#page=2" % i, "redirect": "/moved/%d" % i}.get(k, "/%s/%d" % (k, i))
            url = "http://%s%s" % (host, path)
            urls.append(url)
            truth[url] = k == "broken"
    elif scenario in ("ratelimit", "shards"):
        n = 410 if scenario == "ratelimit" else 440
        for i in range(n):
            url = "http://%s/limited/%d" % (ports[0], i)
            urls.append(url)
            truth[url] = False
    elif scenario == "flaky":
        for name in sorted(FLAKY):
            url = "http://%s/flaky/%s" % (ports[0], name)
            urls.append(url)
            truth[url] = name.startswith("dead")
    os.makedirs(folder + "/pdfs", exist_ok=True)
    with open(folder + "/urls.txt", "w") as f:
        f.write("\n".join(urls) + "\n")
    with open(folder + "/truth.json", "w") as f:
        json.dump(truth, f, indent=1, sort_keys=True)
    # PDFs of 20 links each; for shards, every URL in two PDFs far apart (different shards).
    per = 20
    lists = [urls[i:i + per] for i in range(0, len(urls), per)]
    if scenario == "shards":
        lists = lists + lists[len(lists) // 2:] + lists[:len(lists) // 2]
    for n, chunk in enumerate(lists):
        write_pdf("%s/pdfs/d%03d.pdf" % (folder, n), chunk)


def write_pdf(path, uris):
    objs = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [%s] >>"
            % " ".join("%d 0 R" % (4 + i) for i in range(len(uris)))]
    for i, u in enumerate(uris):
        y = 760 - i * 30
        objs.append("<< /Type /Annot /Subtype /Link /Rect [72 %d 300 %d] /Border [0 0 0] /A << /S /URI /URI (%s) >> >>"
                    % (y, y + 12, u))
    with open(path, "wb") as f:
        f.write(pdf_bytes(objs))


def tiny_pdf(pages):
    kids = " ".join("%d 0 R" % (3 + i) for i in range(pages))
    objs = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages)]
    objs += ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"] * pages
    return pdf_bytes(objs)


def pdf_bytes(objs):
    """A PDF of the objects (1 0 R the catalog), with its cross-reference table."""
    out = b"%PDF-1.7\n"
    offsets = []
    for n, o in enumerate(objs):
        offsets.append(len(out))
        out += ("%d 0 obj\n%s\nendobj\n" % (n + 1, o)).encode()
    xref = len(out)
    out += ("xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)).encode()
    for off in offsets:
        out += ("%010d 00000 n \n" % off).encode()
    out += ("trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)).encode()
    return out


class Lab:
    def __init__(self, run):
        self.lock = threading.Lock()
        self.seen = {}  # path -> requests so far
        self.starts = {}  # port -> {second: count}
        self.requests = 0
        self.t0 = time.monotonic()
        self.timeline = {}
        self.late = []
        self.bucket = {"tokens": 5.0, "at": time.monotonic()}
        self.run = run
        self.pdf = tiny_pdf(3)

    def count(self, port, path):
        with self.lock:
            self.requests += 1
            t = int(time.monotonic() - self.t0)
            self.timeline[t] = self.timeline.get(t, 0) + 1
            if t >= 30 and len(self.late) < 300:
                self.late.append((t, port, path))
            n = self.seen.get(path, 0)
            self.seen[path] = n + 1
            sec = int(time.monotonic())
            per = self.starts.setdefault(port, {})
            per[sec] = per.get(sec, 0) + 1
            return n

    def allow(self):
        """The rate-limited host: a token bucket of 5 per second, burst 5."""
        with self.lock:
            now = time.monotonic()
            b = self.bucket
            b["tokens"] = min(5.0, b["tokens"] + (now - b["at"]) * 5)
            b["at"] = now
            if b["tokens"] >= 1:
                b["tokens"] -= 1
                return True
            return False

    def stats(self):
        with self.lock:
            peak = {str(h): max(c.values()) for h, c in self.starts.items() if c}
            return {"requests": self.requests, "peakPerHostPerSecond": max(peak.values() or [0]), "peaks": peak,
                    "timeline": self.timeline, "late": self.late}


def handler_for(lab, port):
    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def answer(self, status, body=b"", headers=()):
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def reset(self):
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True

        def do_HEAD(self):
            self.do_GET()

        def do_GET(self):
            path = self.path.split("?")[0]
            if path == "/__stats":
                return self.answer(200, json.dumps(lab.stats()).encode(), [("Content-Type", "application/json")])
            n = lab.count(port, path)
            parts = path.strip("/").split("/")
            kind = parts[0]
            html = [("Content-Type", "text/html")]
            if kind == "broken":
                return self.answer(404, b"not here", html)
            if kind == "reset" and n == 0:
                return self.reset()
            if kind == "429" and n == 0:
                return self.answer(429, b"slow down", [("Retry-After", "2")] + html)
            if kind == "slow" and n == 0:
                time.sleep(25)
                return self.answer(200, b"late", html)
            if kind == "503" and n == 0:
                return self.answer(503, b"busy", html)
            if kind == "botwall":
                return self.answer(403, b"<title>Just a moment...</title>", [("cf-mitigated", "challenge"), ("Server", "cloudflare")] + html)
            if kind == "moved":
                hop = int(parts[2]) if len(parts) > 2 else 0
                if hop < 2:
                    return self.answer(301, b"", [("Location", "/moved/%s/%d" % (parts[1], hop + 1))])
                return self.answer(200, b"here", html)
            if kind == "doc":
                return self.answer(200, lab.pdf, [("Content-Type", "application/pdf")])
            if kind == "limited":
                if lab.allow():
                    return self.answer(200, b"ok", html)
                return self.answer(429, b"slow down", [("Retry-After", "1")] + html)
            if kind == "flaky":
                name = parts[1]
                if lab.run in FLAKY.get(name, set()):
                    return self.answer(404 if name.startswith("dead") else 503, b"down", html)
                return self.answer(200, b"ok", html)
            return self.answer(200, b"fine", html)

    return H


class Server(ThreadingHTTPServer):
    allow_reuse_address = True
    daemon_threads = True
    request_queue_size = 256


def serve(base, lifetime, run):
    lab = Lab(run)
    servers = []
    for i in range(HOSTS):
        s = Server(("127.0.0.%d" % (i + 1), base), None)
        s.RequestHandlerClass = handler_for(lab, s.server_address[0])
        servers.append(s)
        threading.Thread(target=s.serve_forever, daemon=True).start()
    print(base, flush=True)
    time.sleep(lifetime)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        args = sys.argv[3:]
        lifetime = float(args[args.index("--lifetime") + 1]) if "--lifetime" in args else 900
        run = int(args[args.index("--run") + 1]) if "--run" in args else 1
        serve(int(sys.argv[2]), lifetime, run)
    elif sys.argv[1] == "make":
        base = int(sys.argv[3])
        make(sys.argv[2], sys.argv[4], ["127.0.0.%d:%d" % (i + 1, base) for i in range(HOSTS)])
