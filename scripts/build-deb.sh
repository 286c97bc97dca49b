#!/usr/bin/env bash
# Builds out/deb/pdfpipe_VERSION_ARCH.deb: pdfpipe with the Swift runtime and Foundation linked in
# statically (--static-swift-stdlib), so that the machines it is installed on need no Swift, only
# the Debian libraries it links, which the package's Depends lists (each library the binary needs,
# mapped to the package that holds it here, at least the upstream version found here). Also in the
# package: the ready pipelines and the samples (/usr/share/pdfpipe), the licence and the README.
#   bash scripts/build-deb.sh            then: sudo apt-get install ./out/deb/pdfpipe_*.deb
# (PDFPIPE_BUILD_OUT=DIR writes DIR/deb instead of out/deb: the tests keep the tree clean.)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
version=$(bash scripts/version.sh)
arch=$(dpkg --print-architecture)
# A build path of its own: the static build does not replace the release build of scripts/demo.sh.
swift build -c release --product pdfpipe --static-swift-stdlib --build-path .build/deb
exe=.build/deb/release/pdfpipe

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
install -D -m 0755 "$exe" "$stage/usr/bin/pdfpipe"
strip --strip-debug "$stage/usr/bin/pdfpipe"
install -d "$stage/usr/share/pdfpipe/pipelines" "$stage/usr/share/pdfpipe/samples" "$stage/usr/share/doc/pdfpipe"
install -m 0644 pipelines/*.json "$stage/usr/share/pdfpipe/pipelines/"
install -m 0644 samples/*.pdf samples/README.md "$stage/usr/share/pdfpipe/samples/"
install -m 0644 README.md "$stage/usr/share/doc/pdfpipe/README.md"
install -m 0644 docs/reference.md "$stage/usr/share/doc/pdfpipe/reference.md"
install -m 0755 scripts/github-action.sh "$stage/usr/share/pdfpipe/github-action.sh"
cat > "$stage/usr/share/doc/pdfpipe/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: pdfpipe

Files: *
Copyright: the pdfpipe developers
License: GPL-3.0-or-later
 pdfpipe is free software: you can redistribute it and/or modify it under the terms of the GNU
 General Public License as published by the Free Software Foundation, either version 3 of the
 License, or (at your option) any later version. On Debian systems, the complete text of the GNU
 General Public License version 3 is in /usr/share/common-licenses/GPL-3.
 .
 The binary includes the Swift standard library and Foundation (Apache-2.0 with Runtime Library
 Exception), linked statically.
COPYRIGHT

# Depends: the package of each shared library the binary names (NEEDED), as resolved here.
depends=()
while read -r lib; do
  path=$(ldd "$exe" | awk -v l="$lib" '$1 == l && $2 == "=>" {print $3} index($1, "/") && $1 ~ ("/" l "$") {print $1}' | head -1)
  [ -n "$path" ] || { echo "build-deb: $lib is not found" >&2; exit 1; }
  owner=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null || dpkg -S "/usr$path" 2>/dev/null) \
    || { echo "build-deb: no package holds $path" >&2; exit 1; }
  pkg=${owner%%:*}
  v=$(dpkg-query -W -f='${Version}' "$pkg")
  v=${v%%-*}; v=${v%%+*}
  depends+=("$pkg (>= $v)")
done < <(readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
# poppler reads text in fonts that use the predefined Chinese, Japanese and Korean CMaps (no
# /ToUnicode) only with poppler-data's tables: without it that text is silently lost.
depends+=("poppler-data")
depends_line=$(printf '%s\n' "${depends[@]}" | sort -u | paste -sd, - | sed 's/,/, /g')

install -d "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: pdfpipe
Version: $version
Architecture: $arch
Maintainer: pdfpipe developers <pdfpipe@users.noreply.github.com>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends_line
Section: utils
Priority: optional
Description: declarative pipelines over batches of PDF files
 Runs JSON pipelines over folders of PDFs: checks every link (internal destinations, other PDFs,
 files, web links), bookmarks and named destinations, renders thumbnails, extracts and searches
 text, and writes reports for people and CI (JSON, HTML, Markdown, SARIF, JUnit, GitHub).
 Built on qpdf, poppler and libcurl.
CONTROL

outdir="${PDFPIPE_BUILD_OUT:-out}/deb"
mkdir -p "$outdir"
deb="$outdir/pdfpipe_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "build-deb: wrote $deb ($(du -h "$deb" | cut -f1)); Depends: $depends_line"
