# syntax=docker/dockerfile:1
# Reelstat: one image for every role (`--roles api|scheduler|dispatcher|operator`, or all of them by default).
# The base is an argument so that machines without a registry can build from a local Node image.
ARG NODE_IMAGE=docker.io/library/node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
# Only for build machines whose registry mirror has its own CA (npm run image:test mounts the bundle): an
# ARG is visible to this stage's RUN steps and never reaches the final image.
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
# Manifests first: the dependency layer is rebuilt only when they change.
COPY package.json package-lock.json ./
COPY services/contract/package.json services/contract/
COPY services/core/package.json services/core/
COPY services/api/package.json services/api/
COPY services/scheduler/package.json services/scheduler/
COPY services/dispatcher/package.json services/dispatcher/
COPY services/operator/package.json services/operator/
COPY services/server/package.json services/server/
COPY services/jellyfin-sim/package.json services/jellyfin-sim/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf web/src web/e2e services/*/src services/*/test services/*/scripts docs charts deploy

FROM ${NODE_IMAGE}
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="Reelstat" \
      org.opencontainers.image.description="Statistics and monitoring dashboard for Jellyfin and Emby" \
      org.opencontainers.image.licenses="AGPL-3.0-only" \
      org.opencontainers.image.source="https://github.com/reelstat/reelstat" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}"
# tini as PID 1: forwards SIGTERM to Node (which drains and stops cleanly) and reaps children, such as the
# embedded PostgreSQL of a single-node install. fonts-dejavu-core: the font of the year-in-review PNG card.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 reelstat \
 && useradd --system --uid 10001 --gid reelstat --home-dir /data --shell /usr/sbin/nologin reelstat \
 && mkdir -p /data && chown reelstat:reelstat /data
WORKDIR /app
COPY --from=build --chown=root:root /app /app
# Nothing under / is written at run time: DATA_DIR (the embedded database and generated secrets of a
# single-node install) is the only writable place, so the root filesystem can be read-only.
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000 \
    LOG_FORMAT=json
VOLUME ["/data"]
EXPOSE 3000
USER 10001:10001
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "--max-old-space-size=1024", "/app/services/server/dist/main.js"]
