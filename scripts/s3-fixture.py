#!/usr/bin/env python3
"""A real S3 API on loopback for pdfpipe's object-storage tests and benchmark: moto's server
(moto[server] from PyPI) with request signing checked, one IAM user allowed everything, and one
bucket.

    .build/moto/bin/python3 scripts/s3-fixture.py [--port N] [--bucket NAME] [--minutes M]

Prints one JSON line once the server answers:
    {"endpoint": "http://127.0.0.1:PORT", "bucket": "...", "accessKey": "...", "secretKey": "..."}
then serves until killed, or for --minutes (default 30) at most: it stops by itself.

moto checks signatures only with IAM authentication on (INITIAL_NO_AUTH_ACTION_COUNT): the first
requests (making the user, its key and the bucket) are let through unsigned, every later one must be
signed with the user's key, so a wrong secret gets 403 SignatureDoesNotMatch as from AWS.
"""
import argparse
import json
import os
import socket
import sys
import threading
import time

# Three unauthenticated actions: CreateUser, PutUserPolicy, CreateAccessKey. The bucket is made
# signed, with the new key.
os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "3"
os.environ.setdefault("MOTO_S3_DEFAULT_MAX_KEYS", "1000")

from urllib.parse import parse_qsl, quote  # noqa: E402

from moto.iam import access_control  # noqa: E402
from moto.server import ThreadedMotoServer  # noqa: E402
import boto3  # noqa: E402
from botocore.config import Config  # noqa: E402


def _aws_canonical_query(create):
    """moto 5 checks a signature against the request's decoded query (`prefix=a/`), where S3 encodes
    every query value (`prefix=a%2F`, only `-_.~` kept): a correctly signed listing of a prefix with a
    slash is refused (boto3's own too). Re-encoded here as S3 does, before moto signs it."""
    def patched(self):
        path, _, query = self._path.partition("?")
        if query:
            pairs = parse_qsl(query, keep_blank_values=True)
            self._path = path + "?" + "&".join(
                quote(k, safe="-_.~") + "=" + quote(v, safe="-_.~") for k, v in pairs)
        return create(self)
    return patched


access_control.IAMRequestBase._create_aws_request = _aws_canonical_query(
    access_control.IAMRequestBase._create_aws_request)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--bucket", default="pdfpipe-test")
    ap.add_argument("--minutes", type=float, default=30)
    args = ap.parse_args()
    port = args.port or free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    cfg = Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1})
    boot = dict(endpoint_url=endpoint, region_name="us-east-1",
                aws_access_key_id="bootstrap", aws_secret_access_key="bootstrap")
    iam = boto3.client("iam", config=cfg, **boot)
    iam.create_user(UserName="pdfpipe")
    iam.put_user_policy(UserName="pdfpipe", PolicyName="all", PolicyDocument=json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}))
    key = iam.create_access_key(UserName="pdfpipe")["AccessKey"]
    s3 = boto3.client("s3", config=cfg, endpoint_url=endpoint, region_name="us-east-1",
                      aws_access_key_id=key["AccessKeyId"], aws_secret_access_key=key["SecretAccessKey"])
    s3.create_bucket(Bucket=args.bucket)
    print(json.dumps({"endpoint": endpoint, "bucket": args.bucket, "accessKey": key["AccessKeyId"],
                      "secretKey": key["SecretAccessKey"]}), flush=True)
    # Bounded: stops by itself, or when its parent closes our stdin's pipe (a test that died).
    deadline = time.time() + args.minutes * 60
    stop = threading.Event()

    def watch_stdin():
        try:
            while sys.stdin.read(1):
                pass
        except Exception:
            pass
        if not sys.stdin.isatty():
            stop.set()

    if not sys.stdin.isatty() and os.environ.get("S3_FIXTURE_WATCH_STDIN") == "1":
        threading.Thread(target=watch_stdin, daemon=True).start()
    while time.time() < deadline and not stop.is_set():
        time.sleep(0.5)
    server.stop()


if __name__ == "__main__":
    main()
