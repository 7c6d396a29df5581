#!/usr/bin/env bash
# Runs Tests/Hostile/cases.py: every case in its own process, under a memory limit and a time
# limit, so a crash (signal), a hang (time) or a runaway allocation (memory) fails that case only.
# Usage: scripts/hostile-test.sh [PLUGIN.so] [CASE-PATTERN]   (default: the release build, all)
# Limits: MERCURIAL_HOSTILE_MEMORY_KB (default 4 GiB of address space; "unlimited" for sanitizer
# builds, whose shadow memory needs terabytes of address space: they bound memory themselves),
# MERCURIAL_HOSTILE_SECONDS (60). MERCURIAL_PRELOAD: a library preloaded into each case only
# (a sanitizer runtime, see scripts/sanitizer-test.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
plugin="${1:-.build/release/libmercurial.so}"
pattern="${2:-}"
memory_kb="${MERCURIAL_HOSTILE_MEMORY_KB:-4194304}"
seconds="${MERCURIAL_HOSTILE_SECONDS:-60}"
# shellcheck source=scripts/lib/stage.sh
. scripts/lib/stage.sh
stage_plugin "$plugin"
passed=0 failed=0
while IFS= read -r case; do
    [ -z "$pattern" ] || [[ "$case" == *$pattern* ]] || continue
    start=$(date +%s%N)
    out="$( (ulimit -v "$memory_kb"; exec timeout -s KILL "$seconds" env ${MERCURIAL_PRELOAD:+LD_PRELOAD=$MERCURIAL_PRELOAD} \
        /usr/bin/python3 Tests/Hostile/cases.py "$case") 2>&1)"
    status=$?
    took_ms=$((($(date +%s%N) - start) / 1000000))
    took="$((took_ms / 1000)).$((took_ms % 1000 / 100))"
    if [ "$status" -eq 0 ]; then
        echo "ok   $case (${took} s)"; passed=$((passed + 1))
    else
        why="exit $status"
        [ "$status" -eq 137 ] && why="killed after ${seconds} s (hang) or by the memory limit"
        [ "$status" -gt 128 ] && [ "$status" -ne 137 ] && why="signal $((status - 128))"
        echo "FAIL $case ($why, ${took} s)"; echo "$out" | grep -v "^$" | tail -4 | sed 's/^/     /'
        failed=$((failed + 1))
    fi
done < <(/usr/bin/python3 Tests/Hostile/cases.py --list)
echo "hostile inputs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
