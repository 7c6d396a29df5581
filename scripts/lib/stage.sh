# Sourced by the scripts that load a built plug-in into the system's GEGL: `stage_plugin PLUGIN`
# checks that PLUGIN was built, copies it as mercurial.so into a new directory, $stage (removed at
# exit), and puts that directory first on GEGL_PATH, before the system's plug-ins, with OpenCL off.
stage_plugin() {
    [ -f "$1" ] || { echo "no $1: run swift build -c release first" >&2; exit 1; }
    stage="$(mktemp -d)"
    trap 'rm -rf "$stage"' EXIT
    cp "$1" "$stage/mercurial.so"
    export GEGL_PATH="$stage:$(pkg-config --variable=pluginsdir gegl-0.4)" GEGL_USE_OPENCL=no
}
