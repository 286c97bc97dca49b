#!/usr/bin/env python3
"""Fetches the schemas the CI reports are checked against, for the tests (scripts/setup.sh --test).

- junit-10.xsd: the JUnit XML schema of Jenkins' xUnit plugin (Gregory Boissinot, MIT licence), the
  one pytest checks its own JUnit output against; shipped in pytest's source distribution.
- sarif-schema-2.1.0.json: the OASIS SARIF 2.1.0 JSON schema, shipped in sarif-pydantic's source
  distribution.

Neither schema is committed: both come from PyPI (the only place this project's machines reach
besides Debian), through the simple index, pinned by the SHA-256 of the archive and of the file.
They land in .build/report-schemas/ (git-ignored). Standard library only; idempotent.
"""
import hashlib
import io
import os
import re
import sys
import tarfile
import urllib.request

INDEX = os.environ.get("PDFPIPE_PYPI_INDEX", "https://pypi.org/simple")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DEST = os.path.join(ROOT, ".build", "report-schemas")

# (project, sdist file name, sdist sha256, member path, file name, file sha256)
SCHEMAS = [
    ("pytest", "pytest-8.3.3.tar.gz",
     "70b98107bd648308a7952b06e6ca9a50bc660be218d53c257cc1fc94fda10181",
     "pytest-8.3.3/testing/example_scripts/junit-10.xsd", "junit-10.xsd",
     "a1a816f58d1bf95ebabf371994df0b9246dee66ea9572fbec4f9296f1b2c0ff6"),
    ("sarif-pydantic", "sarif_pydantic-0.6.2.tar.gz",
     "634df2784533fcac8e86f0c60a0e45ead1d35452dc2331d32596275595906e7f",
     "sarif_pydantic-0.6.2/sarif-schema-2.1.0.json", "sarif-schema-2.1.0.json",
     "6352a05f9d03f181b8d9c71a46bdacc4fcff9d8ade5364858b425ba0c0994ed7"),
]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=120) as r:
        return r.read()


def fetch(project, sdist, sdist_sha, member, name, file_sha):
    target = os.path.join(DEST, name)
    if os.path.exists(target):
        with open(target, "rb") as f:
            if sha256(f.read()) == file_sha:
                return
    page = get(f"{INDEX}/{project}/").decode("utf-8", "replace")
    m = re.search(r'href="([^"#]*/' + re.escape(sdist) + r')(#[^"]*)?"', page)
    if not m:
        sys.exit(f"fetch-report-schemas: {sdist} is not in {INDEX}/{project}/")
    url = urllib.request.urljoin(f"{INDEX}/{project}/", m.group(1))
    archive = get(url)
    if sha256(archive) != sdist_sha:
        sys.exit(f"fetch-report-schemas: {url}: SHA-256 {sha256(archive)}, expected {sdist_sha}")
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        data = tar.extractfile(member).read()
    if sha256(data) != file_sha:
        sys.exit(f"fetch-report-schemas: {member}: SHA-256 {sha256(data)}, expected {file_sha}")
    os.makedirs(DEST, exist_ok=True)
    tmp = target + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, target)
    print(f"fetch-report-schemas: {name} from {sdist}", file=sys.stderr)


for s in SCHEMAS:
    try:
        fetch(*s)
    except OSError as e:
        sys.exit(f"fetch-report-schemas: {s[1]}: {e}")
