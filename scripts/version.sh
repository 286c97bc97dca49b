#!/usr/bin/env bash
# Prints pdfpipe's version, from the one place it is written (Sources/PDFPipeCore/Version.swift):
# the .deb, the container image and the release workflow name their files with it.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^ *public static let string = "\(.*\)".*/\1/p' Sources/PDFPipeCore/Version.swift)
[ -n "$version" ] || { echo "version: no version in Sources/PDFPipeCore/Version.swift" >&2; exit 1; }
echo "$version"
