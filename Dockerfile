# syntax=docker/dockerfile:1
# The service's image (docs/operating/container.md): the built server and its production
# dependencies on NODE_IMAGE, run as the non-root `node` user, node as PID 1.
#   docker build -t lookup .
#   docker build --secret id=npmrc,src=$HOME/.npmrc -t lookup .   # a private registry or a proxy's CA
#   docker run --read-only -v lookup-spool:/var/lib/lookup/audit-spool -e DATABASE_URL=... -p 3000:3000 lookup
#   docker run --rm -e DATABASE_URL=... lookup node dist/server/cli/migrate.js
ARG NODE_IMAGE=node:20-bookworm-slim

# Every dependency, the compiled server, its migrations and the prepared contract (dist/).
# npm's configuration arrives as a build secret: it is never written into a layer.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN --mount=type=secret,id=npmrc,target=/root/.npmrc,required=false npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# The production dependencies alone; no install scripts run (none is needed). npm leaves an
# empty folder for each scope of the dev dependencies: removed.
FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN --mount=type=secret,id=npmrc,target=/root/.npmrc,required=false npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && find node_modules -mindepth 1 -maxdepth 1 -type d -empty -delete

FROM ${NODE_IMAGE}
# Safe defaults for a container: production (it refuses to start without a database that
# outlives it), listening on every interface, the audit spool on a volume of its own.
ENV NODE_ENV=production \
    APP_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    AUDIT_SPOOL_DIR=/var/lib/lookup/audit-spool
WORKDIR /app
# Owned by root and not writable by the service: it writes only to the spool.
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /var/lib/lookup/audit-spool && chown node:node /var/lib/lookup/audit-spool
USER node
EXPOSE 3000
# SIGTERM drains requests in flight and exits 0 (docs/operating/shutdown.md). The exec form
# makes node PID 1, so it receives the signal itself.
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=8", "dist/server/main.js"]
