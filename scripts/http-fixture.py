#!/usr/bin/env python3
"""Loopback HTTP server with one route per behaviour the external link check must handle.

Used by the tests (Tests/PDFPipeStagesTests/ExternalLinkTests.swift) and by bench/external.sh, so
pdfpipe and lychee are measured against the same answers. Listens on 127.0.0.1 only; prints its
port on the first line of stdout.

    python3 scripts/http-fixture.py [--port N] [--pdf FILE] [--slow SECONDS]

Routes (the query string is ignored, and kept by redirects):
  /ok                     200
  /status/N               status N (404, 410, 500, ...)
  /flaky/ID               500 the first time (per ID), then 200
  /ratelimited/ID         429 with Retry-After: 1 the first time (per ID), then 200
  /closed-for-an-hour     429 with Retry-After: 3600, always
  /always429/ID           429 with Retry-After: 0, always
  /r/N/TARGET             redirect with status N (301, 302, 303, 307, 308) to /TARGET
  /chain                  301 -> 302 -> 307 -> 308 -> /ok
  /loop/a, /loop/b        302 to each other
  /deep/N                 302 to /deep/N+1, forever
  /slow                   200 after --slow seconds (default 3)
  /nohead                 405 to HEAD, 200 to GET
  /big                    405 to HEAD; GET streams 200 MB (a checker must stop reading)
  /doc.pdf                the PDF given by --pdf
  /login.pdf              200 text/html (a login page where a PDF was linked)
  /slowbody.pdf           200 application/pdf at once; to GET, the body only after --slow seconds
  /huge.pdf               200 application/pdf; to GET, 3 MB of a PDF's bytes (past a 1 MB downloadLimitMB)
  /page.html              an HTML page with the anchors id="intro", id='Caf%C3%A9' (unquoted
                          too: id=plain) and <a name="legacy">; /page.html?redirected 301s to it
  /__log                  JSON list of [method, path, X-Token header, monotonic time, Authorization
                          header] so far (not logged); as a plain-http proxy, path is the whole URL
  /__bytes                bytes of body sent by /big so far
  /hold/ID                200 after 0.3 s
  /__inflight             the most requests ever in progress at once (not counted itself)
  /account/private        302 to /login?next=/account/private (a page behind a sign-in)
  /login                  200, a sign-in form

A web archive (#65, fix-links' `archive`): captures of the links /status/404?case=… and
/status/410?case=… (ARCHIVE below), listed closest to `closest=` first, as
  /archive/cdx?url=…      the Wayback Machine's CDX JSON (an array of rows, the first naming fields)
  /coll/cdx?url=…         pywb's NDJSON (one object a line)
and replayed at /archive/web/TIMESTAMP[id_]/URL and /coll/TIMESTAMP[id_]/URL (200 with the
archived page; a timestamp without a capture: 302 to the closest one, as the Wayback Machine does).

With --tls CERT KEY, a connection that begins with a TLS handshake is served over TLS on the same
port (https://127.0.0.1:PORT/...), for httpsUpgrade:
  /https/same             200 text/html over both
  /https/gone             200 over http, 404 over https
  /https/other-type       text/html over http, application/pdf over https

Link rot on a known schedule (#67, the ledger's replayed nights): the night is set by
  /__night/N              sets the night to N (not logged); 0 at the start
  /rot/NAME               404 on the nights NAME is broken (ROT below), else 200
served on 127.0.0.1 and on two more addresses, 127.0.0.20 and 127.0.0.21 (other hosts, same routes).

Two more sites on the same port, told apart by their address (and Host header):
  127.0.0.2 and 127.0.0.4-13 (sites without 404s): every path 200 with a "Page not found" page, but
                          /http-404-explained (a real page about errors) and /welcome,
                          a real page (the same site's title in both)
  127.0.0.3 (a parked domain): every path 200 with a "This domain is for sale" page
"""
import json
import os
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
LOG = []
SEEN = set()
BIG_SENT = [0]
INFLIGHT = [0, 0]  # now, most
NIGHT = [0]
# Which links are broken on night N (0-based), for /rot/NAME: a breaks on night 5 and is fixed on
# 12; b is broken from the first night on; c flaps (broken on the odd nights from 10 to 19); d
# breaks on night 20 for good; e is broken from 8 to 16 (its document is not checked on 14-16).
ROT = {
    "a": lambda n: 5 <= n < 12,
    "b": lambda n: True,
    "c": lambda n: 10 <= n < 20 and n % 2 == 1,
    "d": lambda n: n >= 20,
    "e": lambda n: 8 <= n < 17,
}
ROT_SITES = {"127.0.0.20", "127.0.0.21"}
PDF = b""
PAGE = (
    b"<!DOCTYPE html><html><head><title>Page</title></head><body>\n"
    b"<h1 id=\"intro\">Intro</h1><p data-id=\"not-an-anchor\">x</p>\n"
    b"<h2 id='Caf\xc3\xa9'>Caf\xc3\xa9</h2><div class=x id=plain>y</div>\n"
    b"<a name=\"legacy\">old anchor</a><!-- <p id=\"commented\"> -->\n"
    b"</body></html>\n"
)
SLOW = 3.0
TLS = None  # an ssl.SSLContext with --tls


