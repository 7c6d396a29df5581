#!/usr/bin/env bash
# Regenerates plugin-manifest (every op, pad, key and property with its ranges, as JSON) from what
# GEGL reports about the freshly built plug-in. Run it after adding or changing an op; the
# manifest test then holds the file equal to the plug-in.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release
MERCURIAL_UPDATE_MANIFEST=1 swift test --filter ManifestTests
git diff --stat -- plugin-manifest
