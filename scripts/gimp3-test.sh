#!/usr/bin/env bash
# Runs every Mercurial op inside real GIMP 3 (headless, Script-Fu) and checks the pictures.
#
# GIMP 3 comes from a cached Debian 13 chroot (scripts/gimp3-chroot.sh). The built plug-in is
# installed into the chroot's user GEGL plug-in folder; gimp-console-3.0 opens an image with a text
# layer for each op, applies the op with gimp-drawable-merge-new-filter, and saves a PNG. The PNGs
# land in .build/gimp3/ and are checked by scripts/check-images.py.
#
# When the chroot cannot be provisioned this prints "SKIPPED: <reason>" and exits 0: never a
# silent pass. Any other failure exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/.build/gimp3"
# shellcheck source=scripts/chroot-mounts.sh
. scripts/chroot-mounts.sh
gimp3_root "GIMP 3 test"
cleanup() {
    chroot_unmount
}
trap cleanup EXIT
chroot_mount

plugins="$root/root/.local/share/gegl-0.4/plug-ins"
mkdir -p "$plugins"
install -m 0644 "$plugin" "$plugins/mercurial.so"
rm -rf "$root/tmp/mercurial-gimp3" "$out"
mkdir -p "$root/tmp/mercurial-gimp3" "$out"

# One image per op: a text layer (or a plain layer) with the op merged in, saved as PNG.
read -r -d '' script <<'SCM' || true
(begin
  (define (text-image str colour)
    (let* ((image (car (gimp-image-new 460 180 RGB)))
           (layer (car (gimp-text-layer-new image str (car (gimp-context-get-font)) 120 UNIT-PIXEL))))
      (gimp-image-insert-layer image layer 0 0)
      (gimp-text-layer-set-color layer colour)
      (list image layer)))
  (define (plain-image w h colour)
    (let* ((image (car (gimp-image-new w h RGB)))
           (layer (car (gimp-layer-new image "plain" w h RGBA-IMAGE 100 LAYER-MODE-NORMAL))))
      (gimp-image-insert-layer image layer 0 0)
      (gimp-context-set-foreground colour)
      (gimp-drawable-fill layer FILL-FOREGROUND)
      (list image layer)))
  (define (save image name)
    (gimp-file-save RUN-NONINTERACTIVE image (string-append "/tmp/mercurial-gimp3/" name ".png"))
    (gimp-message (string-append "saved " name)))

  (let* ((il (text-image "Hg 3" '(0 0 0))))
    (gimp-drawable-merge-new-filter (cadr il) "mercurial:liquid-metal" 0 LAYER-MODE-REPLACE 1.0
                                    "preset" "gold" "radius" 6.0)
    (save (car il) "liquid-metal"))
  ; Bevel & Emboss: each style (with a technique each, and the other controls on the last).
  (define (bevel name . properties)
    (let* ((il (text-image "Hg 3" '(0 0 0))))
      (apply gimp-drawable-merge-new-filter
             (append (list (cadr il) "mercurial:liquid-metal" 0 LAYER-MODE-REPLACE 1.0) properties))
      (save (car il) (string-append "liquid-metal-" name))))
  (bevel "inner-bevel" "style" "inner-bevel" "technique" "smooth" "radius" 6.0)
  (bevel "outer-bevel" "style" "outer-bevel" "technique" "chisel-hard" "radius" 6.0)
  (bevel "emboss" "style" "emboss" "technique" "chisel-soft" "radius" 6.0)
  (bevel "pillow-emboss" "style" "pillow-emboss" "technique" "smooth" "radius" 6.0 "soften" 1.5
         "direction" "down" "custom-light" TRUE "light-angle" 60.0 "light-altitude" 40.0 "gloss-contour" "ring")
  (let* ((il (text-image "Hg 3" '(0 0 0))))
    (gimp-drawable-merge-new-filter (cadr il) "mercurial:height-field-from-mask" 0 LAYER-MODE-REPLACE 1.0
                                    "mask" "alpha" "radius" 8.0)
    (save (car il) "height-field-from-mask"))
  (let* ((il (text-image "Hg 3" '(0 0 0))))
    (gimp-drawable-merge-new-filter (cadr il) "mercurial:height-field-from-mask" 0 LAYER-MODE-REPLACE 1.0
                                    "mask" "alpha" "radius" 8.0)
    (gimp-drawable-merge-new-filter (cadr il) "mercurial:shaded-material" 0 LAYER-MODE-REPLACE 1.0 "scale" 12.0)
    (save (car il) "shaded-material"))
  (let* ((il (plain-image 256 256 '(128 128 128))))
    (gimp-drawable-merge-new-filter (cadr il) "mercurial:hemisphere-light-render" 0 LAYER-MODE-REPLACE 1.0
                                    "size" 256)
    (save (car il) "hemisphere-light-render"))
  (let* ((il (text-image "Hg 3" '(200 60 30))))
    (gimp-drawable-merge-new-filter (cadr il) "mercurial:lit-relief" 0 LAYER-MODE-REPLACE 1.0
                                    "contrast" 5.0 "light2-enabled" TRUE)
    (save (car il) "lit-relief"))
  (let* ((il (plain-image 300 200 '(90 90 100))))
    (gimp-drawable-merge-new-filter (cadr il) "mercurial:holographic-hue" 0 LAYER-MODE-REPLACE 1.0
                                    "strength" 0.35 "cell-size" 24.0)
    (save (car il) "holographic-hue")))
SCM

echo "GIMP 3: $(chroot "$root" gimp-console-3.0 --version)"
log="$out/gimp-console.log"
status=0
timeout 600 chroot "$root" /usr/bin/env HOME=/root GEGL_USE_OPENCL=no \
    gimp-console-3.0 -i -d --quit --batch-interpreter=plug-in-script-fu-eval -b "$script" >"$log" 2>&1 || status=$?
grep -E "saved|Error|error|not installed" "$log" | grep -v "resource name is invalid" || true
cp "$root"/tmp/mercurial-gimp3/*.png "$out"/ 2>/dev/null || true
[ "$status" -eq 0 ] || { echo "gimp-console-3.0 exited with $status (log: $log)"; exit 1; }
/usr/bin/python3 scripts/check-images.py "$out"
