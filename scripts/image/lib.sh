# Helpers shared by the image scripts (sourced, not run).
# shellcheck shell=bash

img_log() { printf '[image] %s\n' "$*" >&2; }
img_die() { printf '[image] ERROR: %s\n' "$*" >&2; exit 1; }

# shellcheck disable=SC2034 # used by the scripts that source this file
IMG_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck disable=SC2034
IMG_CACHE="${ORDINAL_CACHE:-$HOME/.cache/ordinal}"
# vfs works without overlay mounts (nested containers, sandboxes); every buildah call must use the same
# driver, so the driver lives here and in the image test (ORDINAL_IMAGE_STORAGE_DRIVER).
IMG_STORAGE_DRIVER="${ORDINAL_IMAGE_STORAGE_DRIVER:-vfs}"

img_buildah() { buildah --storage-driver "$IMG_STORAGE_DRIVER" "$@"; }

img_have() { img_buildah inspect --type image "$1" >/dev/null 2>&1; }

# Installs Debian packages the machine lacks (as root, or through sudo).
img_install_missing() {
  local missing=() sudo=() pkg
  for pkg in "$@"; do command -v "${pkg%%:*}" >/dev/null 2>&1 || missing+=("${pkg#*:}"); done
  [ "${#missing[@]}" -gt 0 ] || return 0
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  img_log "apt-get install ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}
