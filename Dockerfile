# syntax=docker/dockerfile:1
# tokenswap: multi-stage build. The build stage compiles a release binary with the Swift
# standard library linked statically; the runtime stage is slim Debian with only the
# shared libraries that binary needs (scripts/check-runtime-libs checks this list
# against `ldd` of the release binary).

FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends libssl-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve dependencies first so that source edits do not invalidate this layer.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
# Size flags (the same list is in scripts/check-runtime-libs, which fails if they differ):
# lld; no dynamic symbol table (-export-dynamic comes with the static stdlib; nothing
# loads symbols from this executable); relative relocations packed (DT_RELR, glibc >= 2.36
# as in bookworm); a section per function, and public symbols that the link may drop when
# unused (the whole program is linked here), so --gc-sections removes unused code of the
# dependencies. 17.8 MB -> 15.4 MB stripped; scripts/smoke and EndToEndTests pass on it.
RUN swift build -c release --static-swift-stdlib --product tokenswap \
      -Xswiftc -use-ld=lld -Xlinker --no-export-dynamic -Xlinker -z -Xlinker pack-relative-relocs \
      -Xswiftc -Xfrontend -Xswiftc -function-sections \
      -Xswiftc -Xfrontend -Xswiftc -internalize-at-link \
 && install -D -m 0755 "$(swift build -c release --show-bin-path)/tokenswap" /out/tokenswap \
 && strip /out/tokenswap

FROM debian:bookworm-slim AS runtime
# RUNTIME-PACKAGES (kept in sync with `ldd tokenswap` by scripts/check-runtime-libs):
# libssl3 for libssl/libcrypto, libstdc++6 and libgcc-s1 for the C++ runtime the Swift
# runtime uses, libc6 (already in the image), ca-certificates for upstream TLS.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libssl3 libstdc++6 libgcc-s1 ca-certificates \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt /var/log/dpkg.log \
 && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin tokenswap
COPY --from=build /out/tokenswap /usr/local/bin/tokenswap
COPY config /etc/tokenswap
USER tokenswap
ENV TOKENSWAP_HOST=0.0.0.0 TOKENSWAP_PORT=8080
EXPOSE 8080
# No curl in the image: bash's /dev/tcp asks /healthz (on the admin port when one is set).
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${TOKENSWAP_ADMIN_PORT:-${TOKENSWAP_PORT:-8080}} && printf 'GET /healthz HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/tokenswap"]
CMD ["serve"]
