#!/usr/bin/env bash
# Provisions (once) and caches a Debian 13 chroot with GIMP 3, for testing Mercurial in GIMP 3
# headless. Debian 12 ships GIMP 2.10 only. The chroot lives in
# ${MERCURIAL_GIMP3_CHROOT:-$HOME/.cache/mercurial/gimp3-trixie} and is reused when complete.
#
# Usage: scripts/gimp3-chroot.sh            provision if needed, print the chroot's path
# Exit status 0 with the path on stdout when ready; non-zero with the reason on stderr otherwise.
set -euo pipefail
root="${MERCURIAL_GIMP3_CHROOT:-$HOME/.cache/mercurial/gimp3-trixie}"
stamp="$root/.mercurial-ready"
# The Debian mirror this machine's apt already uses (its main archive, not security).
mirror="${MERCURIAL_DEBIAN_MIRROR:-$( (cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null || true) |
    grep -E '^(URIs:|deb )' | grep -o 'http[s]*://[^ ]*' | grep -v security | head -1)}"
mirror="${mirror:-http://deb.debian.org/debian}"

# What the chroot holds: GIMP 3, a virtual X server and the tools for the menu screenshot.
packages="gimp xvfb xauth xdotool imagemagick fonts-dejavu-core"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$packages" ]; then
    echo "$root"
    exit 0
fi
[ "$(id -u)" -eq 0 ] || { echo "needs root (debootstrap and chroot)" >&2; exit 2; }
if ! command -v debootstrap >/dev/null; then
    apt-get install -y -qq debootstrap >/dev/null 2>&1 || { echo "cannot install debootstrap" >&2; exit 2; }
fi
mkdir -p "$(dirname "$root")"
log="$(dirname "$root")/gimp3-provision.log"
echo "provisioning GIMP 3 chroot in $root (log: $log) …" >&2
if [ ! -x "$root/usr/bin/apt-get" ]; then
    rm -rf "$root"
    debootstrap --variant=minbase trixie "$root" "$mirror" >"$log" 2>&1 ||
        { echo "debootstrap failed (see $log)" >&2; exit 3; }
fi
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get update >>"$log" 2>&1 ||
    { echo "apt-get update in the chroot failed (see $log)" >&2; exit 3; }
# shellcheck disable=SC2086
chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    $packages >>"$log" 2>&1 ||
    { echo "installing GIMP 3 in the chroot failed (see $log)" >&2; exit 3; }
chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get clean >>"$log" 2>&1 || true
chroot "$root" gimp-console-3.0 --version >>"$log" 2>&1 || { echo "gimp-console-3.0 does not run in the chroot (see $log)" >&2; exit 3; }
echo "$packages" >"$stamp"
echo "$root"
