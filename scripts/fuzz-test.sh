#!/usr/bin/env bash
# A bounded fuzz run of Tests/Hostile/fuzz.py: random graphs of Mercurial's ops and GEGL's own,
# in batches, each batch a child process under a memory limit and a time limit (a crash or a hang
# fails the batch). Prints the seed; replay a failure with
#   MERCURIAL_FUZZ_SEED=S scripts/fuzz-test.sh     or    fuzz.py S I --show / BABL_TOLERANCE=0 fuzz.py S I 1
# Usage: scripts/fuzz-test.sh [PLUGIN.so]   Budget: MERCURIAL_FUZZ_SECONDS (default 150).
# MERCURIAL_HOSTILE_MEMORY_KB and MERCURIAL_PRELOAD as in scripts/hostile-test.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
plugin="${1:-.build/release/libmercurial.so}"
seed="${MERCURIAL_FUZZ_SEED:-$(date +%s)}"
budget="${MERCURIAL_FUZZ_SECONDS:-150}"
batch=25
# shellcheck source=scripts/lib/stage.sh
. scripts/lib/stage.sh
stage_plugin "$plugin"
# babl's exact conversions only (its lossy ones depend on where a run of pixels starts: fuzz.py),
# with a cache of their own so that the caller's babl cache is left as it was.
export BABL_TOLERANCE=0 XDG_CACHE_HOME="$stage/cache"
echo "fuzz seed $seed, budget ${budget} s, batches of $batch"
end=$(($(date +%s) + budget))
first=0 passed=0 failed=0
while [ "$(date +%s)" -lt "$end" ]; do
    out="$( (ulimit -v "${MERCURIAL_HOSTILE_MEMORY_KB:-4194304}"; exec timeout -s KILL 120 \
        env ${MERCURIAL_PRELOAD:+LD_PRELOAD=$MERCURIAL_PRELOAD} /usr/bin/python3 Tests/Hostile/fuzz.py "$seed" "$first" "$batch") 2>&1)"
    status=$?
    fails="$(echo "$out" | grep -c '^FAIL' || true)"
    if [ "$status" -gt 1 ]; then
        echo "FAIL batch $seed:$first..$((first + batch - 1)) died (exit $status: a crash, the memory limit or a hang)"
        echo "$out" | tail -5 | sed 's/^/     /'
        failed=$((failed + batch))
    else
        echo "$out" | grep -A1 '^FAIL' || true
        failed=$((failed + fails))
        passed=$((passed + batch - fails))
    fi
    first=$((first + batch))
done
echo "fuzz: $first random graphs from seed $seed"
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
