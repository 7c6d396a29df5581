#!/usr/bin/env bash
# Builds Mercurial's toolchain-free release, both forms, into dist/:
#   mercurial-gegl_<version>_amd64.deb          Debian 12 / 13 package: the plug-in in GEGL's own
#                                                plug-in folder, examples under /usr/share/doc
#   mercurial-<version>-linux-x86_64.tar.gz     the plug-in, plugin-manifest, LICENSE, INSTALL and a
#                                                POSIX-shell installer (per user, --system, --uninstall)
#   mercurial.so.debug                           the symbols stripped from the shipped .so
# The version is plugin-manifest's. Needs: a Swift toolchain, binutils, dpkg-deb; lintian (when
# present) checks the .deb and any complaint fails the build.
# Usage: scripts/package.sh
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(sed -n 's/^  "version" : "\([0-9.]*\)".*/\1/p' plugin-manifest)"
[ -n "$version" ] || { echo "package.sh: no version in plugin-manifest" >&2; exit 1; }
swift build -c release --product mercurial
built=.build/release/libmercurial.so
dist=dist
rm -rf "$dist"
mkdir -p "$dist"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

# The shipped .so: stripped, with a link to its separate debug file.
objcopy --only-keep-debug "$built" "$dist/mercurial.so.debug"
strip --strip-unneeded --remove-section=.comment -o "$stage/mercurial.so" "$built"
objcopy --add-gnu-debuglink="$dist/mercurial.so.debug" "$stage/mercurial.so"
chmod 0644 "$stage/mercurial.so"

# --- .deb -----------------------------------------------------------------------------------------
deb="$stage/deb"
plugins="usr/lib/x86_64-linux-gnu/gegl-0.4"   # pkg-config --variable=pluginsdir gegl-0.4 on Debian
doc="usr/share/doc/mercurial-gegl"
install -d "$deb/DEBIAN" "$deb/$plugins" "$deb/$doc/examples/python"
install -m 0644 "$stage/mercurial.so" "$deb/$plugins/mercurial.so"
install -m 0644 packaging/deb/copyright "$deb/$doc/copyright"
install -m 0644 examples/*.xml "$deb/$doc/examples/"
install -m 0644 examples/python/*.py "$deb/$doc/examples/python/"
install -m 0644 plugin-manifest "$deb/$doc/plugin-manifest"
sed -e "s/@VERSION@/$version/" -e "s/@DATE@/$(date -R -u -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")/" \
    packaging/deb/changelog.in | gzip -9n >"$deb/$doc/changelog.gz"
chmod 0644 "$deb/$doc/changelog.gz"
# Depends: what the .so NEEDS, by package. GEGL and babl carry the epoch 1 in Debian, so a plain
# (>= 0.4.42) would hold for every version. Debian 13's t64 packages provide these names.
depends="libgegl-0.4-0 (>= 1:0.4.42), libbabl-0.1-0 (>= 1:0.1.98), libglib2.0-0 (>= 2.74), libstdc++6 (>= 11), libgcc-s1 (>= 3.0), libc6 (>= 2.34)"
size="$(du -sk --exclude=DEBIAN "$deb" | cut -f1)"
sed -e "s/@VERSION@/$version/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" packaging/deb/control.in >"$deb/DEBIAN/control"
(cd "$deb" && find usr -type f -print0 | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
chmod 0644 "$deb/DEBIAN/control" "$deb/DEBIAN/md5sums"
debfile="$dist/mercurial-gegl_${version}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$deb" "$debfile" >/dev/null
echo "wrote $debfile ($(du -h "$debfile" | cut -f1))"
if command -v lintian >/dev/null; then
    lintian --fail-on error,warning "$debfile" || { echo "package.sh: lintian found the problems above" >&2; exit 1; }
    echo "lintian: no errors or warnings"
else
    echo "NOTE: lintian is not installed: the .deb was not linted"
fi

# --- tarball --------------------------------------------------------------------------------------
name="mercurial-$version-linux-x86_64"
tar_dir="$stage/$name"
install -d "$tar_dir"
install -m 0644 "$stage/mercurial.so" plugin-manifest LICENSE "$tar_dir/"
install -m 0755 packaging/tarball/install.sh "$tar_dir/install.sh"
sed "s/@VERSION@/$version/" packaging/tarball/INSTALL >"$tar_dir/INSTALL"
tarball="$dist/$name.tar.gz"
tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$tarball" "$name"
echo "wrote $tarball ($(du -h "$tarball" | cut -f1))"
