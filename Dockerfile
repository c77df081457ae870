# syntax=docker/dockerfile:1
# The Ordinal controller image: compiled with the full toolchain in `build`, shipped with only the
# compiled JavaScript and production dependencies, running as a non-root user, and needing no writable
# path (deploy/deployment.yaml sets readOnlyRootFilesystem and mounts an emptyDir on /tmp only).
#
#   docker build -t ordinal:0.1.0 .                  # or: buildah bud -t ordinal:0.1.0 .
#   docker run --rm ordinal:0.1.0 --help
#
# BASE_IMAGE is any Node 24 LTS image with npm and a user 1000:1000, e.g. a digest-pinned
# node:24-slim@sha256:… in a release pipeline, or a locally built equivalent where no registry is
# reachable (scripts/image/build-base.sh).
ARG BASE_IMAGE=node:24-slim

FROM ${BASE_IMAGE} AS build
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM ${BASE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY examples ./examples
# The `node` user of the base image, by number so that runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8080 8081
ENTRYPOINT ["node", "/app/bin/ordinal.js"]
CMD ["controller"]
