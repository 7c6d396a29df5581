#!/usr/bin/env bash
# GIMP 2.10 (native on Debian 12): with the plug-in installed in a private plug-in folder,
# gimp-console-2.10 starts and quits cleanly, and the dynamic loader shows it opened mercurial.so.
# (GIMP 2.10's PDB cannot apply an arbitrary GEGL op, so this proves loading; users reach the ops
# through Tools › GEGL Operation.) Prints "SKIPPED: <reason>" when GIMP 2.10 is not installed.
set -euo pipefail
cd "$(dirname "$0")/.."
plugin=".build/release/libmercurial.so"
[ -f "$plugin" ] || { echo "no $plugin: run swift build -c release first" >&2; exit 1; }
command -v gimp-console-2.10 >/dev/null || { echo "SKIPPED: GIMP 2.10 test: gimp-console-2.10 is not installed"; exit 0; }

home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
mkdir -p "$home/data/gegl-0.4/plug-ins"
cp "$plugin" "$home/data/gegl-0.4/plug-ins/mercurial.so"
log="$home/gimp.log"
status=0
HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" GEGL_USE_OPENCL=no LD_DEBUG=files \
    timeout 300 gimp-console-2.10 -i -d -f -b '(gimp-quit 0)' >"$log" 2>&1 || status=$?
echo "GIMP: $(gimp-console-2.10 --version)"
passed=0 failed=0
if [ "$status" -eq 0 ]; then echo "ok   gimp-console-2.10 started and quit (status 0)"; passed=$((passed + 1));
else echo "FAIL gimp-console-2.10 exited with $status"; failed=$((failed + 1)); fi
if grep -q "calling init: $home/data/gegl-0.4/plug-ins/mercurial.so" "$log"; then
    echo "ok   the loader initialised $home/data/gegl-0.4/plug-ins/mercurial.so inside GIMP 2.10"; passed=$((passed + 1))
else
    echo "FAIL mercurial.so was not loaded by GIMP 2.10"; failed=$((failed + 1))
fi
# GModule looks up the optional g_module_unload in every module; LD_DEBUG reports the miss.
problems() { grep -iE "mercurial.*(error|critical)|segmentation" "$log" | grep -v "undefined symbol: g_module_unload" || true; }
if [ -n "$(problems)" ]; then
    echo "FAIL GIMP 2.10 reported errors about the plug-in:"; problems | head -5
    failed=$((failed + 1))
else
    echo "ok   no plug-in errors in GIMP's output"; passed=$((passed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
