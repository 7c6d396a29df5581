#!/usr/bin/env bash
# The plug-in built with run-time checks, loaded into real GEGL by the plug-in tests (XCTest) and
# by the hostile-input suite (python-gi), each mode in its own scratch folder (.build-MODE, kept
# between runs like .build):
#   address   AddressSanitizer: the plug-in and the tests instrumented; every plug-in test, every
#             hostile case (the runtime preloaded into python3 and the gegl CLI)
#   checked   Swift has no UndefinedBehaviorSanitizer on Linux; its own stand-in is its overflow,
#             bounds and exclusivity traps, which the kernels' -Ounchecked removes. This builds the
#             kernels with them (MERCURIAL_CHECKED_KERNELS=1): every kernel and plug-in test, every
#             hostile case
#   thread    ThreadSanitizer: the plug-in instrumented, the runtime preloaded into python3; every
#             hostile case. GEGL and GLib are not instrumented: scripts/tsan.supp lists, with
#             reasons, the hand-offs of theirs it cannot see.
#   valgrind  memcheck on the real gegl CLI running each op (the release build): 0 errors
#             (scripts/valgrind.supp: the dynamic loader's own RUNPATH reads, as for GEGL's modules)
# Usage: scripts/sanitizer-test.sh [address|checked|thread|valgrind]...   (default: all four)
set -uo pipefail
cd "$(dirname "$0")/.."
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(address checked thread valgrind)
toolchain_lib="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib"
runtime() { find "$toolchain_lib/clang" -name "libclang_rt.$1-x86_64.so" | head -1; }
status=0
fail() { echo "FAIL $*"; status=1; }

build() {   # build SCRATCH ARGS...: both plug-ins
    local scratch="$1"; shift
    swift build -c release "$@" --scratch-path "$scratch" --product mercurial >"$scratch.log" 2>&1 &&
        swift build -c release "$@" --scratch-path "$scratch" --product mercurial-test-ops >>"$scratch.log" 2>&1 ||
        { fail "the build in $scratch"; tail -20 "$scratch.log"; return 1; }
}

plugin_tests() {   # plugin_tests NAME SCRATCH PRELOAD SWIFT-TEST-ARGS...
    local name="$1" scratch="$2" preload="$3" log="$2-tests.log" result
    shift 3
    MERCURIAL_BUILD_DIR="$scratch/release" MERCURIAL_PRELOAD="$preload" swift test "$@" --scratch-path "$scratch" >"$log" 2>&1
    result=$?
    grep -E "Executed [0-9]+ tests" "$log" | tail -1
    if [ "$result" -ne 0 ] || grep -qE "ERROR: AddressSanitizer|runtime error:|Fatal error" "$log"; then
        fail "$name: tests"; grep -E -A12 "Sanitizer|runtime error:|Fatal error|error:" "$log" | head -40
    else echo "ok   $name: tests"; fi
}

hostile() {   # hostile NAME SCRATCH PRELOAD
    local name="$1" log="$2-hostile.log"
    MERCURIAL_PRELOAD="$3" MERCURIAL_HOSTILE_MEMORY_KB=unlimited MERCURIAL_HOSTILE_SECONDS=240 \
        scripts/hostile-test.sh "$2/release/libmercurial.so" >"$log" 2>&1
    local result=$?
    tail -1 "$log"
    if [ "$result" -ne 0 ]; then fail "$name: hostile inputs"; grep -A6 FAIL "$log" | head -30; else echo "ok   $name: hostile inputs"; fi
}

for mode in "${modes[@]}"; do
    scratch=".build-$mode"
    echo "== $mode"
    case "$mode" in
        address)
            rt="$(runtime asan)"
            [ -n "$rt" ] || { echo "SKIPPED: address: no AddressSanitizer runtime in $toolchain_lib"; continue; }
            export ASAN_OPTIONS="detect_leaks=0:hard_rss_limit_mb=6000:abort_on_error=1"
            build "$scratch" --sanitize=address || continue
            plugin_tests address "$scratch" "$rt" --sanitize=address
            hostile address "$scratch" "$rt"
            ;;
        checked)
            export MERCURIAL_CHECKED_KERNELS=1
            build "$scratch" || { unset MERCURIAL_CHECKED_KERNELS; continue; }
            plugin_tests checked "$scratch" ""
            hostile checked "$scratch" ""
            unset MERCURIAL_CHECKED_KERNELS
            ;;
        thread)
            rt="$(runtime tsan)"
            [ -n "$rt" ] || { echo "SKIPPED: thread: no ThreadSanitizer runtime in $toolchain_lib"; continue; }
            # Swift's ThreadSanitizer runtime needs the toolchain's libdispatch beside it.
            rt="$rt:$toolchain_lib/swift/linux/libdispatch.so:$toolchain_lib/swift/linux/libBlocksRuntime.so"
            export TSAN_OPTIONS="halt_on_error=1:report_signal_unsafe=0:suppressions=$PWD/scripts/tsan.supp"
            swift build -c release --sanitize=thread --scratch-path "$scratch" --product mercurial >"$scratch.log" 2>&1 ||
                { fail "the build in $scratch"; tail -20 "$scratch.log"; continue; }
            hostile thread "$scratch" "$rt"
            # Not the fuzzer: over thousands of renders GEGL hands the same output memory from one
            # of its threads to another between process calls, through its own uninstrumented
            # locks, and ThreadSanitizer reports the two calls' writes (seen in a hemisphere
            # render); no suppression can name GEGL's allocation without hiding our own writes.
            ;;
        valgrind)
            command -v valgrind >/dev/null || { echo "SKIPPED: valgrind is not installed"; continue; }
            stage="$(mktemp -d)"
            cp .build/release/libmercurial.so "$stage/mercurial.so" 2>/dev/null || { fail "no release build"; continue; }
            text="gegl:text string=Hg size=40 color=white"
            while IFS= read -r graph; do
                log="$stage/valgrind.log"
                (cd "$stage" && GEGL_PATH="$stage:$(pkg-config --variable=pluginsdir gegl-0.4)" GEGL_USE_OPENCL=no \
                    valgrind --error-exitcode=99 --suppressions="$OLDPWD/scripts/valgrind.supp" gegl -o out.png -- $graph) >"$log" 2>&1
                result=$?
                summary="$(grep -o 'ERROR SUMMARY: [0-9]* errors' "$log")"
                if [ "$result" -eq 0 ]; then echo "ok   valgrind: $graph ($summary)"
                else fail "valgrind: $graph (exit $result, $summary)"; grep -E -A8 "Invalid|uninitialised|Conditional" "$log" | head -20; fi
            done <<GRAPHS
$text mercurial:height-field-from-mask radius=8
$text mercurial:height-field-from-mask radius=6 mercurial:shaded-material aux=[ mercurial:hemisphere-light-render size=64 ]
mercurial:hemisphere-light-render size=96
$text mercurial:holographic-hue strength=0.5 cell-size=6
$text mercurial:liquid-metal radius=6 foil=0.2
$text mercurial:lit-relief light2-enabled=true
$text mercurial:matcap radius=5
$text mercurial:holographic-foil cell-size=6
$text mercurial:relief-lighting light2-enabled=true
GRAPHS
            rm -rf "$stage"
            ;;
        *) echo "unknown mode $mode" >&2; exit 2 ;;
    esac
done
exit "$status"
