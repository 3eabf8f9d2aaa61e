# Sillon's production image (issue 16; docs/operations.md). Three stages:
#   build   — the toolchain and every dependency: builds the app for BASE_PATH;
#   deps    — production dependencies only, installed with `npm ci --omit=dev` (better-sqlite3 compiled here);
#   runtime — Node and what the server needs, nothing else; runs as the unprivileged user `node`, which owns
#             DATA_DIR only.
# scripts/runtime-check.mjs replays the runtime stage's COPY lines and its `npm ci` in a temporary folder in CI
# (no Docker daemon there), so a file or dependency the runtime misses fails the tests: keep its COPY lines
# one per line, with sources under /app.
ARG NODE_VERSION=20

FROM node:${NODE_VERSION}-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
ARG BASE_PATH=/
RUN BASE_PATH=${BASE_PATH} node server/start.js --build-only && cp -rL build /app/image-build

FROM node:${NODE_VERSION}-bookworm-slim AS deps
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ARG BASE_PATH=/
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/data BASE_PATH=${BASE_PATH}
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/package-lock.json ./package-lock.json
COPY --from=build /app/image-build ./build
COPY --from=build /app/server/start.js ./server/start.js
COPY --from=build /app/server/security/edge.js ./server/security/edge.js
COPY --from=build /app/server/ops/request-log.js ./server/ops/request-log.js
COPY --from=build /app/server/http/data-answer.js ./server/http/data-answer.js
COPY --from=build /app/server/ops/backup.js ./server/ops/backup.js
COPY --from=build /app/scripts/backup.mjs ./scripts/backup.mjs
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "server/start.js"]
