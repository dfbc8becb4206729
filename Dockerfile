# Build stage: compiles TypeScript and better-sqlite3 (from source when no prebuilt binary is reachable).
FROM node:20-bookworm-slim AS build
# node-gyp builds better-sqlite3 against the image's own Node headers instead of downloading them,
# so the image builds where only the npm registry is reachable.
ENV npm_config_nodedir=/usr/local
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/* \
  && npm install -g npm@11.19.1
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY migrations ./migrations
COPY seeds ./seeds
COPY profiles ./profiles
# The run stage gets production dependencies only. typeorm names ts-node (and with it TypeScript)
# as an optional peer, so the lock file marks them devOptional and --omit=dev alone keeps them
# (25 MB); no production dependency is optional, so --omit=optional drops exactly those. Of
# better-sqlite3's build only the addon itself stays (its sources and objects are another 27 MB).
RUN npm run build \
  && npm prune --omit=dev --omit=optional \
  && cd node_modules/better-sqlite3 \
  && rm -rf deps src build/Release/obj build/Release/obj.target build/Release/test_extension.node build/Release/sqlite3.a

# Run stage: only the compiled app and its production dependencies, as the unprivileged node user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_PATH=/data/sandbox.sqlite
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/profiles ./profiles
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + process.env.PORT + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# As `npm run start:prod`: a smaller young generation and a slower-growing heap keep the peak RSS
# under load near 140 MB instead of 250 MB; V8's helper threads are as many as the spare cores,
# not 4, which cut p99 latency; and no memory reducer, so a burst after an idle gap does not start
# on a shrunken heap (docs/benchmark.md).
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=30", "--v8-pool-size=0", "--no-memory-reducer", "dist/src/main.js"]
