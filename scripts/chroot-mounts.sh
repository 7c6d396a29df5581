# Sourced by the GIMP 3 scripts: mounts /proc and /dev into the chroot at "$root" for the life of
# the calling script (unmounted on exit), leaving mounts that were already there alone.
chroot_mounted=()
chroot_unmount() { for m in "${chroot_mounted[@]}"; do umount "$m" 2>/dev/null || true; done; }
chroot_mount() {
    if ! mountpoint -q "$root/proc"; then mount -t proc proc "$root/proc"; chroot_mounted+=("$root/proc"); fi
    if ! mountpoint -q "$root/dev"; then mount --bind /dev "$root/dev"; chroot_mounted+=("$root/dev"); fi
}