# Captures by the link's path and query: (timestamp, status, page) — "good" (the page as it was),
# "error" (an archived "Page not found"). "mixed" lists a capture of another URL and a row with an
# impossible date first: an index's rows are data to check.
ARCHIVE = {
    "/status/404?case=near": [("20100101000000", 200, "good"), ("20200610120000", 200, "good"), ("20240101000000", 200, "good")],
    "/status/410?case=error": [("20200614000000", 200, "error"), ("20200501000000", 200, "good"), ("20201231000000", 404, "good")],
    "/status/404?case=only404": [("20200615000000", 404, "good")],
    "/status/404?case=far": [("20010911000000", 200, "good")],
    "/status/404?case=errors": [("20200615000000", 200, "error"), ("20200616000000", 200, "error"), ("20200617000000", 200, "error"), ("20190101000000", 200, "good")],
    "/status/404?case=mixed": [("20200615000000", 200, "other"), ("20201340000000", 200, "good"), ("20180101000000", 200, "good")],
}


# More sites without 404s, for benchmarks with many such hosts (bench/fix-links.sh set).
SOFT_SITES = {"127.0.0.2"} | {"127.0.0.%d" % k for k in range(4, 14)}


def captures_for(key):
    """A URL's captures: ARCHIVE's, else by its query's `cap=KIND-N` (bench/fix-links.sh set, the
    documents dated 2021-03-01): near (3 days before, and a year before), far (2003 only), errpage
    (an archived error page the day before, a sound capture ten days before), none."""
    if key in ARCHIVE:
        return ARCHIVE[key]
    kind = key.split("cap=", 1)[1].split("-", 1)[0] if "cap=" in key else ""
    return {
        "near": [("20210226120000", 200, "good"), ("20200301000000", 200, "good")],
        "far": [("20030615000000", 200, "good")],
        "errpage": [("20210228000000", 200, "error"), ("20210219000000", 200, "good")],
    }.get(kind, [])


def archive_index(handler, query, ndjson):
    from urllib.parse import parse_qs, urlsplit
    q = parse_qs(query.lstrip("?"))
    url = q.get("url", [""])[0]
    u = urlsplit(url)
    key = u.path + ("?" + u.query if u.query else "")
    closest = q.get("closest", ["20000101000000"])[0]
    def distance(ts):
        return abs(int(ts[:8]) - int(closest[:8])) if ts.isdigit() else 0
    rows = sorted(captures_for(key), key=lambda c: distance(c[0]))[: int(q.get("limit", ["10"])[0])]
    lines = []
    for ts, status, page in rows:
        original = url if page != "other" else url.replace("/status/", "/elsewhere/")
        if ndjson:
            lines.append(json.dumps({"urlkey": "x", "timestamp": ts, "url": original, "mime": "text/html", "status": str(status)}))
        else:
            lines.append(json.dumps(["x", ts, original, "text/html", str(status), "D", "100"]))
    if ndjson:
        body = "\n".join(lines) + ("\n" if lines else "")
    else:
        head = json.dumps(["urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length"])
        body = "[" + ",\n".join([head] + lines) + "]\n" if lines else "[]\n"
    return handler.answer(200, body.encode(), content_type="application/json" if not ndjson else "text/x-ndjson")


