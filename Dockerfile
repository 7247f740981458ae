# syntax=docker/dockerfile:1
#
# One multi-stage Dockerfile, one target per deployable:
#
#   docker build --target core    -t retail-data/core .
#   docker build --target rest    -t retail-data/rest .
#   docker build --target graphql -t retail-data/graphql .
#   docker build --target mcp     -t retail-data/mcp .
#   docker build --target console -t retail-data/console .
#   docker build --target watcher -t retail-data/watcher .
#
# Stages: `manifests` (every workspace's package.json and the lock file) → `build` (all deps, tsc of
# every package into <pkg>/dist) → `dist` (only package.json + dist of each package, plus the
# watcher's migrations) and
# `deps-<name>` (production dependencies of one workspace) → the runtime target `<name>`, which
# holds its own node_modules and the dist of its package and of its workspace dependencies only (the
# dist of the packages several deployables load comes from the shared stages `service` and
# `gateway-libraries` it builds on).
# Every deployable starts with the OpenTelemetry bootstrap (`--import @retail/telemetry/register`),
# which stays off unless OTEL_* variables configure an exporter (docs/observability.md).
# Runtime images: non-root numeric user, tini as PID 1, nothing written outside /tmp (so
# readOnlyRootFilesystem works), no HEALTHCHECK (Kubernetes probes do that). See docs/deploy.md.

# Node 22 (LTS): the suite runs on it in CI beside the Node 20 of the build machines (20 reached end of
# life on 2026-04-30).
ARG NODE_IMAGE=node:22-bookworm-slim

# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY proto/package.json proto/
COPY telemetry/package.json telemetry/
COPY database/package.json database/
COPY core/package.json core/
COPY gateways/shared/package.json gateways/shared/
COPY gateways/metering/package.json gateways/metering/
COPY gateways/rest/package.json gateways/rest/
COPY gateways/graphql/package.json gateways/graphql/
COPY gateways/mcp/package.json gateways/mcp/
COPY gateways/console/package.json gateways/console/
COPY watcher/package.json watcher/
COPY app/package.json app/
# The clients are workspaces too (not in any image); npm ci checks every workspace against the lock file.
COPY clients/typescript/package.json clients/typescript/
COPY cli/package.json cli/

# ---------------------------------------------------------------------------------------------
FROM manifests AS build
# Install scripts are skipped: no production dependency needs one (buf's is dev-only).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.base.json ./
COPY proto/tsconfig.build.json proto/
COPY proto/src proto/src
COPY telemetry/tsconfig.build.json telemetry/
COPY telemetry/src telemetry/src
COPY database/tsconfig.build.json database/
COPY database/src database/src
COPY core/tsconfig.build.json core/
COPY core/src core/src
COPY gateways/ gateways/
COPY watcher/tsconfig.build.json watcher/
COPY watcher/src watcher/src
COPY watcher/migrations watcher/migrations
# The documentation the REST gateway serves at /docs/: built into a static site below (VitePress, a dev
# dependency installed above; the root `prepare` script that builds it on `npm ci` is skipped here).
COPY docs docs
# Dependency order: the contract first, then the libraries, then the deployables (each package
# resolves its workspace dependencies through their dist/ type declarations).
RUN set -eux; \
    for pkg in proto telemetry database gateways/metering gateways/shared core \
               gateways/rest gateways/graphql gateways/mcp gateways/console watcher; do \
      npx tsc -p "$pkg/tsconfig.build.json"; \
    done; \
    # The console, the REST gateway's pages and GraphiQL serve static files beside their compiled code
    # (gateways/shared: the pages' shared theme).
    for served in gateways/shared gateways/console gateways/rest gateways/graphql; do \
      if [ -d "$served/src/public" ]; then cp -R "$served/src/public" "$served/dist/public"; fi; \
    done; \
    npx vitepress build docs; \
    cp -R docs/.vitepress/dist gateways/rest/dist/docs-site; \
    # The API reference's renderer: one prebuilt file of a dev dependency (@scalar/api-reference and
    # its ~250 packages stay out of the image; gateways/rest/src/pages/assets.ts looks here first).
    cp node_modules/@scalar/api-reference/dist/browser/standalone.js gateways/rest/dist/public/scalar-standalone.js

