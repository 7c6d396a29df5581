#!/usr/bin/env bash
# Times liquid-metal's Bevel & Emboss styles next to gegl:bevel and gegl:styles on the GEGL that
# GIMP 3 uses (Debian 13: GEGL 0.4.62), in one process (Tests/Timing/styles_vs_gegl.py); then, in a
# process of its own, the default filter against its floor (Tests/Timing/metal_vs_floor.py), and the
# material maps against gegl:normal-map and the floor (Tests/Timing/maps_vs_gegl.py).
# The root is a cached Debian 13 with gegl and python3-gi (scripts/lib/roots.sh); the built
# plug-in is copied in. Prints the Markdown tables. A benchmark, not a test: it asserts nothing.
#
# Usage: [PLUGIN=path.so] scripts/gimp3-styles-bench.sh [RUNS]   (after swift build -c release; needs root)
set -euo pipefail
cd "$(dirname "$0")/.."
plugin="${PLUGIN:-.build/release/libmercurial.so}"  # PLUGIN=path times another build
[ -f "$plugin" ] || { echo "no $plugin: run swift build -c release first" >&2; exit 1; }
# shellcheck source=scripts/lib/roots.sh
. scripts/lib/roots.sh
scratch_root trixie gegl python3-gi gir1.2-gegl-0.4 fonts-dejavu-core
enter_root "$scratch"
mkdir -p "$scratch/opt/mercurial"
install -m 0644 "$plugin" "$scratch/opt/mercurial/mercurial.so"
install -m 0755 Tests/Timing/styles_vs_gegl.py Tests/Timing/metal_vs_floor.py Tests/Timing/maps_vs_gegl.py "$scratch/opt/"
for script in styles_vs_gegl metal_vs_floor maps_vs_gegl; do
    in_root "$scratch" /usr/bin/env GEGL_PATH=/opt/mercurial:/usr/lib/x86_64-linux-gnu/gegl-0.4 GEGL_USE_OPENCL=no \
        /usr/bin/python3 "/opt/$script.py" "${1:-5}"
    echo
done