def archive_replay(handler, prefix, rest, query):
    stamp, _, url = rest.partition("/")
    raw = stamp.endswith("id_")
    ts = stamp[:-3] if raw else stamp
    from urllib.parse import urlsplit
    u = urlsplit(url + query)
    key = u.path + ("?" + u.query if u.query else "")
    captures = [c for c in captures_for(key) if c[2] != "other"]
    match = [c for c in captures if c[0] == ts]
    if not match:
        if not captures:
            return handler.answer(404, b"not in the archive\n")
        near = min(captures, key=lambda c: abs(int(c[0][:8]) - int(ts[:8])) if ts[:8].isdigit() else 0)
        return handler.answer(302, b"", {"Location": "%s%s%s/%s%s" % (prefix, near[0], "id_" if raw else "", url, query)})
    _, status, page = match[0]
    if page == "error":
        body = b"<html><head><title>Page not found</title></head><body><h1>404</h1></body></html>"
    else:
        body = b"<html><head><title>The page as it was</title></head><body><h1>Archived</h1></body></html>"
    return handler.answer(status, body, content_type="text/html")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out as two writes; without TCP_NODELAY the second waits for the
    # client's delayed ACK (40 ms on Linux), which no production server makes its clients wait.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", headers=None, content_type="text/plain"):
        # A request stops counting as in flight before its answer is sent: the client may start
        # the next one as soon as the answer arrives, before this thread gets back to count it
        # out (a count taken after sending saw 4 at once under a limit of 3 on a loaded machine).
        self.leave()
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

    def first_time(self, key):
        with LOCK:
            if key in SEEN:
                return False
            SEEN.add(key)
            return True

    def handle_any(self):
        path = self.path
        if path == "/__log":
            with LOCK:
                body = json.dumps(LOG).encode()
            return self.answer(200, body, content_type="application/json")
        if path == "/__bytes":
            return self.answer(200, str(BIG_SENT[0]).encode())
        if path == "/__inflight":
            return self.answer(200, str(INFLIGHT[1]).encode())
        if path.startswith("/__night/"):
            with LOCK:
                NIGHT[0] = int(path.rsplit("/", 1)[1])
            return self.answer(200, b"night %d\n" % NIGHT[0])
        with LOCK:
            INFLIGHT[0] += 1
            INFLIGHT[1] = max(INFLIGHT[1], INFLIGHT[0])
        self.counted = True
        try:
            return self.route(path)
        finally:
            self.leave()

    def leave(self):
        """Counts this request out of INFLIGHT, once."""
        if getattr(self, "counted", False):
            self.counted = False
            with LOCK:
                INFLIGHT[0] -= 1

    def route(self, path):
        with LOCK:
            LOG.append(
                [
                    self.command,
                    path,
                    self.headers.get("X-Token", ""),
                    "%.3f" % time.monotonic(),
                    self.headers.get("Authorization", ""),
                ]
            )
        # Routes ignore the query string (the benchmark makes URLs distinct with ?n=...), but a
        # redirect keeps it, so that distinct URLs stay distinct.
        query = ""
        if "?" in path:
            path, query = path.split("?", 1)
            query = "?" + query
        parts = path.strip("/").split("/")
        site = self.headers.get("Host", "").rsplit(":", 1)[0]
        if site in SOFT_SITES:
            if path == "/http-404-explained":
                return self.answer(200, b"<html><head><title>HTTP 404 explained | Soft Site</title></head><body><h1>What a 404 means</h1></body></html>", content_type="text/html")
            if path == "/welcome":
                return self.answer(200, b"<html><head><title>Welcome | Soft Site</title></head><body><h1>Welcome</h1></body></html>", content_type="text/html")
            return self.answer(200, b"<html><head><title>Page not found | Soft Site</title></head><body><h1>Sorry</h1></body></html>", content_type="text/html")
        if site == "127.0.0.3":
            body = b"<html><head><title>parked.test</title></head><body><p>This domain is for sale! Buy this domain today.</p></body></html>"
            return self.answer(200, body, content_type="text/html")
        if parts[0] == "https" and len(parts) == 2:
            secure = isinstance(self.connection, ssl.SSLSocket)
            if parts[1] == "gone" and secure:
                return self.answer(404, b"not here\n")
            if parts[1] == "other-type" and secure:
                return self.answer(200, b"%PDF-1.4\n", content_type="application/pdf")
            return self.answer(200, b"<html><title>same</title></html>", content_type="text/html; charset=utf-8")
        if path in ("/archive/cdx", "/coll/cdx"):
            return archive_index(self, query, ndjson=path == "/coll/cdx")
        for prefix in ("/archive/web/", "/coll/"):
            if path.startswith(prefix):
                return archive_replay(self, prefix, path[len(prefix):], query)
        if path == "/account/private":
            return self.answer(302, b"", {"Location": "/login?next=/account/private"})
        if path == "/login":
            return self.answer(200, b"<html><head><title>Sign in</title></head><body><form>Sign in</form></body></html>", content_type="text/html")
        if path == "/ok":
            return self.answer(200, b"ok\n", content_type="text/html")
        if parts[0] == "rot" and len(parts) == 2 and parts[1] in ROT:
            with LOCK:
                broken = ROT[parts[1]](NIGHT[0])
            return self.answer(404 if broken else 200, b"rot\n", content_type="text/html")
        if parts[0] == "status" and len(parts) == 2:
            return self.answer(int(parts[1]), b"status\n")
        if parts[0] == "flaky":
            return self.answer(500 if self.first_time(path + query) else 200, b"flaky\n")
        if parts[0] == "always429":
            return self.answer(429, b"slow down\n", {"Retry-After": "0"})
        if parts[0] == "closed-for-an-hour":
            return self.answer(429, b"come back later\n", {"Retry-After": "3600"})
        if parts[0] == "ratelimited":
            if self.first_time(path + query):
                return self.answer(429, b"slow down\n", {"Retry-After": "1"})
            return self.answer(200, b"ok\n")
        if parts[0] == "r" and len(parts) >= 3:
            return self.answer(int(parts[1]), b"", {"Location": "/" + "/".join(parts[2:]) + query})
        if path == "/chain":
            return self.answer(301, b"", {"Location": "/chain2"})
        if path == "/chain2":
            return self.answer(302, b"", {"Location": "/chain3"})
        if path == "/chain3":
            return self.answer(307, b"", {"Location": "/chain4"})
        if path == "/chain4":
            return self.answer(308, b"", {"Location": "/ok"})
        if path == "/loop/a":
            return self.answer(302, b"", {"Location": "/loop/b"})
        if path == "/loop/b":
            return self.answer(302, b"", {"Location": "/loop/a"})
        if parts[0] == "deep" and len(parts) == 2:
            return self.answer(302, b"", {"Location": "/deep/%d" % (int(parts[1]) + 1)})
        if parts[0] == "hold":
            time.sleep(0.3)
            return self.answer(200, b"held\n")
        if path == "/slow":
            time.sleep(SLOW)
            return self.answer(200, b"late\n")
        if path == "/nohead":
            return self.answer(405 if self.command == "HEAD" else 200, b"get only\n")
        if path == "/big":
            if self.command == "HEAD":
                return self.answer(405)
            size = 200 << 20
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            chunk = b"x" * 65536
            try:
                for _ in range(size // len(chunk)):
                    self.wfile.write(chunk)
                    BIG_SENT[0] += len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        # Bot protections: a challenge header, a challenge page sent chunked (no length), a CAPTCHA page.
        if path == "/bot/cf-header":
            return self.answer(403, b"<html><title>Just a moment...</title></html>", {"Server": "cloudflare", "cf-mitigated": "challenge"}, "text/html")
        if path == "/bot/cf-chunked":
            self.send_response(503)
            self.send_header("Server", "cloudflare")
            self.send_header("Content-Type", "text/html")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            if self.command != "HEAD":
                body = b"<html><script src='/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1'></script></html>"
                self.wfile.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
            return
        if path == "/bot/captcha":
            return self.answer(403, b"<html><form><div class='g-recaptcha' data-sitekey='x'></div></form></html>", content_type="text/html")
        if path == "/bot/waf":
            return self.answer(403, b"", {"x-amzn-waf-action": "captcha"})
        if path == "/page.html":
            if query == "?redirected":
                return self.answer(301, b"", {"Location": "/page.html"})
            return self.answer(200, PAGE, content_type="text/html; charset=utf-8")
        if path == "/login.pdf":
            return self.answer(200, b"<html><body><form id=login>Sign in</form></body></html>", content_type="text/html")
        if path == "/slowbody.pdf":
            self.send_response(200)
            self.send_header("Content-Type", "application/pdf")
            self.send_header("Content-Length", str(len(PDF)))
            self.end_headers()
            if self.command == "GET":
                time.sleep(SLOW)
                try:
                    self.wfile.write(PDF)
                except (BrokenPipeError, ConnectionResetError):
                    pass
            self.close_connection = True
            return
        if path == "/huge.pdf":
            body = PDF + b"%" + b"x" * (3 << 20) + b"\n"
            return self.answer(200, body, content_type="application/pdf")
        if path.startswith("/doc.pdf"):
            return self.answer(200, PDF, content_type="application/pdf")
        return self.answer(404, b"not found\n")

    do_GET = handle_any
    do_HEAD = handle_any


def main():
    global PDF, SLOW, TLS
    port = 0
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == "--port":
            port = int(args.pop(0))
        elif a == "--pdf":
            with open(args.pop(0), "rb") as f:
                PDF = f.read()
        elif a == "--slow":
            SLOW = float(args.pop(0))
        elif a == "--tls":
            TLS = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            TLS.load_cert_chain(args.pop(0), args.pop(0))
    # Exit with the process that started us (a test runner that crashed must not leave us behind).
    parent = os.getppid()

    def watch_parent():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    # A real server's listen backlog (Python's default of 5 drops connection bursts, and the
    # clients' SYN retries then cost a second each).
    class Server(ThreadingHTTPServer):
        request_queue_size = 512

        def finish_request(self, request, client_address):
            # A TLS handshake's first byte (22) on a connection: serve it over TLS.
            if TLS is not None:
                try:
                    first = request.recv(1, socket.MSG_PEEK)
                    if first == b"\x16":
                        request = TLS.wrap_socket(request, server_side=True)
                except (OSError, ssl.SSLError):
                    return
            self.RequestHandlerClass(request, client_address, self)

        def handle_error(self, request, client_address):
            # A client that stops reading after the headers resets the connection: expected.
            if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
                super().handle_error(request, client_address)

    server = Server(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    # The two other sites, on the same port at two more loopback addresses (Linux routes all of
    # 127.0.0.0/8 to loopback); a system where they cannot be bound has the main site only.
    for address in sorted(SOFT_SITES | ROT_SITES | {"127.0.0.3"}):
        try:
            other = Server((address, server.server_address[1]), Handler)
        except OSError as e:
            print("http-fixture: no %s: %s" % (address, e), file=sys.stderr)
            continue
        other.daemon_threads = True
        threading.Thread(target=other.serve_forever, daemon=True).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
