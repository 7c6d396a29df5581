#!/usr/bin/python3
"""Checks pictures made by real hosts (GIMP 3, GIMP 2.10, gegl) with Mercurial's ops.

Usage: check-images.py DIR   — checks every known file present in DIR; prints one line per check
and a closing 'N passed, N failed' line; exits 1 on any failure or when no picture was found.
Reads the pictures through GEGL's own loader (python3-gi, gir1.2-gegl-0.4).
"""
import array
import os
import sys

import gi

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl  # noqa: E402


def load(path):
    graph = Gegl.Node()
    node = graph.create_child("gegl:load")
    node.set_property("path", path)
    box = node.get_bounding_box()
    buf = Gegl.Buffer.new("RGBA float", box.x, box.y, box.width, box.height)
    sink = graph.create_child("gegl:write-buffer")
    sink.set_property("buffer", buf)
    node.link(sink)
    sink.process()
    pixels = array.array("f")
    pixels.frombytes(bytes(buf.get(box, 1.0, "R'G'B'A float", Gegl.AbyssPolicy.NONE)))
    return box.width, box.height, pixels


def stats(w, h, p):
    n = w * h
    alpha = p[3::4]
    opaque = [i for i in range(n) if alpha[i] > 0.99]
    clear = [i for i in range(n) if alpha[i] < 0.01]
    luma = [0.2126 * p[4 * i] + 0.7152 * p[4 * i + 1] + 0.0722 * p[4 * i + 2] for i in opaque]
    return n, opaque, clear, luma


def liquid_metal(w, h, p):
    n, opaque, clear, luma = stats(w, h, p)
    yield "letters opaque, background transparent", len(opaque) > n // 20 and len(clear) > n // 4
    yield "highlights and shadows on the letters", max(luma) > 0.6 and max(luma) - min(luma) > 0.4
    red = sum(p[4 * i] for i in opaque)
    blue = sum(p[4 * i + 2] for i in opaque)
    yield "gold look (warm)", red > 1.3 * blue


def opaque_count(path):
    w, h, p = load(path)
    return len(stats(w, h, p)[1])


def bevel_style(name):
    """A Bevel & Emboss style applied in GIMP: metal letters; the outside styles (outer bevel,
    emboss, pillow emboss) cover more than the inner bevel does: their ring around the letters."""
    def check(w, h, p):
        n, opaque, clear, luma = stats(w, h, p)
        yield "letters opaque, background transparent", len(opaque) > n // 20 and len(clear) > n // 5
        yield "highlights and shadows on the letters", max(luma) - min(luma) > 0.3
        if name != "inner-bevel":
            inner = os.path.join(FOLDER, PREFIX + "liquid-metal-inner-bevel.png")
            yield "a ring of metal around the letters (more opaque than the inner bevel)", \
                os.path.exists(inner) and len(opaque) > 1.15 * opaque_count(inner)
    return check


def height_field(w, h, p):
    n, opaque, clear, luma = stats(w, h, p)
    greys = {round(v * 255) for v in luma}
    yield "a smooth ramp of heights", len(greys) > 30 and max(luma) > 0.3
    yield "grey (one channel)", all(abs(p[4 * i] - p[4 * i + 2]) < 0.02 for i in opaque)


def shaded_material(w, h, p):
    # Applied after the height field filter (which makes the layer an opaque height map).
    n, opaque, clear, luma = stats(w, h, p)
    yield "the layer opaque, as its height-field input", len(opaque) > n // 4
    yield "embossed: shaded in many tones", len({round(v * 255) for v in luma}) > 30 and max(luma) > 0.5


def hemisphere(w, h, p):
    n, opaque, clear, luma = stats(w, h, p)
    centre = 4 * ((h // 2) * w + w // 2)
    # GIMP composites a render over the layer: the (grey) layer shows in the sphere's corners.
    corner_grey = abs(p[0] - p[2]) < 0.01 and abs(p[0] - 128 / 255) < 0.02
    yield "sphere at the centre, the layer in the corners", p[centre + 3] > 0.99 and corner_grey and abs(p[centre] - p[0]) > 0.02
    yield "lit: highlights and coloured lights", max(luma) > 0.6 and len({round(v * 64) for v in luma}) > 20


def holographic(w, h, p):
    n, opaque, clear, luma = stats(w, h, p)
    yield "alpha kept (opaque)", len(opaque) == n
    hues = {(round(p[4 * i] * 20), round(p[4 * i + 1] * 20), round(p[4 * i + 2] * 20)) for i in range(n)}
    yield "coloured foil cells", len(hues) > 8


def lit_relief(w, h, p):
    n, opaque, clear, luma = stats(w, h, p)
    yield "letters keep their coverage", len(opaque) > n // 20 and len(clear) > n // 4
    yield "lit paint: the red layer in many tones, with gloss", len({round(v * 255) for v in luma}) > 30 and max(luma) > 0.3
    red = sum(p[4 * i] for i in opaque)
    blue = sum(p[4 * i + 2] for i in opaque)
    yield "the layer's own colour (red) shows", red > 1.5 * blue


CHECKS = {
    "liquid-metal.png": liquid_metal,
    "height-field-from-mask.png": height_field,
    "shaded-material.png": shaded_material,
    "hemisphere-light-render.png": hemisphere,
    "holographic-hue.png": holographic,
    "lit-relief.png": lit_relief,
    "liquid-metal-inner-bevel.png": bevel_style("inner-bevel"),
    "liquid-metal-outer-bevel.png": bevel_style("outer-bevel"),
    "liquid-metal-emboss.png": bevel_style("emboss"),
    "liquid-metal-pillow-emboss.png": bevel_style("pillow-emboss"),
}
FOLDER, PREFIX = ".", ""


def main():
    global FOLDER, PREFIX
    folder = sys.argv[1]
    prefix = sys.argv[2] if len(sys.argv) > 2 else ""
    FOLDER, PREFIX = folder, prefix
    Gegl.init(None)
    passed = failed = 0
    for name, check in CHECKS.items():
        path = os.path.join(folder, prefix + name)
        if not os.path.exists(path):
            print(f"FAIL {prefix}{name}: not written")
            failed += 1
            continue
        w, h, p = load(path)
        for what, ok in check(w, h, p):
            print(f"{'ok  ' if ok else 'FAIL'} {prefix}{name}: {what}")
            passed += ok
            failed += not ok
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()
