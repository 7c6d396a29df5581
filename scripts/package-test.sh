#!/usr/bin/env bash
# Proves the toolchain-free release on machines without Swift (chroots; cached roots, fresh copies):
#
#   Debian 12 (a fresh minimal root): apt-get install ./mercurial-gegl_*.deb → the README demo
#     renders with Debian's gegl → gegl --list-all shows every op → GIMP 2.10 loads the plug-in and
#     quits cleanly → apt-get remove removes it → the tarball's installer, as a user, installs,
#     renders and uninstalls.
#   Debian 13 (the cached GIMP 3 root, copied): the same .deb installs, the demo renders, GIMP 3
#     applies mercurial:liquid-metal to a text layer through Script-Fu; the tarball as a user.
#
# Usage: scripts/package-test.sh [bookworm|trixie]...   (after scripts/package.sh; needs root)
# Prints "SKIPPED: <reason>" for a machine that cannot be made; never a silent pass.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/roots.sh
. scripts/lib/roots.sh
deb="$(ls dist/mercurial-gegl_*_amd64.deb 2>/dev/null | head -1)"
tarball="$(ls dist/mercurial-*-linux-x86_64.tar.gz 2>/dev/null | head -1)"
[ -n "$deb" ] && [ -n "$tarball" ] || { echo "no packages in dist/: run scripts/package.sh first" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "SKIPPED: package test: needs root (debootstrap, chroot)"; exit 0; }
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(bookworm trixie)

demo="$(sed -n '/<!-- demo-command -->/,/<!-- \/demo-command -->/p' README.md | grep '^gegl ')"
expected_ops="$(grep -o '"name" : "mercurial:[a-z-]*"' plugin-manifest | sed 's/.*"\(mercurial:[a-z-]*\)"/\1/' | sort)"
system_so=/usr/lib/x86_64-linux-gnu/gegl-0.4/mercurial.so
passed=0 failed=0 skipped=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
bad() { echo "FAIL $*"; failed=$((failed + 1)); }
# check NAME COMMAND...: runs COMMAND (on the host, usually in_root), passes or fails NAME, prints
# the command's last lines when it fails.
check() {
    local name="$1" log status=0
    shift
    log="$(mktemp)"
    "$@" >"$log" 2>&1 || status=$?
    if [ "$status" -eq 0 ]; then ok "$name"; else bad "$name (exit $status)"; tail -15 "$log" | sed 's/^/     /'; fi
    rm -f "$log"
    return "$status"
}
png_ok() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] && [ "$(stat -c %s "$1")" -gt 10000 ]; }
listed_ops() { in_root "$1" /usr/bin/env ${2:+HOME=$2} GEGL_USE_OPENCL=no gegl --list-all 2>/dev/null | grep '^mercurial:' | sort || true; }
run_as_user() { local root="$1"; shift; chroot --userspec=1000:1000 "$root" /usr/bin/env -i HOME=/home/artist \
    PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 GEGL_USE_OPENCL=no /bin/sh -c "cd /home/artist && $*"; }

tarball_as_user() {
    local root="$1" suite="$2" user_so=/home/artist/.local/share/gegl-0.4/plug-ins/mercurial.so
    in_root "$root" useradd -m -u 1000 artist >/dev/null 2>&1 || true
    cp "$tarball" "$root/home/artist/"
    chown 1000:1000 "$root/home/artist/$(basename "$tarball")"
    local dir
    dir="$(basename "$tarball" .tar.gz)"
    check "$suite: tarball installer as a user (no root) installs into ~/.local/share/gegl-0.4/plug-ins" \
        run_as_user "$root" "tar xzf $(basename "$tarball") && ./$dir/install.sh && test -f $user_so" &&
    check "$suite: as that user, the README demo renders" \
        run_as_user "$root" "$demo && test -s demo.png" &&
    { png_ok "$root/home/artist/demo.png" && ok "$suite: the user's demo.png is a picture" || bad "$suite: the user's demo.png is not a picture"; }
    [ "$(listed_ops "$root" /home/artist)" = "$expected_ops" ] && ok "$suite: gegl lists every op for the user" ||
        bad "$suite: gegl's list for the user differs from plugin-manifest"
    check "$suite: tarball installer --uninstall removes it" run_as_user "$root" "./$dir/install.sh --uninstall && ! test -e $user_so"
    [ -z "$(listed_ops "$root" /home/artist)" ] && ok "$suite: after --uninstall gegl lists no mercurial op" ||
        bad "$suite: gegl still lists mercurial ops after --uninstall"
}

deb_install() {
    local root="$1" suite="$2"
    cp "$deb" "$root/tmp/"
    check "$suite: apt-get install ./$(basename "$deb") (no Swift on this machine)" \
        in_root "$root" /bin/sh -c "! command -v swift && apt-get update -qq && apt-get install -y -qq /tmp/$(basename "$deb") && test -f $system_so"
}

demo_renders() {
    local root="$1" suite="$2"
    rm -f "$root/tmp/demo.png"
    check "$suite: the README demo renders with Debian's gegl" in_root "$root" /bin/sh -c "cd /tmp && GEGL_USE_OPENCL=no $demo" &&
    { png_ok "$root/tmp/demo.png" && ok "$suite: demo.png is a picture ($(stat -c %s "$root/tmp/demo.png") bytes)" || bad "$suite: demo.png is not a picture"; }
    [ "$(listed_ops "$root")" = "$expected_ops" ] && ok "$suite: gegl --list-all shows every op of plugin-manifest" ||
        bad "$suite: gegl --list-all shows $(listed_ops "$root" | tr '\n' ' ')"
}

