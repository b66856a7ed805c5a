# Switchboard container image: the single executable on a small glibc base, running as non-root.
# Build:  docker build -t switchboard .
#         (labels: --build-arg VERSION=$(jq -r .version package.json) --build-arg REVISION=$(git rev-parse HEAD)
#          --build-arg CREATED=$(date -u +%FT%TZ) --build-arg SOURCE=<repository URL>)
# Run:    docker run -p 8080:8080 -v switchboard-data:/data switchboard

# Build stage: the official Bun image at the version pinned in package.json compiles dist/switchboard.
FROM oven/bun:1.4.5 AS build
WORKDIR /src
COPY package.json bun.lock bunfig.toml ./
# Only runtime dependencies are needed to compile the executable.
RUN bun install --frozen-lockfile --production
COPY tsconfig.json ./
COPY types ./types
COPY scripts ./scripts
COPY src ./src
RUN bun run build && mkdir /empty-data

# Runtime stage: glibc and CA certificates, no shell, no package manager; the binary needs nothing else
# (it links only libc, libpthread, libdl and libm).
FROM gcr.io/distroless/base-debian12:nonroot
# OCI image annotations (https://github.com/opencontainers/image-spec/blob/main/annotations.md). No
# licenses label: the project has not chosen a license yet.
ARG VERSION=0.2.0
ARG REVISION=""
ARG CREATED=""
ARG SOURCE=""
LABEL org.opencontainers.image.title="Switchboard" \
      org.opencontainers.image.description="Self-hosted customer-engagement platform API in one executable" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.base.name="gcr.io/distroless/base-debian12:nonroot"
COPY --from=build /src/dist/switchboard /switchboard
# An empty /data owned by the non-root user (65532), so a fresh named volume is writable.
COPY --from=build --chown=65532:65532 /empty-data /data
ENV DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=8080
VOLUME /data
EXPOSE 8080
USER 65532:65532
# The binary checks itself: GET /health on the port the server really bound (from /data/serve.json, so
# `serve --port 9000` is found too; PORT otherwise), exit 0 or 1 (there is no curl here).
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["/switchboard", "healthcheck"]
ENTRYPOINT ["/switchboard"]
CMD ["serve"]
