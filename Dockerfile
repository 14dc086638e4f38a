# One image for every role (api, worker, ingest, migrate); docker-compose.yml picks the role with `command`.
#
#   docker build -t webperf .
#   docker run --rm webperf node server/main.ts        (the default CMD)
#
# The code runs as TypeScript through Node 24's type stripping; the only build step is the Temporal
# workflow bundle, which production workers load instead of bundling at start (WORKFLOW_BUNDLE_PATH).

########## Stage 1: dependencies and the workflow bundle ##########
FROM node:24-bookworm AS build
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# Dependencies first, so code changes do not reinstall them. Install scripts must run: the `node`
# package's preinstall fetches the pinned Node binary, @swc/core and protobufjs set themselves up.
COPY package.json package-lock.json ./
# The typed client and the webperf command are a workspace (client/): npm needs its manifest to install.
COPY client/package.json client/
# npm install from the lockfile: npm ci insists on other platforms' optional packages the lockfile lacks.
RUN npm install --no-audit --no-fund

COPY . .
# Build the bundle with the dev tree present, then drop dev dependencies here, before the runtime stage
# copies node_modules: pruning in a later layer of the runtime stage would leave them in the image.
RUN node worker/build-bundle.ts /app/dist/workflow-bundle.js \
 && test -s /app/dist/workflow-bundle.js \
 && npm prune --omit=dev --no-audit --no-fund

########## Stage 2: runtime ##########
FROM node:24-bookworm-slim AS runtime

# Chromium for Lighthouse (worker role), fonts so pages render with real glyph metrics, and tini as PID 1
# so the Chromium processes Lighthouse starts are reaped and signals reach Node for graceful shutdown.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-noto-color-emoji tini ca-certificates \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
ENV NODE_ENV=production \
    APP_ENV=production \
    WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js \
    CHROMIUM_PATH=/usr/bin/chromium

# The application (with production dependencies only) stays owned by root: the service user can read it
# but not change it. Chromium profiles and Lighthouse temp files go to the OS temp folder.
COPY --from=build /app /app
RUN node -e "require('node:fs').accessSync(process.env.WORKFLOW_BUNDLE_PATH)" \
 && /usr/bin/chromium --version

# Scan images (screenshots, filmstrip frames): written by workers, served by the api; compose mounts one
# shared volume here for both.
ENV ASSETS_DIR=/data/assets
RUN mkdir -p /data/assets /data/ingest-spool && chown node:node /data/assets /data/ingest-spool

# The official image's unprivileged user (uid 1000). A worker that is not root cannot switch users, so
# its scan runner and Chromium run as `node` too, with Chromium's namespace sandbox on; that needs
# unprivileged user namespaces, which Docker's default seccomp profile refuses: docker-compose.yml runs the
# worker with seccomp=unconfined (docs/security.md). Should an operator run the worker as root instead,
# it runs scans as SCAN_USER, which exists here for that case.
RUN useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin webperf-scan
USER node

EXPOSE 3000 3100 3200
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "server/main.ts"]
