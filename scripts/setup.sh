#!/usr/bin/env bash
# Installs the Debian packages pdfpipe needs, only those that are missing.
#   scripts/setup.sh          build and run: libqpdf-dev, libpoppler-glib-dev, poppler-data (the
#                             CJK character collections poppler reads text with), zlib1g-dev, libjpeg-dev,
#                             libwebp-dev, libcurl4-openssl-dev, pkg-config
#   scripts/setup.sh --test   also what the tests use: qpdf and poppler-utils (second opinions),
#                             chromium (the HTML report is checked in a real headless browser),
#                             python3 (the loopback HTTP server of the external-link tests),
#                             libxml2-utils and python3-jsonschema (JUnit and SARIF reports checked
#                             against their schemas, which scripts/fetch-report-schemas.py fetches),
#                             podman, runc and mmdebstrap (the OCI image is built and run by the tests),
#                             pre-commit (the hook is run by the tests), slurm-wlm and munge (a
#                             single-node Slurm for scripts/slurm-e2e.sh), awscli (the AWS Batch
#                             job definitions are checked by its validation), and moto[server] from PyPI
#                             (a real S3 API on loopback, scripts/s3-fixture.py)
#   scripts/setup.sh --fast-test   only what the fast tier uses (scripts/test.sh fast): qpdf and
#                             poppler-utils (second opinions), python3 and python3-yaml (scripts/shape.py,
#                             the samples' and the release workflow's checks)
#   scripts/setup.sh --mupdf  also libmupdf-dev and the libraries it links, for the MuPDF engine
#                             (swift build --traits MuPDF); --test --mupdf: both
set -euo pipefail

packages=(libqpdf-dev libpoppler-glib-dev poppler-data zlib1g-dev libjpeg-dev libwebp-dev libcurl4-openssl-dev pkg-config)
test=""
for a in "$@"; do
  case "$a" in
    --test) test=--test; packages+=(qpdf poppler-utils chromium python3 libxml2-utils python3-jsonschema python3-yaml jq podman runc mmdebstrap pre-commit slurm-wlm munge awscli) ;;
    --fast-test) packages+=(qpdf poppler-utils python3 python3-yaml) ;;
    --mupdf) packages+=(libmupdf-dev libmujs-dev libgumbo-dev libopenjp2-7-dev libjbig2dec0-dev libfreetype-dev libharfbuzz-dev mupdf-tools) ;;
    *) echo "setup: unknown option $a (--test, --fast-test, --mupdf)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The object-storage tests run a real S3 API on loopback: moto's server, from PyPI, in its own
# virtual environment (.build/moto: never the system's Python, whose packages Debian's awscli needs
# at their Debian versions). Tests and bench/objectstore.sh run .build/moto/bin/python3.
moto() {
  [ "$test" = "--test" ] || return 0
  local venv
  venv="$(cd "$(dirname "$0")/.." && pwd)/.build/moto"
  "$venv/bin/python3" -c "import moto.server, boto3" 2>/dev/null && return 0
  echo "setup: installing moto[server] (PyPI) into $venv" >&2
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    apt_get update -qq
    DEBIAN_FRONTEND=noninteractive apt_get install -y -qq --no-install-recommends python3-venv >/dev/null
    rm -rf "$venv"
    python3 -m venv "$venv"
  fi
  "$venv/bin/python3" -m pip install -q "moto[server]>=5,<6"
}
# apt_get ARGS...: apt-get, waiting (bounded, said on the console) while another apt-get or dpkg
# holds the package manager's lock, as a fresh machine's unattended upgrades and CI runners' own
# set-up do: up to 10 minutes, then the error as apt-get gave it.
apt_get() {
  local start=$SECONDS waited out rc
  while :; do
    waited=$((SECONDS - start))
    rc=0
    out=$($sudo apt-get -o DPkg::Lock::Timeout=30 "$@" 2>&1) || rc=$?
    if [ $rc -eq 0 ]; then return 0; fi
    if ! grep -q "Could not get lock\|Unable to acquire the dpkg frontend lock\|Unable to lock directory" <<<"$out" \
      || [ $waited -ge 600 ]; then
      printf '%s\n' "$out" >&2
      return $rc
    fi
    echo "setup: waiting for the package manager's lock (another apt-get or dpkg is running; ${waited}s so far, at most 600s)" >&2
    sleep 10
  done
}
fetch_schemas() { [ "$test" != "--test" ] || /usr/bin/python3 "$(dirname "$0")/fetch-report-schemas.py"; moto; }
if [ ${#missing[@]} -eq 0 ]; then fetch_schemas; exit 0; fi

echo "setup: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
apt_get update -qq
apt_get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fetch_schemas
