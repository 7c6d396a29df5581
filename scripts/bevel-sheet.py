#!/usr/bin/python3
"""Renders docs/bevel-styles.png: mercurial:liquid-metal's Bevel & Emboss styles on the same text.

Rows: the styles (inner bevel, outer bevel, emboss, pillow emboss); columns: the techniques
(smooth, chisel hard, chisel soft); a last row turns the key light (angle 0, 60, 120, 180 at 30°).
Usage: GEGL_PATH=<folder with mercurial.so>:<GEGL's own> scripts/bevel-sheet.py OUT.png
"""
import sys

import gi

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl  # noqa: E402

CELL_W, CELL_H, LABEL_W, HEAD_H = 300, 150, 150, 40
STYLES = [("inner-bevel", "Inner bevel"), ("outer-bevel", "Outer bevel"), ("emboss", "Emboss"),
          ("pillow-emboss", "Pillow emboss")]
TECHNIQUES = [("smooth", "Smooth"), ("chisel-hard", "Chisel hard"), ("chisel-soft", "Chisel soft")]
ANGLES = [0, 60, 120, 180]


def main(out):
    Gegl.init(None)
    g = Gegl.Node()
    rows = len(STYLES) + 1
    width, height = LABEL_W + CELL_W * max(len(TECHNIQUES), len(ANGLES)), HEAD_H + CELL_H * rows
    canvas = g.create_child("gegl:rectangle")
    canvas.set_property("x", 0.0)
    canvas.set_property("y", 0.0)
    canvas.set_property("width", float(width))
    canvas.set_property("height", float(height))
    canvas.set_property("color", Gegl.Color.new("rgb(0.012, 0.012, 0.016)"))
    top = canvas

    def place(node, x, y):
        nonlocal top
        shift = g.create_child("gegl:translate")
        shift.set_property("x", float(x))
        shift.set_property("y", float(y))
        node.link(shift)
        over = g.create_child("gegl:over")
        top.link(over)
        shift.connect_to("output", over, "aux")
        top = over

    def label(text, x, y, size=18):
        t = g.create_child("gegl:text")
        t.set_property("string", text)
        t.set_property("size", float(size))
        t.set_property("color", Gegl.Color.new("rgb(0.8, 0.8, 0.8)"))
        place(t, x, y)

    def cell(x, y, **props):
        text = g.create_child("gegl:text")
        text.set_property("string", "Hg")
        text.set_property("size", 100.0)
        text.set_property("font", "Sans Bold")
        text.set_property("color", Gegl.Color.new("black"))
        # The layer: the text on a transparent margin, so outer styles have room.
        crop = g.create_child("gegl:crop")
        for k, v in (("x", -30.0), ("y", -12.0), ("width", 220.0), ("height", 140.0)):
            crop.set_property(k, v)
        metal = g.create_child("mercurial:liquid-metal")
        metal.set_property("radius", 7.0)
        metal.set_property("relief", 10.0)
        for k, v in props.items():
            metal.set_property(k, v)
        text.link(crop)
        crop.link(metal)
        place(metal, x + 40, y + 5)

    for c, (_, title) in enumerate(TECHNIQUES):
        label(title, LABEL_W + c * CELL_W + 40, 10)
    for r, (style, title) in enumerate(STYLES):
        y = HEAD_H + r * CELL_H
        label(title, 12, y + 60)
        for c, (technique, _) in enumerate(TECHNIQUES):
            cell(LABEL_W + c * CELL_W, y, style=style, technique=technique)
    y = HEAD_H + len(STYLES) * CELL_H
    label("Light angle", 12, y + 60)
    for c, angle in enumerate(ANGLES):
        cell(LABEL_W + c * CELL_W, y, style="inner-bevel", technique="chisel-hard",
             **{"custom-light": True, "light-angle": float(angle), "light-altitude": 30.0})
        label(f"{angle}°", LABEL_W + c * CELL_W + 225, y + 100, 16)

    save = g.create_child("gegl:png-save")
    save.set_property("path", out)
    top.link(save)
    save.process()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/bevel-styles.png")
