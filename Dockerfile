# The pdfpipe image where a registry is reachable (the release workflow): the same image as
# scripts/build-image.sh makes without one, from Debian's bookworm-slim and the .deb that
# scripts/build-deb.sh writes. The tests build it too, on a debian:bookworm-slim tagged locally
# from a Debian root file system, so that this file is proven, not hoped.
#
#   bash scripts/build-deb.sh && podman build -t pdfpipe:0.1.0 .
FROM debian:bookworm-slim
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG SOURCE=https://github.com/pdfpipe/pdfpipe
COPY out/deb/pdfpipe_${VERSION}_amd64.deb /tmp/
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends /tmp/pdfpipe_${VERSION}_amd64.deb \
 && rm -rf /var/lib/apt/lists/* /tmp/*.deb /usr/share/doc/*/changelog* /usr/share/man/*
ENV LANG=C.UTF-8
WORKDIR /github/workspace
LABEL org.opencontainers.image.title=pdfpipe \
      org.opencontainers.image.version=${VERSION} \
      org.opencontainers.image.revision=${REVISION} \
      org.opencontainers.image.licenses=GPL-3.0-or-later \
      org.opencontainers.image.source=${SOURCE}
ENTRYPOINT ["pdfpipe"]
