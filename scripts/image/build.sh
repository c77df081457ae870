#!/usr/bin/env bash
# Builds the controller image from the repository's Dockerfile with buildah and prints its name,
# localhost/ordinal:<package.json version>. The base is $ORDINAL_BASE_IMAGE when set, else the local
# stand-in for node:24-slim from build-base.sh (built once, then cached); nothing else differs from
# `docker build -t ordinal:<version> .`.
#
#   scripts/image/build.sh
#
# RUN steps use chroot isolation: the default OCI runtime (crun) cannot start containers on hosts with a
# hybrid cgroup v1/v2 hierarchy, this CI machine among them. `npm ci` reaches the npm registry that way too.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$HERE/lib.sh"

img_install_missing buildah
BASE="${ORDINAL_BASE_IMAGE:-$("$HERE/build-base.sh")}"
VERSION="$(node -p 'require(process.argv[1]).version' "$IMG_ROOT/package.json")"
TAG="localhost/ordinal:$VERSION"

image_id() { img_buildah inspect --type image --format '{{.FromImageID}}' "$1" 2>/dev/null || true; }

START=$(date +%s)
PREVIOUS="$(image_id "$TAG")"
img_log "buildah bud $TAG on $BASE"
# No --layers: with vfs every cached step is a full copy of the file system, so one commit per stage is
# both faster and bounded on disk.
img_buildah bud --isolation chroot --pull=never \
  --build-arg "BASE_IMAGE=$BASE" --tag "$TAG" --file "$IMG_ROOT/Dockerfile" "$IMG_ROOT" >&2
CURRENT="$(image_id "$TAG")"
# The previous build of this tag, now untagged, would otherwise pile up run after run.
if [ -n "$PREVIOUS" ] && [ "$PREVIOUS" != "$CURRENT" ]; then img_buildah rmi "$PREVIOUS" >/dev/null 2>&1 || true; fi
img_log "built $TAG (${CURRENT:0:12}, $(img_buildah images --noheading --format '{{.Size}}' "$TAG")) in $(($(date +%s) - START))s"
echo "$TAG"
