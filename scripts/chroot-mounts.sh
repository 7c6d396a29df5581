# Sourced by the GIMP 3 scripts: mounts /proc and /dev into the chroot at "$root" for the life of
# the calling script (unmounted on exit), leaving mounts that were already there alone.
chroot_mounted=()
# A busy mount (a process of the chroot still closing) is detached lazily: never left behind.
chroot_unmount() { for m in "${chroot_mounted[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done; }
chroot_mount() {
    if ! mountpoint -q "$root/proc"; then mount -t proc proc "$root/proc"; chroot_mounted+=("$root/proc"); fi
    if ! mountpoint -q "$root/dev"; then mount --bind /dev "$root/dev"; chroot_mounted+=("$root/dev"); fi
}
