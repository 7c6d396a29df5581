#!/usr/bin/env bash
# What the tests need beyond ./install.sh: python3-gi and GEGL's introspection data (the Python
# example and the picture checker), GIMP 2.10 (its loading test) and debootstrap (the GIMP 3
# chroot). Debian/Ubuntu; skips what is present.
set -euo pipefail
packages=(python3-gi gir1.2-gegl-0.4 gimp debootstrap)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "test packages present: ${packages[*]}"; exit 0; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing ${missing[*]} …"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
