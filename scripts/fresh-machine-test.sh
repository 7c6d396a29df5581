#!/usr/bin/env bash
# The newcomer's path, proved: on a fresh, minimal Debian 12 root (debootstrap, cached) that has
# only a Swift toolchain (this machine's, bind-mounted read-only, with the packages swift.org lists
# for it), a clean clone of this repository runs exactly the README's commands: the install
# command, the demo command, the test command, the Python example and the benchmark command (which
# must run; its figures are not judged). Nothing else is installed.
#
# Usage: sudo scripts/fresh-machine-test.sh      (root: debootstrap, chroot, mount)
# Prints "SKIPPED: <reason>" and exits 0 when no root can be made (no root rights, no mirror);
# any failure of a README command exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
# shellcheck source=scripts/lib/roots.sh
. scripts/lib/roots.sh

# What the Swift toolchain itself needs to run on Debian 12 (not the project's packages: those are
# install.sh's job, and proving that is the point of this test).
toolchain_needs="ca-certificates git gcc libc6-dev libstdc++-12-dev binutils libcurl4 libxml2 libedit2
    libsqlite3-0 libncurses6 libz3-4 python3 zlib1g-dev tzdata"

swift_bin="$(command -v swift || true)"
[ -n "$swift_bin" ] || { echo "SKIPPED: fresh-machine test: no Swift toolchain on PATH to lend the root"; exit 0; }
toolchain="$(dirname "$(dirname "$(dirname "$(readlink -f "$swift_bin")")")")"   # …/usr/bin/swift → …
[ "$(id -u)" -eq 0 ] || { echo "SKIPPED: fresh-machine test: needs root (debootstrap, chroot)"; exit 0; }
reason="$(mktemp)"
# shellcheck disable=SC2086
if ! scratch_root bookworm $toolchain_needs 2>"$reason"; then
    echo "SKIPPED: fresh-machine test: no Debian 12 root: $(tail -1 "$reason")"; exit 0
fi
root="$scratch"
enter_root "$root"
bind_into_root "$toolchain" "$root" ro

# A clean clone of what is committed (uncommitted changes are not part of a fresh machine's copy).
git clone -q --no-local "$repo" "$root/work/mercurial"
echo "clean clone of $(git -C "$repo" rev-parse --short HEAD) in a fresh Debian $(cat "$root/etc/debian_version") root; Swift from $toolchain"

# shellcheck source=scripts/lib/readme.sh
. scripts/lib/readme.sh
install_command="$(readme_block install-command)"
demo_command="$(readme_block demo-command)"
test_command="$(readme_block test-command)"
python_command="$(readme_block python-command)"
bench_command="$(readme_block bench-command)"
for c in install_command demo_command test_command python_command bench_command; do
    [ -n "${!c}" ] || { echo "FAIL: the README has no $c block"; exit 1; }
done

passed=0 failed=0
step() {
    local name="$1" command="$2" log="$root/tmp/step.log" status=0
    echo "== $name: $command"
    in_root "$root" /bin/bash -c "export PATH=$toolchain/usr/bin:\$PATH GEGL_USE_OPENCL=no; cd /work/mercurial && $command" \
        >"$log" 2>&1 || status=$?
    # The test runner's summary and any failure, not the whole build log.
    grep -E "^Test Suite 'All tests'|Executed [0-9]+ tests|error:|failed|FAIL|installed |gegl now lists|wrote|^Mercurial benchmark|liquid-metal on a text layer" "$log" | tail -15 || true
    if [ "$status" -eq 0 ]; then echo "ok   $name"; passed=$((passed + 1));
    else echo "FAIL $name (exit $status); last lines:"; tail -30 "$log"; failed=$((failed + 1)); fi
    return "$status"
}
step "README install command" "$install_command" &&
    step "README demo command" "cd /tmp && $demo_command && test -s /tmp/demo.png" &&
    step "README test command" "$test_command" &&
    step "README Python example" "$python_command && test -s liquid-metal.png" &&
    step "README benchmark command (figures not judged; it must run)" "$bench_command" || true
echo "fresh machine: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -eq 5 ]
