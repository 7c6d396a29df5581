#!/bin/sh
# Mercurial's installer for the release tarball: needs only a POSIX shell, no compiler.
#
#   ./install.sh              for you: ${XDG_DATA_HOME:-~/.local/share}/gegl-0.4/plug-ins, and the
#                             Flatpak GIMP's ~/.var/app/org.gimp.GIMP/data/gegl-0.4/plug-ins when
#                             that app is installed
#   ./install.sh --system     for everyone (as root): GEGL's own plug-in folder
#   ./install.sh --uninstall  removes it again (add --system for the system-wide copy)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
name=mercurial.so
system=0
uninstall=0
for arg in "$@"; do
    case "$arg" in
        --system) system=1 ;;
        --uninstall) uninstall=1 ;;
        -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
    esac
done

system_dir() {
    d=$(pkg-config --variable=pluginsdir gegl-0.4 2>/dev/null || true)
    if [ -n "$d" ] && [ -d "$d" ]; then echo "$d"; return 0; fi
    for d in /usr/lib/x86_64-linux-gnu/gegl-0.4 /usr/lib64/gegl-0.4 /usr/lib/gegl-0.4; do
        if [ -d "$d" ]; then echo "$d"; return 0; fi
    done
    return 1
}

if [ "$system" = 1 ]; then
    dirs=$(system_dir) || { echo "install.sh: GEGL 0.4 is not installed (no GEGL plug-in folder found)" >&2; exit 1; }
else
    [ -n "${HOME:-}" ] || { echo "install.sh: HOME is not set" >&2; exit 1; }
    dirs="${XDG_DATA_HOME:-$HOME/.local/share}/gegl-0.4/plug-ins"
    if [ -d "$HOME/.var/app/org.gimp.GIMP" ]; then dirs="$dirs
$HOME/.var/app/org.gimp.GIMP/data/gegl-0.4/plug-ins"; fi
fi

if [ "$uninstall" = 1 ]; then
    echo "$dirs" | while IFS= read -r d; do
        if [ -e "$d/$name" ]; then rm -f "$d/$name" && echo "removed $d/$name"; else echo "nothing to remove in $d"; fi
    done
    exit 0
fi

[ -f "$here/$name" ] || { echo "install.sh: $name is missing beside this script" >&2; exit 1; }
# The floor: x86-64 Linux, glibc 2.34 (Debian 12, Ubuntu 22.04, Fedora 35 and later).
[ "$(uname -m)" = x86_64 ] || { echo "install.sh: this build is for x86-64 Linux, not $(uname -m)" >&2; exit 1; }
glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed 's/^glibc //' || true)
case "$glibc" in
    2.[0-9]|2.[12][0-9]|2.3[0-3]) echo "install.sh: glibc $glibc is too old: Mercurial needs glibc 2.34 or later" >&2; exit 1 ;;
esac
echo "$dirs" | while IFS= read -r d; do
    mkdir -p "$d" || { echo "install.sh: cannot create $d" >&2; exit 1; }
    # Through a temporary name: a running host never sees half a file.
    cp "$here/$name" "$d/.$name.tmp" && chmod 0644 "$d/.$name.tmp" && mv -f "$d/.$name.tmp" "$d/$name" ||
        { echo "install.sh: cannot write $d/$name" >&2; exit 1; }
    echo "installed $d/$name"
done
if command -v gegl >/dev/null 2>&1; then
    ops=$(GEGL_USE_OPENCL=no gegl --list-all 2>/dev/null | grep -c '^mercurial:' || true)
    if [ "$ops" -gt 0 ]; then echo "gegl lists $ops Mercurial operations"
    else echo "install.sh: gegl does not list the Mercurial operations: run 'gegl --list-all' to see its messages" >&2; exit 1; fi
fi
echo "GIMP 3: Filters › Decor › Liquid Metal…, and Filters › Light and Shadow › Mercurial."
echo "GIMP 2.10: Tools › GEGL Operation…, then pick a mercurial: operation."
