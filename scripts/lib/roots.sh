# Sourced by the scripts that test Mercurial on fresh Debian machines (chroots).
#
#   base_root SUITE [PKG...]     makes once, and caches, a minimal Debian root of SUITE (bookworm,
#                                trixie), with PKG... installed on top when named, in
#                                ${MERCURIAL_CACHE:-~/.cache/mercurial}/roots/; prints its path.
#                                Exit status 2 with the reason on stderr when it cannot be made.
#   scratch_root SUITE [PKG...]  a throw-away copy of that root (what a test changes never reaches
#                                the cache) in $scratch. Removed, with its mounts, at exit. Call it
#                                directly, not in $(...), so that the exit trap knows it.
#   enter_root ROOT      mounts /proc and /dev, gives it this machine's DNS and a shared cache of
#                        downloaded .debs (per suite; only downloads are cached, never a build).
#   in_root ROOT CMD...  runs CMD inside ROOT as root, with a clean environment.
#
# The mirror is the one this machine's apt already uses (MERCURIAL_DEBIAN_MIRROR overrides it).
# Needs root (debootstrap, chroot, mount).

cache_dir="${MERCURIAL_CACHE:-$HOME/.cache/mercurial}"
debian_mirror="${MERCURIAL_DEBIAN_MIRROR:-$( (cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null || true) |
    grep -E '^(URIs:|deb )' | grep -o 'http[s]*://[^ ]*' | grep -v security | head -1)}"
debian_mirror="${debian_mirror:-http://deb.debian.org/debian}"
roots_made=()
roots_mounted=()

roots_unmount_all() {
    local i
    for ((i = ${#roots_mounted[@]} - 1; i >= 0; i--)); do umount -l "${roots_mounted[i]}" 2>/dev/null || true; done
    roots_mounted=()
}

roots_cleanup() {
    local r
    roots_unmount_all
    for r in "${roots_made[@]}"; do
        # Never remove a root that still has something mounted inside it.
        if ! grep -q " $r/" /proc/mounts; then rm -rf "$r"; fi
    done
    roots_made=()
}
trap roots_cleanup EXIT

base_root() {
    local suite="$1"
    shift
    # The cache key: the suite and the packages installed on top of minbase.
    local packages="$*" key="$suite"
    [ -z "$packages" ] || key="$suite-$(echo "$packages" | md5sum | cut -c1-10)"
    local root="$cache_dir/roots/$key"
    if [ -f "$root/.mercurial-ready" ] && [ "$(cat "$root/.mercurial-ready")" = "$suite: $packages" ]; then
        echo "$root"; return 0
    fi
    [ "$(id -u)" -eq 0 ] || { echo "making a $suite root needs root (debootstrap, chroot)" >&2; return 2; }
    mkdir -p "$cache_dir/roots"
    local log="$cache_dir/roots/$key.log"
    if [ -n "$packages" ]; then
        # Packages go on a copy of the plain root, which stays as it is for other uses.
        local plain
        plain="$(base_root "$suite")" || return 2
        echo "making a Debian $suite root with $packages in $root (once; log: $log) …" >&2
        rm -rf "$root"
        cp -ax "$plain" "$root"
        rm -f "$root/.mercurial-ready"
        enter_root "$root"
        # shellcheck disable=SC2086
        if ! { in_root "$root" apt-get update && in_root "$root" apt-get install -y --no-install-recommends $packages; } >"$log" 2>&1; then
            echo "installing $packages in the $suite root failed (see $log)" >&2
            roots_unmount_all; rm -rf "$root"; return 2
        fi
        roots_unmount_all
    else
        if ! command -v debootstrap >/dev/null; then
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null 2>&1 ||
                { echo "debootstrap is missing and could not be installed" >&2; return 2; }
        fi
        echo "making a minimal Debian $suite root in $root (once; log: $log) …" >&2
        rm -rf "$root"
        debootstrap --variant=minbase "$suite" "$root" "$debian_mirror" >"$log" 2>&1 ||
            { echo "debootstrap $suite failed (see $log)" >&2; rm -rf "$root"; return 2; }
        rm -f "$root/var/cache/apt/archives/"*.deb
    fi
    echo "$suite: $packages" >"$root/.mercurial-ready"
    echo "$root"
}

scratch_root() {
    local base
    base="$(base_root "$@")" || return 2
    scratch="$(mktemp -d "$cache_dir/scratch-$1.XXXXXX")"
    roots_made+=("$scratch")
    # -x: never into a file system mounted inside the root (a /proc or /dev left mounted by a
    # script that was killed), whose contents are not the root's.
    cp -ax "$base/." "$scratch/"
    rm -f "$scratch/.mercurial-ready"
}

enter_root() {
    local root="$1" suite
    suite="$(. "$root/etc/os-release" && echo "$VERSION_CODENAME")"
    mount -t proc proc "$root/proc" && roots_mounted+=("$root/proc")
    mount --bind /dev "$root/dev" && roots_mounted+=("$root/dev")
    cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    mkdir -p "$cache_dir/debs/$suite" "$root/var/cache/apt/archives"
    mount --bind "$cache_dir/debs/$suite" "$root/var/cache/apt/archives" && roots_mounted+=("$root/var/cache/apt/archives")
}

# Binds a host folder into a root (read-only when the third argument is "ro").
bind_into_root() {
    local src="$1" dest="$2$1"
    mkdir -p "$dest"
    mount --bind "$src" "$dest" && roots_mounted+=("$dest")
    if [ "${3:-}" = ro ]; then mount -o remount,bind,ro "$dest" 2>/dev/null || true; fi
}

in_root() {
    local root="$1"
    shift
    chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