# ---------------------------------------------------------------------------------------------
# package.json + dist of every package, nothing else (no sources, no tests).
FROM ${NODE_IMAGE} AS dist
WORKDIR /app
COPY --from=build /app/proto/package.json proto/
COPY --from=build /app/proto/dist proto/dist
COPY --from=build /app/telemetry/package.json telemetry/
COPY --from=build /app/telemetry/dist telemetry/dist
COPY --from=build /app/database/package.json database/
COPY --from=build /app/database/dist database/dist
COPY --from=build /app/core/package.json core/
COPY --from=build /app/core/dist core/dist
COPY --from=build /app/gateways/shared/package.json gateways/shared/
COPY --from=build /app/gateways/shared/dist gateways/shared/dist
COPY --from=build /app/gateways/metering/package.json gateways/metering/
COPY --from=build /app/gateways/metering/dist gateways/metering/dist
# The ledger record's SQL migrations, applied at start when it has a database; found beside dist/.
COPY --from=build /app/gateways/metering/migrations gateways/metering/migrations
COPY --from=build /app/gateways/rest/package.json gateways/rest/
COPY --from=build /app/gateways/rest/dist gateways/rest/dist
COPY --from=build /app/gateways/graphql/package.json gateways/graphql/
COPY --from=build /app/gateways/graphql/dist gateways/graphql/dist
COPY --from=build /app/gateways/mcp/package.json gateways/mcp/
COPY --from=build /app/gateways/mcp/dist gateways/mcp/dist
COPY --from=build /app/gateways/console/package.json gateways/console/
COPY --from=build /app/gateways/console/dist gateways/console/dist
# The console's SQL migrations (its users in the ledger's database); found beside dist/.
COPY --from=build /app/gateways/console/migrations gateways/console/migrations
COPY --from=build /app/watcher/package.json watcher/
COPY --from=build /app/watcher/dist watcher/dist
# The watcher applies these SQL migrations at start; store/migrate.ts finds them beside dist/.
COPY --from=build /app/watcher/migrations watcher/migrations

# ---------------------------------------------------------------------------------------------
# Production dependencies of one workspace each; workspace dependencies become symlinks into the
# package folders, which the runtime stage fills from `dist`.
FROM manifests AS deps-core
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace=@retail/core

FROM manifests AS deps-rest
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace=@retail/rest

FROM manifests AS deps-graphql
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace=@retail/graphql

FROM manifests AS deps-mcp
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace=@retail/mcp

FROM manifests AS deps-console
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace=@retail/console

FROM manifests AS deps-watcher
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace=@retail/watcher

# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# HOME in /tmp: the only writable path when the root filesystem is read-only.
ENV NODE_ENV=production HOME=/tmp
USER 10001:10001
ENTRYPOINT ["/usr/bin/tini", "--"]

# ---------------------------------------------------------------------------------------------
# The packages every deployable loads: the contract and the telemetry bootstrap. Each target then adds
# its own node_modules and the dist of its package (the layers below are shared between the images).
FROM runtime AS service
COPY --from=dist /app/proto proto
COPY --from=dist /app/telemetry telemetry

FROM service AS core
COPY --from=deps-core /app/node_modules node_modules
COPY --from=dist /app/core core
ENV GRPC_PORT=50051
EXPOSE 50051
CMD ["node", "--import", "@retail/telemetry/register", "core/dist/main.js"]

# What the gateways and the watcher load besides: the metering library (and the PostgreSQL seam under
# its record) and gateways/shared (the core client).
FROM service AS gateway-libraries
COPY --from=dist /app/database database
COPY --from=dist /app/gateways/metering gateways/metering
COPY --from=dist /app/gateways/shared gateways/shared

# The HTTP gateways and the console, each on port 8080.
FROM gateway-libraries AS http-gateway
ENV PORT=8080
EXPOSE 8080

FROM http-gateway AS rest
COPY --from=deps-rest /app/node_modules node_modules
COPY --from=dist /app/gateways/rest gateways/rest
CMD ["node", "--import", "@retail/telemetry/register", "gateways/rest/dist/main.js"]

FROM http-gateway AS graphql
COPY --from=deps-graphql /app/node_modules node_modules
COPY --from=dist /app/gateways/graphql gateways/graphql
CMD ["node", "--import", "@retail/telemetry/register", "gateways/graphql/dist/main.js"]

FROM http-gateway AS mcp
COPY --from=deps-mcp /app/node_modules node_modules
COPY --from=dist /app/gateways/mcp gateways/mcp
CMD ["node", "--import", "@retail/telemetry/register", "gateways/mcp/dist/main.js"]

FROM http-gateway AS console
COPY --from=deps-console /app/node_modules node_modules
COPY --from=dist /app/gateways/console gateways/console
CMD ["node", "--import", "@retail/telemetry/register", "gateways/console/dist/main.js"]

# The watcher: WatchService on gRPC and the refresh/delivery workers (docs/watches.md). Its folder
# from `dist` carries the migrations it applies at start, under an advisory lock.
FROM gateway-libraries AS watcher
COPY --from=deps-watcher /app/node_modules node_modules
COPY --from=dist /app/watcher watcher
ENV GRPC_PORT=50052
EXPOSE 50052
CMD ["node", "--import", "@retail/telemetry/register", "watcher/dist/main.js"]
