# Sourced by the GIMP 3 scripts: mounts /proc and /dev into the chroot at "$root" for the life of
# the calling script (unmounted on exit), leaving mounts that were already there alone.
chroot_mounted=()
# A busy mount (a process of the chroot still closing) is detached lazily: never left behind.
chroot_unmount() { for m in "${chroot_mounted[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done; }
chroot_mount() {
    if ! mountpoint -q "$root/proc"; then mount -t proc proc "$root/proc"; chroot_mounted+=("$root/proc"); fi
    if ! mountpoint -q "$root/dev"; then mount --bind /dev "$root/dev"; chroot_mounted+=("$root/dev"); fi
}

# gimp3_root WHAT: sets $plugin (PLUGIN, or the release build; it must exist) and $root (the cached
# GIMP 3 root, made if needed); when the root cannot be made, prints "SKIPPED: WHAT: <reason>" and
# exits 0 (never a silent pass).
gimp3_root() {
    plugin="${PLUGIN:-.build/release/libmercurial.so}"
    [ -f "$plugin" ] || { echo "no $plugin: run swift build -c release first" >&2; exit 1; }
    local reason
    reason="$(mktemp)"
    if ! root="$(scripts/gimp3-chroot.sh 2>"$reason")"; then
        echo "SKIPPED: $1: the GIMP 3 root could not be made: $(tail -1 "$reason")"
        rm -f "$reason"
        exit 0
    fi
    rm -f "$reason"
}

# gimp3_gui_cleanup: stops the GIMP and Xvfb a screenshot script started in $root (their PIDs, as
# written inside the chroot to /tmp/mercurial-gimp.pid and /tmp/mercurial-xvfb.pid), then unmounts.
gimp3_gui_cleanup() {
    for f in gimp.pid xvfb.pid; do
        [ -f "$root/tmp/mercurial-$f" ] && kill "$(cat "$root/tmp/mercurial-$f")" 2>/dev/null || true
        rm -f "$root/tmp/mercurial-$f"
    done
    chroot_unmount
}
