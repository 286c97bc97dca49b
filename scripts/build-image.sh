#!/usr/bin/env bash
# Builds the pdfpipe OCI image without any registry: a minimal Debian bookworm root file system
# made from Debian's packages (mmdebstrap --variant=minbase), the runtime libraries the .deb
# depends on, and the .deb itself (scripts/build-deb.sh), imported with podman and tagged
# pdfpipe:VERSION, and written as out/image/pdfpipe-VERSION.tar, which `podman load` and
# `docker load` accept.
#
#   bash scripts/build-image.sh            then: podman load -i out/image/pdfpipe-VERSION.tar
# (PDFPIPE_BUILD_OUT=DIR: DIR/deb and DIR/image instead of out/: the tests keep the tree clean.)
#
# The image: entrypoint `pdfpipe`, working folder /github/workspace (GitHub mounts the repository
# there for container actions), user root (GitHub requires it of container actions; run it locally
# with --user "$(id -u):$(id -g)" so that outputs belong to you), LANG=C.UTF-8, and the
# org.opencontainers.image.* labels. Documentation, manuals and translations are left out; perl,
# which only usrmerge needs in a finished image, is removed. Needs root (mmdebstrap's root mode,
# podman's storage) and Debian's package archive, nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v mmdebstrap >/dev/null || need+=(mmdebstrap)
command -v podman >/dev/null || need+=(podman)
command -v runc >/dev/null || need+=(runc)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
export CONTAINERS_CONF="$PWD/image/containers.conf"

bash scripts/build-deb.sh >/dev/null
version=$(bash scripts/version.sh)
arch=$(dpkg --print-architecture)
out="${PDFPIPE_BUILD_OUT:-out}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
deb="$out/deb/pdfpipe_${version}_${arch}.deb"
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
source_url=${PDFPIPE_SOURCE_URL:-https://github.com/pdfpipe/pdfpipe}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The .deb's Depends, without versions: the libraries it links, from the archive.
depends=$(dpkg-deb -f "$deb" Depends | sed 's/([^)]*)//g; s/ //g')
mmdebstrap --quiet --variant=minbase --include="usr-is-merged,$depends" \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --customize-hook="copy-in $deb /tmp" \
  --customize-hook="chroot \"\$1\" dpkg -i /tmp/$(basename "$deb")" \
  --customize-hook='chroot "$1" dpkg --purge usrmerge libfile-find-rule-perl libnumber-compare-perl libtext-glob-perl perl libperl5.36 perl-modules-5.36 libgdbm-compat4' \
  --customize-hook='rm -rf "$1"/tmp/*.deb "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin "$1"/var/log/*' \
  bookworm "$work/rootfs.tar"

tag="localhost/pdfpipe:$version"
podman import \
  --change 'ENTRYPOINT ["pdfpipe"]' --change 'WORKDIR /github/workspace' --change 'ENV LANG=C.UTF-8' \
  --change "LABEL org.opencontainers.image.title=pdfpipe" \
  --change "LABEL org.opencontainers.image.version=$version" \
  --change "LABEL org.opencontainers.image.revision=$revision" \
  --change "LABEL org.opencontainers.image.licenses=GPL-3.0-or-later" \
  --change "LABEL org.opencontainers.image.source=$source_url" \
  --change "LABEL org.opencontainers.image.description=Declarative pipelines over batches of PDF files: link audits, thumbnails, text" \
  "$work/rootfs.tar" "$tag" >/dev/null
mkdir -p "$out/image"
rm -f "$out/image/pdfpipe-$version.tar"
podman save --quiet --format docker-archive -o "$out/image/pdfpipe-$version.tar" "$tag" >/dev/null
size=$(podman image inspect "$tag" --format '{{.Size}}')
echo "build-image: $tag, $((size >> 20)) MB; wrote $out/image/pdfpipe-$version.tar ($(du -h "$out/image/pdfpipe-$version.tar" | cut -f1))"
if [ "$size" -gt $((250 << 20)) ]; then
  echo "build-image: the image is larger than 250 MB" >&2
  exit 1
fi
