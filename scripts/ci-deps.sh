#!/usr/bin/env bash
# What CI's scripts need beyond the README's commands (./install.sh installs everything the tests
# need): debootstrap (fresh-machine and package tests, the GIMP 3 root), lintian (package.sh),
# GIMP 2.10 (its loading test) and valgrind (scripts/sanitizer-test.sh). Debian/Ubuntu; skips what is present.
set -euo pipefail
packages=(debootstrap lintian gimp valgrind)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "CI packages present: ${packages[*]}"; exit 0; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing ${missing[*]} …"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
