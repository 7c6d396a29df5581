#!/usr/bin/env bash
# Mercurial's menu filters as live (non-destructive) filters in GIMP 3, saved and opened again.
#
#   scripts/gimp3-live-test.sh            every menu op of plugin-manifest, applied live to a text
#                                         layer with non-default values (Tests/GIMP3/live_values.py),
#                                         saved to XCF; a fresh GIMP opens it: the same op, the same
#                                         values, the same pixels (within 1/255). Then the fixtures
#                                         (Tests/GIMP3/fixtures: XCFs saved by earlier builds) open
#                                         with this build: same op, same look (within 1/255).
#   scripts/gimp3-live-test.sh --save DIR OPS   only saves (OPS as live_filters.py reads them), with
#                                         PLUGIN=path (default: the release build): makes fixtures.
#
# GIMP 3 comes from the cached Debian 13 root (scripts/gimp3-chroot.sh). Prints "SKIPPED: <reason>"
# and exits 0 when that root cannot be provisioned; any failure exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/chroot-mounts.sh
. scripts/chroot-mounts.sh
gimp3_root "GIMP 3 live filters"
trap chroot_unmount EXIT
chroot_mount

profile=/tmp/mercurial-live-profile
work=/tmp/mercurial-live
install_plugin() {
    rm -rf "$root$profile"
    mkdir -p "$root$profile/.local/share/gegl-0.4/plug-ins"
    install -m 0644 "$plugin" "$root$profile/.local/share/gegl-0.4/plug-ins/mercurial.so"
}
cp Tests/GIMP3/live_filters.py "$root/tmp/mercurial-live_filters.py"

# One GIMP: MODE save|load over $root$work/DIR.
gimp_run() {
    local mode="$1" dir="$2" ops="${3:-}" log="$root$work/$2.$1.log"
    install_plugin
    timeout 600 chroot "$root" /usr/bin/env -i HOME="$profile" PATH=/usr/bin:/bin GEGL_USE_OPENCL=no \
        MERCURIAL_LIVE="$mode" MERCURIAL_LIVE_DIR="$work/$dir" MERCURIAL_LIVE_OPS="$ops" \
        gimp-console-3.0 -i -d --quit --batch-interpreter=python-fu-eval \
        -b "exec(open('/tmp/mercurial-live_filters.py').read())" >"$log" 2>&1 || true
    grep -E '^(saved|reloaded) ' "$log" || true
    if grep -q MERCURIAL-LIVE-FAILED "$log" || ! grep -qE '^(saved|reloaded) ' "$log"; then
        echo "GIMP 3 failed ($mode $dir):"; grep -v '^$' "$log" | tail -25; return 1
    fi
}

if [ "${1:-}" = --save ]; then
    rm -rf "${root:?}$work/save"; mkdir -p "$root$work/save"
    gimp_run save save "$3"
    mkdir -p "$2"
    cp "$root$work"/save/*.xcf "$root$work"/save/*.png "$root$work"/save/*.filters "$2"/
    echo "wrote $(ls "$2" | wc -l) files in $2"
    exit 0
fi

rm -rf "${root:?}$work"; mkdir -p "$root$work/roundtrip" "$root$work/fixtures"
echo "GIMP 3: $(chroot "$root" gimp-console-3.0 --version)"
ops="$(/usr/bin/python3 Tests/GIMP3/live_values.py plugin-manifest)"
echo "== live round trip: $(echo "$ops" | tr ';' '\n' | cut -d= -f1 | tr '\n' ' ')"
gimp_run save roundtrip "$ops"
gimp_run load roundtrip
cp Tests/GIMP3/fixtures/*.xcf Tests/GIMP3/fixtures/*.png "$root$work/fixtures/"
echo "== fixtures saved by earlier builds, opened with this one"
gimp_run load fixtures
/usr/bin/python3 Tests/GIMP3/compare_live.py "$root$work/roundtrip" "$root$work/fixtures" Tests/GIMP3/fixtures
