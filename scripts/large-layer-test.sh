#!/usr/bin/env bash
# Bounded memory on a large layer: liquid-metal at the largest bevel size on a 16384 × 16384 layer
# (512-px black and transparent squares) through the `gegl` command line, PNG out. Each setting
# passes when gegl exits 0 within the time limit, writes a 16384 × 16384 PNG, reports no error
# (a property or value it does not know), and peaks under the memory limit (its resident set).
# Usage: scripts/large-layer-test.sh [PLUGIN.so]   (default: the release build)
# Limits: MERCURIAL_LARGE_PEAK_KB (default 1.5 GiB), MERCURIAL_LARGE_SECONDS (300).
set -uo pipefail
cd "$(dirname "$0")/.."
plugin="${1:-.build/release/libmercurial.so}"
peak_limit_kb="${MERCURIAL_LARGE_PEAK_KB:-1572864}"
seconds="${MERCURIAL_LARGE_SECONDS:-300}"
# shellcheck source=scripts/lib/stage.sh
. scripts/lib/stage.sh
stage_plugin "$plugin"
size=16384
failed=0
# The settings whose coarse grids and halos are largest: both sides (emboss), and the outer side
# alone; and the exact distances' widest windows (outer chisel soft: halo 260).
for setting in "style=emboss" "style=outer-bevel technique=smooth" "style=outer-bevel technique=chisel-soft"; do
    # shellcheck disable=SC2086 # the setting is several words on purpose
    report="$(/usr/bin/python3 - "$stage/out.png" "$seconds" "$size" $setting <<'EOF'
import resource, struct, subprocess, sys, time
out, seconds, size, setting = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
command = ["gegl", "-o", out, "--", "gegl:checkerboard", "color1=black", "color2=rgba(0,0,0,0)", "x=512", "y=512",
           "gegl:crop", f"width={size}", f"height={size}", "mercurial:liquid-metal", "radius=250", *setting]
start = time.monotonic()
try:
    run = subprocess.run(command, capture_output=True, text=True, timeout=seconds)
except subprocess.TimeoutExpired:
    print(f"FAIL over {seconds} s"); sys.exit(1)
took = time.monotonic() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # kB
problems = []
if run.returncode != 0:
    problems.append(f"exit {run.returncode}")
errors = [l for l in run.stderr.splitlines() if l.startswith("Error:") or "property" in l]
if errors:
    problems.append("gegl said: " + errors[0])
try:
    with open(out, "rb") as f:
        head = f.read(24)
    # The PNG signature, then the IHDR chunk: width and height, big-endian.
    dims = struct.unpack(">II", head[16:24]) if head[:8] == b"\x89PNG\r\n\x1a\n" else None
except OSError:
    dims = None
if dims != (int(size), int(size)):
    problems.append(f"the PNG is {dims}, not {size} × {size}")
print(f"{'FAIL' if problems else 'ok  '} {took:.1f} s, peak {peak} kB" + ("; " + "; ".join(problems) if problems else ""))
print(peak)
sys.exit(1 if problems else 0)
EOF
)"
    status=$?
    line="$(echo "$report" | head -1)" peak="$(echo "$report" | tail -1)"
    rm -f "$stage/out.png"
    if [ "$status" -ne 0 ] || ! [[ "$peak" =~ ^[0-9]+$ ]] || [ "$peak" -ge "$peak_limit_kb" ]; then
        [ "$status" -eq 0 ] && line="FAIL peak ${peak} kB, over the limit of ${peak_limit_kb} kB"
        failed=$((failed + 1))
    fi
    echo "$line — liquid-metal radius=250 $setting, ${size} × ${size}"
done
echo "large layer: $failed failed"
[ "$failed" -eq 0 ]