test_bookworm() {
    local root
    scratch_root bookworm 2>/tmp/mercurial-root-reason || { echo "SKIPPED: Debian 12 package test: $(tail -1 /tmp/mercurial-root-reason)"; skipped=$((skipped + 1)); return; }
    root="$scratch"
    enter_root "$root"
    echo "== Debian $(cat "$root/etc/debian_version"), fresh minimal root, no Swift"
    deb_install "$root" "Debian 12" || return 0
    # The package recommends the gegl command line: the README's demo runs right after installing it.
    demo_renders "$root" "Debian 12"
    check "Debian 12: apt-get install gimp" in_root "$root" apt-get install -y -qq --no-install-recommends gimp || return 0
    # GIMP 2.10 cannot apply an arbitrary GEGL op from its PDB; the loader shows it opened the plug-in.
    local log="$root/tmp/gimp210.log"
    if in_root "$root" /usr/bin/env HOME=/tmp/gimp-home GEGL_USE_OPENCL=no LD_DEBUG=files \
        timeout 300 gimp-console-2.10 -i -d -f -b '(gimp-quit 0)' >"$log" 2>&1; then ok "Debian 12: GIMP 2.10 started and quit cleanly"
    else bad "Debian 12: GIMP 2.10 exited with an error"; tail -5 "$log"; fi
    grep -q "calling init: $system_so" "$log" && ok "Debian 12: GIMP 2.10 loaded $system_so" || bad "Debian 12: GIMP 2.10 did not load $system_so"
    check "Debian 12: apt-get remove mercurial-gegl removes the plug-in" \
        in_root "$root" /bin/sh -c "apt-get remove -y -qq mercurial-gegl && ! test -e $system_so"
    [ -z "$(listed_ops "$root")" ] && ok "Debian 12: after removal gegl lists no mercurial op" || bad "Debian 12: mercurial ops still listed after removal"
    tarball_as_user "$root" "Debian 12"
}

test_trixie() {
    local base root
    if ! base="$(scripts/gimp3-chroot.sh 2>/tmp/mercurial-root-reason)"; then
        echo "SKIPPED: Debian 13 package test: $(tail -1 /tmp/mercurial-root-reason)"; skipped=$((skipped + 1)); return
    fi
    scratch="$(mktemp -d "$cache_dir/scratch-trixie.XXXXXX")"
    roots_made+=("$scratch")
    cp -ax "$base/." "$scratch/"   # -x: never into a /proc or /dev left mounted inside it
    root="$scratch"
    # Other scripts install a development build into the cached root's home: not part of this test.
    rm -rf "$root/root/.local/share/gegl-0.4"
    enter_root "$root"
    echo "== Debian $(cat "$root/etc/debian_version") with GIMP 3 (cached root, copied), no Swift"
    deb_install "$root" "Debian 13" || return 0
    demo_renders "$root" "Debian 13"
    local script='(begin
      (let* ((image (car (gimp-image-new 420 160 RGB)))
             (layer (car (gimp-text-layer-new image "Hg" (car (gimp-context-get-font)) 110 UNIT-PIXEL))))
        (gimp-image-insert-layer image layer 0 0)
        (gimp-drawable-merge-new-filter layer "mercurial:liquid-metal" 0 LAYER-MODE-REPLACE 1.0 "preset" "chrome")
        (gimp-file-save RUN-NONINTERACTIVE image "/tmp/gimp3-liquid-metal.png")
        (gimp-message "saved liquid metal")))'
    local log="$root/tmp/gimp3.log"
    rm -f "$root/tmp/gimp3-liquid-metal.png"
    if in_root "$root" /usr/bin/env HOME=/tmp/gimp-home GEGL_USE_OPENCL=no timeout 600 \
        gimp-console-3.0 -i -d --quit --batch-interpreter=plug-in-script-fu-eval -b "$script" >"$log" 2>&1 &&
        png_ok "$root/tmp/gimp3-liquid-metal.png" && ! grep -q "not installed" "$log"; then
        ok "Debian 13: GIMP 3 applied mercurial:liquid-metal (the .deb's) to a text layer through Script-Fu and saved it"
        # Plain text has a handful of colours; shaded metal has hundreds.
        local colours
        colours="$(in_root "$root" identify -format %k /tmp/gimp3-liquid-metal.png 2>/dev/null || echo 0)"
        [ "$colours" -gt 200 ] && ok "Debian 13: the saved layer is shaded metal ($colours colours)" ||
            bad "Debian 13: the saved layer has $colours colours: the filter did not shade it"
    else
        bad "Debian 13: GIMP 3 did not apply mercurial:liquid-metal"; grep -iE "error|not installed" "$log" | head -5
    fi
    check "Debian 13: apt-get remove mercurial-gegl removes the plug-in" \
        in_root "$root" /bin/sh -c "apt-get remove -y -qq mercurial-gegl && ! test -e $system_so"
    tarball_as_user "$root" "Debian 13"
}

for s in "${suites[@]}"; do
    case "$s" in
        bookworm) test_bookworm ;;
        trixie) test_trixie ;;
        *) echo "unknown suite $s" >&2; exit 2 ;;
    esac
    roots_cleanup
done
echo "packages: $passed passed, $failed failed${skipped:+, $skipped skipped}"
[ "$failed" -eq 0 ]
