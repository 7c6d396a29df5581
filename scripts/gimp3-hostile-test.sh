#!/usr/bin/env bash
# Every Mercurial op applied inside real GIMP 3 (headless, Script-Fu) to the layers that break
# filters: a 1×1 layer, a layer whose alpha is empty (fully transparent), and an 8000×8000 layer.
# GIMP must stay up, apply each and save each image. GIMP 3 comes from the cached Debian 13 root
# (scripts/gimp3-chroot.sh); the built plug-in goes into a throw-away profile inside it.
# Prints "SKIPPED: <reason>" when the root cannot be made.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/chroot-mounts.sh
. scripts/chroot-mounts.sh
gimp3_root "GIMP 3 hostile layers"
profile=/tmp/mercurial-gimp3-hostile
cleanup() { chroot_unmount; [ -n "${MERCURIAL_KEEP:-}" ] || rm -rf "${root:?}$profile"; }
trap cleanup EXIT
chroot_mount
rm -rf "$root$profile"
mkdir -p "$root$profile/.local/share/gegl-0.4/plug-ins" "$root$profile/out"
install -m 0644 "$plugin" "$root$profile/.local/share/gegl-0.4/plug-ins/mercurial.so"

# Every op of plugin-manifest (the one list of ops), as a Scheme list of strings.
names="$(/usr/bin/python3 -c 'import json; print(" ".join(o["name"].split(":")[1] for o in json.load(open("plugin-manifest"))["operations"]))')"
ops="($(for n in $names; do printf '"mercurial:%s" ' "$n"; done))"
read -r -d '' script <<SCM || true
(begin
  (define (layer-image w h fill)
    (let* ((image (car (gimp-image-new w h RGB)))
           (layer (car (gimp-layer-new image "layer" w h RGBA-IMAGE 100 LAYER-MODE-NORMAL))))
      (gimp-image-insert-layer image layer 0 0)
      (if (= fill 1)
          (begin (gimp-context-set-foreground '(255 255 255)) (gimp-drawable-fill layer FILL-FOREGROUND))
          (gimp-drawable-fill layer FILL-TRANSPARENT))
      (list image layer)))
  (define (try op kind w h fill ext)
    (let* ((il (layer-image w h fill)))
      (gimp-drawable-merge-new-filter (cadr il) op 0 LAYER-MODE-REPLACE 1.0)
      (gimp-file-save RUN-NONINTERACTIVE (car il) (string-append "$profile/out/" kind "-" (substring op 10 (string-length op)) ext))
      (gimp-image-delete (car il))
      (gimp-message (string-append "saved " kind " " op))))
  (for-each (lambda (op)
              (try op "1x1" 1 1 1 ".png")
              (try op "empty-alpha" 64 48 0 ".png")
              (try op "8000x8000" 8000 8000 1 ".xcf"))
            '$ops))
SCM
log="$(mktemp)"
status=0
timeout 1200 chroot "$root" /usr/bin/env HOME=$profile GEGL_USE_OPENCL=no \
    gimp-console-3.0 -i -d --quit --batch-interpreter=plug-in-script-fu-eval -b "$script" >"$log" 2>&1 || status=$?
passed=0 failed=0
for kind in 1x1 empty-alpha 8000x8000; do
    for op in $names; do
        if grep -q "saved $kind mercurial:$op" "$log" && ls "$root$profile/out/$kind-$op".* >/dev/null 2>&1; then
            echo "ok   GIMP 3: mercurial:$op on a $kind layer, applied and saved"; passed=$((passed + 1))
        else
            echo "FAIL GIMP 3: mercurial:$op on a $kind layer"; failed=$((failed + 1))
        fi
    done
done
if [ "$status" -eq 0 ]; then echo "ok   GIMP 3 stayed up and quit cleanly"; passed=$((passed + 1))
else echo "FAIL GIMP 3 exited with $status"; grep -iE "error|fatal|signal" "$log" | head -10; failed=$((failed + 1)); fi
rm -f "$log"
echo "GIMP 3 hostile layers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
