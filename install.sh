#!/usr/bin/env bash
# Mercurial installer: installs what is missing, builds the plug-in in release, installs it where
# GEGL hosts (gegl, GIMP 2.10 / 3, any GEGL program) look, and asks the real `gegl` to list it.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: ./install.sh [--prefix DIR] [--uninstall] [--help]

  (no option)     install missing Debian/Ubuntu packages (libgegl-dev, libbabl-dev, libglib2.0-dev,
                  gegl, pkg-config, and python3-gi, gir1.2-gegl-0.4 for the Python example and
                  the tests), build the plug-in in release (and the test-only plug-in the tests
                  load), install a stripped mercurial.so into
                  ${XDG_DATA_HOME:-~/.local/share}/gegl-0.4/plug-ins, and into the Flatpak GIMP's
                  folder ~/.var/app/org.gimp.GIMP/data/gegl-0.4/plug-ins when that app is present.
  --prefix DIR    install into DIR instead (run hosts with GEGL_PATH=DIR:<GEGL's own folder>).
  --uninstall     remove mercurial.so from those folders (or from DIR with --prefix).
  --help          show this help.

Running it again is harmless: it skips what is already there and replaces the plug-in.
EOF
}

die() {
    echo "install.sh: $*" >&2
    exit 1
}

prefix=""
uninstall=0
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix)
            [ $# -ge 2 ] || die "--prefix needs a folder: ./install.sh --prefix DIR"
            prefix="$2"
            shift 2
            ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        --uninstall) uninstall=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option '$1'" ;;
    esac
done

cd "$(dirname "$0")"
library_name="mercurial.so"

# Where the plug-in goes.
targets=()
if [ -n "$prefix" ]; then
    targets+=("$prefix")
else
    targets+=("${XDG_DATA_HOME:-$HOME/.local/share}/gegl-0.4/plug-ins")
    if [ -d "$HOME/.var/app/org.gimp.GIMP" ]; then
        targets+=("$HOME/.var/app/org.gimp.GIMP/data/gegl-0.4/plug-ins")
    fi
fi

if [ "$uninstall" = 1 ]; then
    for dir in "${targets[@]}"; do
        if [ -e "$dir/$library_name" ]; then
            rm -f "$dir/$library_name" || die "could not remove $dir/$library_name (check its permissions)"
            echo "removed $dir/$library_name"
        else
            echo "nothing to remove in $dir"
        fi
    done
    exit 0
fi

# 1. System packages.
packages=(libgegl-dev libbabl-dev libglib2.0-dev gegl pkg-config python3-gi gir1.2-gegl-0.4 binutils)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    command -v apt-get >/dev/null ||
        die "missing ${missing[*]}, and this is not a Debian/Ubuntu system: install GEGL 0.4 and babl with their development files, and pkg-config, then run ./install.sh again"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || die "missing ${missing[*]}: run as root, or install sudo, or: apt-get install ${missing[*]}"
        sudo="sudo"
    fi
    echo "installing ${missing[*]} …"
    $sudo apt-get update -qq || die "apt-get update failed: check your network and apt sources, then run ./install.sh again"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" ||
        die "apt-get could not install ${missing[*]}: install them by hand, then run ./install.sh again"
else
    echo "packages present: ${packages[*]}"
fi

# 2. Build.
command -v swift >/dev/null ||
    die "no Swift toolchain on PATH: install Swift 6 for Linux (swift.org), put its usr/bin on PATH, then run ./install.sh again"
echo "building the plug-in (release) …"
# Every product: the plug-in, the test-only plug-in and the benchmark, so that `swift test` and the
# benchmark find what they load without another build.
swift build -c release ||
    die "the build failed (messages above). 'swift package clean' and a new run often helps after a toolchain change"
built=".build/release/libmercurial.so"
[ -f "$built" ] || die "the build did not produce $built"
# Hosts need no symbols: install a stripped copy (about 6 MB instead of 10).
stripped=".build/release/mercurial-stripped.so"
strip --strip-unneeded -o "$stripped" "$built" || die "strip failed on $built"

# 3. Install.
for dir in "${targets[@]}"; do
    mkdir -p "$dir" || die "could not create $dir (check its permissions, or use --prefix DIR)"
    # Install through a temporary name and rename: a running host never sees half a file.
    install -m 0644 "$stripped" "$dir/.$library_name.tmp" || die "could not write into $dir"
    mv -f "$dir/.$library_name.tmp" "$dir/$library_name"
    echo "installed $dir/$library_name"
done

# 4. Ask the real gegl what it sees.
system_dir="$(pkg-config --variable=pluginsdir gegl-0.4 2>/dev/null || true)"
[ -n "$system_dir" ] || system_dir="/usr/lib/$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)/gegl-0.4"
if [ -n "$prefix" ]; then
    export GEGL_PATH="$prefix:$system_dir"
fi
ops="$(GEGL_USE_OPENCL=no gegl --list-all 2>/dev/null | grep '^mercurial:' || true)"
[ -n "$ops" ] || die "gegl does not list the Mercurial operations after installing: run 'gegl --list-all' to see its messages"
echo "gegl now lists:"
echo "$ops" | sed 's/^/  /'
if [ -n "$prefix" ]; then
    echo "run hosts with: GEGL_PATH=$prefix:$system_dir"
fi
echo "GIMP 3: Filters › Light and Shadow › Mercurial. GIMP 2.10: Tools › GEGL Operation, then pick a mercurial: op."
