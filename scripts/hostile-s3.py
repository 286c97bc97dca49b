#!/usr/bin/env python3
"""A hostile stand-in for an S3 endpoint, on loopback only: what a store (or whoever answers for it)
can send to exhaust a run. Used by ObjectStorageTests (the trust issue #60, 4). Prints its port on
the first line of stdout. Path-style requests: /BUCKET?list-type=2&prefix=P… and /BUCKET/KEY.

Listings, by prefix:
  endless/   every page has 1,000 keys, says IsTruncated and gives a new continuation token
  repeat/    the second page gives the first page's token again
  notoken/   IsTruncated true, no NextContinuationToken
  big/       one key, big/huge.pdf, listed at 20 GB; and big/ok.pdf, a small PDF
  liar/      one key, liar/small.pdf, listed at 1,000 bytes; its GET streams without end
Objects: */ok.pdf a small PDF; liar/small.pdf an endless body; anything else 404.
/__log: JSON list of [method, path] so far.
"""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOCK = threading.Lock()
LOG = []
PDF = (
    b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
    b"2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n"
    b"3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj\n"
    b"trailer << /Root 1 0 R >>\n%%EOF\n"
)


def listing(keys, truncated, token):
    items = "".join(
        "<Contents><Key>%s</Key><Size>%d</Size><ETag>\"e\"</ETag>"
        "<LastModified>2026-01-01T00:00:00.000Z</LastModified></Contents>" % (k, s)
        for k, s in keys
    )
    more = "<IsTruncated>%s</IsTruncated>" % ("true" if truncated else "false")
    if token:
        more += "<NextContinuationToken>%s</NextContinuationToken>" % token
    return ('<?xml version="1.0" encoding="UTF-8"?><ListBucketResult>%s%s</ListBucketResult>' % (items, more)).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/xml"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path == "/__log":
            with LOCK:
                return self.send(200, json.dumps(LOG).encode(), "application/json")
        with LOCK:
            LOG.append([self.command, self.path])
        parts = url.path.lstrip("/").split("/", 1)
        query = parse_qs(url.query)
        if len(parts) == 1 or parts[1] == "":
            prefix = query.get("prefix", [""])[0]
            token = query.get("continuation-token", [""])[0]
            n = int(token[1:]) if token.startswith("t") else 0
            if prefix.startswith("endless"):
                keys = [("endless/%07d.pdf" % (n * 1000 + i), 100) for i in range(1000)]
                return self.send(200, listing(keys, True, "t%d" % (n + 1)))
            if prefix.startswith("repeat"):
                return self.send(200, listing([("repeat/%d.pdf" % n, 100)], True, "t1"))
            if prefix.startswith("notoken"):
                return self.send(200, listing([("notoken/a.pdf", 100)], True, None))
            if prefix.startswith("big"):
                return self.send(200, listing([("big/huge.pdf", 20 << 30), ("big/ok.pdf", len(PDF))], False, None))
            if prefix.startswith("liar"):
                return self.send(200, listing([("liar/ok.pdf", len(PDF)), ("liar/small.pdf", 1000)], False, None))
            return self.send(200, listing([], False, None))
        key = parts[1]
        if key.endswith("/ok.pdf"):
            return self.send(200, PDF, "application/pdf")
        if key == "liar/small.pdf":
            self.send_response(200)
            self.send_header("Content-Type", "application/pdf")
            self.send_header("Content-Length", str(20 << 30))
            self.end_headers()
            chunk = b"%PDF-1.4\n" + b"0" * (1 << 16)
            try:
                for _ in range(1 << 20):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        return self.send(404, b"<Error><Code>NoSuchKey</Code><Message>no such key</Message></Error>")


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
