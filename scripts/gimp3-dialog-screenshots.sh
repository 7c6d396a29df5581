#!/usr/bin/env bash
# Screenshots of every Mercurial menu filter's dialog in GIMP 3, for docs/gimp.md: GIMP 3 (the
# cached chroot of scripts/gimp3-chroot.sh) runs under Xvfb on a 1366×768 screen with black text
# open; for each menu op of plugin-manifest, xdotool opens the filter through GIMP's action search
# ("/", the op's name, Enter) and ImageMagick grabs the dialog. Writes docs/gimp3-dialog-<op>.png.
# Documentation, not a test. Needs root (chroot) and a built plug-in.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/chroot-mounts.sh
. scripts/chroot-mounts.sh
root="$(scripts/gimp3-chroot.sh)"
plugin="${PLUGIN:-.build/release/libmercurial.so}"
[ -f "$plugin" ] || { echo "no $plugin: run swift build -c release first" >&2; exit 1; }
trap gimp3_gui_cleanup EXIT
chroot_mount
profile=/tmp/mercurial-gimp3-dialogs
rm -rf "$root$profile" "$root/tmp/mercurial-dialogs"
mkdir -p "$root$profile/.local/share/gegl-0.4/plug-ins" "$root/tmp/mercurial-dialogs"
install -m 0644 "$plugin" "$root$profile/.local/share/gegl-0.4/plug-ins/mercurial.so"
# GIMP's own text: black on transparency (made by the chroot's gegl).
chroot "$root" /usr/bin/env GEGL_USE_OPENCL=no gegl -o /tmp/mercurial-dialogs/text.png -- \
    gegl:text string=Hg size=150 color=black gegl:crop width=300 height=200 >/dev/null 2>&1

# op|menu label, for every menu op.
entries="$(/usr/bin/python3 -c '
import json
for o in json.load(open("plugin-manifest"))["operations"]:
    if "gimp:menu-label" in o:
        print(o["name"].split(":")[1] + "|" + o["gimp:menu-label"].rstrip("…"))')"

mkdir -p "$root$profile/.config/GIMP/3.0"
echo '(show-welcome-dialog no)' >"$root$profile/.config/GIMP/3.0/gimprc"
chroot "$root" /bin/bash -c "
    export HOME=$profile DISPLAY=:78 GEGL_USE_OPENCL=no
    Xvfb :78 -screen 0 1366x768x24 >/tmp/xvfb.log 2>&1 &
    echo \$! >/tmp/mercurial-xvfb.pid
    sleep 2
    gimp-3.0 --no-splash /tmp/mercurial-dialogs/text.png >/tmp/gimp-gui.log 2>&1 &
    echo \$! >/tmp/mercurial-gimp.pid
    for i in \$(seq 1 90); do
        xdotool search --onlyvisible --name ' – GIMP' >/dev/null 2>&1 && break
        sleep 2
    done
    sleep 8
    # No window manager: close GIMP's welcome window if it came anyway, and size the main window.
    for w in \$(xdotool search --name 'Welcome to GIMP'); do xdotool windowclose \$w || true; done
    main=\$(xdotool search --onlyvisible --name ' – GIMP' | head -1)
    xdotool windowmove \$main 0 0 windowsize \$main 1366 768
    sleep 3
    while IFS='|' read -r op label; do
        # Focus the canvas beside the layer (nothing to paint there), then GIMP's action search.
        xdotool mousemove 300 650 click 1
        sleep 1
        xdotool key slash
        sleep 2
        search=\$(xdotool search --onlyvisible --name 'Search Actions' | head -1)
        [ -n \"\$search\" ] && xdotool windowfocus \$search
        # The action's label names the op: the one entry that is this op, whatever shares its title.
        xdotool type --delay 40 \"mercurial:\$op\"
        sleep 2
        xdotool key Return
        sleep 6
        dialog=\$(xdotool search --onlyvisible --name \"(mercurial:\$op)\" | head -1)
        if [ -z \"\$dialog\" ]; then echo \"no dialog for \$op\" >&2; continue; fi
        xdotool windowmove \$dialog 480 0
        xdotool mousemove 1360 760
        sleep 3
        eval \$(xdotool getwindowgeometry --shell \$dialog)
        import -window root -crop \${WIDTH}x\${HEIGHT}+480+0 +repage /tmp/mercurial-dialogs/\$op.png
        echo \"\$op: dialog \${WIDTH}×\${HEIGHT}\"
        xdotool windowfocus \$dialog key Escape
        sleep 2
    done <<<\"$entries\"
"
mkdir -p docs
for f in "$root"/tmp/mercurial-dialogs/*.png; do
    name="$(basename "$f" .png)"
    [ "$name" = text ] && continue
    cp "$f" "docs/gimp3-dialog-$name.png"
    echo "wrote docs/gimp3-dialog-$name.png"
done
