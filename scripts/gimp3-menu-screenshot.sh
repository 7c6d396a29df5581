#!/usr/bin/env bash
# Screenshot of GIMP 3's Filters › Decor menu with Mercurial's "Liquid Metal…" in it, for the
# README: GIMP 3 (the cached chroot of scripts/gimp3-chroot.sh) runs under Xvfb with a fresh
# profile and an image open; xdotool opens the menus; ImageMagick grabs the screen.
# Writes docs/gimp3-filters-decor.png. Needs root (chroot) and a built plug-in.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/chroot-mounts.sh
. scripts/chroot-mounts.sh
root="$(scripts/gimp3-chroot.sh)"
plugin="${PLUGIN:-.build/release/libmercurial.so}"
[ -f "$plugin" ] || { echo "no $plugin: run swift build -c release first" >&2; exit 1; }
trap gimp3_gui_cleanup EXIT
chroot_mount
profile=/tmp/mercurial-gimp3-profile
rm -rf "$root$profile"
mkdir -p "$root$profile/.local/share/gegl-0.4/plug-ins"
install -m 0644 "$plugin" "$root$profile/.local/share/gegl-0.4/plug-ins/mercurial.so"
cp docs/demo.png "$root/tmp/mercurial-demo.png"

chroot "$root" /bin/bash -c "
    export HOME=$profile DISPLAY=:77 GEGL_USE_OPENCL=no
    Xvfb :77 -screen 0 1280x860x24 >/tmp/xvfb.log 2>&1 &
    echo \$! >/tmp/mercurial-xvfb.pid
    sleep 2
    gimp-3.0 --no-splash /tmp/mercurial-demo.png >/tmp/gimp-gui.log 2>&1 &
    echo \$! >/tmp/mercurial-gimp.pid
    for i in \$(seq 1 90); do
        xdotool search --name 'GNU Image Manipulation Program' >/dev/null 2>&1 && break
        sleep 2
    done
    sleep 10
    xdotool mousemove 426 12 click 1   # Filters
    sleep 2
    xdotool mousemove 470 338          # Decor
    sleep 2
    import -window root -crop 820x610+0+0 /tmp/gimp3-filters-decor.png
"
mkdir -p docs
cp "$root/tmp/gimp3-filters-decor.png" docs/gimp3-filters-decor.png
echo "wrote docs/gimp3-filters-decor.png"
