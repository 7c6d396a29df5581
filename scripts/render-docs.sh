#!/usr/bin/env bash
# Renders every picture in the README with the real `gegl` and the built plug-in.
# Usage: scripts/render-docs.sh   (after `swift build -c release`; the GIMP 3 menu picture is
# made by scripts/gimp3-menu-screenshot.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp .build/release/libmercurial.so "$stage/mercurial.so"
export GEGL_PATH="$stage:$(pkg-config --variable=pluginsdir gegl-0.4)"
export GEGL_USE_OPENCL=no
mkdir -p docs

# The README's demo command, as written there (between the demo markers).
demo="$(sed -n '/<!-- demo-command -->/,/<!-- \/demo-command -->/p' README.md | grep '^gegl ')"
(cd docs && eval "$demo")
echo "rendered docs/$(echo "$demo" | sed -n 's/.*-o \([^ ]*\).*/\1/p')"

# Gallery pictures.
gegl -o docs/hemisphere.png -- mercurial:hemisphere-light-render size=256
echo "rendered docs/hemisphere.png"
gegl -o docs/height-field.png -- gegl:text string=Mercurial size=96 color=white mercurial:height-field-from-mask radius=10
echo "rendered docs/height-field.png"

for f in examples/*.xml; do
    [ -e "$f" ] || continue
    name="$(basename "$f" .xml)"
    gegl -i "$f" -o "docs/$name.png"
    echo "rendered docs/$name.png"
done

/usr/bin/python3 examples/python/liquid_metal.py docs/python-liquid-metal.png "Hg 80"
/usr/bin/python3 examples/python/material_maps.py "$stage/sprite" --sheet docs/material-maps.png >/dev/null
echo "rendered docs/material-maps.png"
/usr/bin/python3 scripts/bevel-sheet.py docs/bevel-styles.png
echo "rendered docs/bevel-styles.png"
