#!/usr/bin/env bash
# Provisions (once) and caches a Debian 13 root with GIMP 3 and the gegl command line, for testing
# Mercurial in GIMP 3 headless (Debian 12 ships GIMP 2.10 only). Made by scripts/lib/roots.sh and
# kept in ~/.cache/mercurial/roots/; reused while its package list is the same.
#
# Usage: scripts/gimp3-chroot.sh            provision if needed, print the root's path
# Exit status 0 with the path on stdout when ready; non-zero with the reason on stderr otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/roots.sh
. scripts/lib/roots.sh
# GIMP 3, gegl, a virtual X server and the tools for the menu screenshot.
base_root trixie gimp gegl xvfb xauth xdotool imagemagick fonts-dejavu-core
