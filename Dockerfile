# syntax=docker/dockerfile:1
# The production image: the api by default, a worker with another command (docker-compose.yml runs both).
#   docker build -t notify-service .
#   docker run … notify-service                                    # node dist/apps/api/src/main.js --mode=api
#   docker run … notify-service node --max-semi-space-size=64 --single-threaded-gc dist/apps/worker/src/main.js  # a worker
# Install scripts are skipped: the service needs none (msgpackr-extract's prebuilt addon is a package of
# its own, found without a build step), and the build image has no compiler for node-gyp to use.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY apps ./apps
COPY libs ./libs
RUN npm run build

FROM node:20-bookworm-slim AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
# --omit=optional too: i18next's optional peer, typescript, would otherwise come along (the optional
# packages left out are native speed-ups built by install scripts, which --ignore-scripts skips anyway,
# and pg's Cloudflare socket)
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The files stay root's: the service only reads them.
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/v1/health-check').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/api/src/main.js", "--mode=api"]
