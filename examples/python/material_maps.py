#!/usr/bin/python3
"""Bakes a sprite's game maps with mercurial:material-maps, all of them from one load of the
sprite: PREFIX-height.png, PREFIX-normal-gl.png, PREFIX-normal-dx.png,
PREFIX-ambient-occlusion.png and PREFIX-curvature.png (8-bit, opaque; a flat normal is 128, 128,
255). With --sheet, also a picture of the sprite, four of its maps, and the sprite lit by
mercurial:lit-relief through its height map.

Usage: material_maps.py [INPUT.png] PREFIX [--tileable] [--sheet SHEET.png]
Without INPUT, a sample sprite is drawn. The Mercurial plug-in must be installed (./install.sh) or
on GEGL_PATH.
"""
import sys

import gi

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl  # noqa: E402

# The map property's values, in order (GObject takes an enum by its number).
MAPS = ["height", "normal-gl", "normal-dx", "ambient-occlusion", "curvature"]


def sample_sprite(graph):
    """An orange emblem on transparency, as a sprite artist hands one over."""
    text = graph.create_child("gegl:text")
    text.set_property("string", "\u2605Hg")
    text.set_property("size", 110.0)
    text.set_property("color", Gegl.Color.new("rgb(0.9, 0.45, 0.1)"))
    crop = graph.create_child("gegl:crop")
    for k, v in (("x", -10.0), ("y", -6.0), ("width", 280.0), ("height", 140.0)):
        crop.set_property(k, v)
    text.link(crop)
    shift = graph.create_child("gegl:translate")
    shift.set_property("x", 10.0)
    shift.set_property("y", 6.0)
    crop.link(shift)
    return shift


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    tileable = "--tileable" in sys.argv
    sheet = sys.argv[sys.argv.index("--sheet") + 1] if "--sheet" in sys.argv else None
    if sheet in args:
        args.remove(sheet)
    if not args:
        sys.exit(__doc__)
    source, prefix = (args[0], args[1]) if len(args) > 1 else (None, args[0])
    Gegl.init(None)
    for op in ("mercurial:material-maps", "mercurial:lit-relief"):
        if not Gegl.has_operation(op):
            sys.exit(f"GEGL has no {op}: install the plug-in with ./install.sh")

    graph = Gegl.Node()
    if source:
        sprite = graph.create_child("gegl:load")
        sprite.set_property("path", source)
    else:
        sprite = sample_sprite(graph)
    # The sprite once into memory: every map reads it from there.
    box = sprite.get_bounding_box()
    if box.width <= 0 or box.height <= 0:
        sys.exit(f"{source}: nothing to bake (unreadable or empty)")
    store = graph.create_child("gegl:write-buffer")
    buffer = Gegl.Buffer.new("R'G'B'A float", box.x, box.y, box.width, box.height)
    store.set_property("buffer", buffer)
    sprite.link(store)
    store.process()

    maps = {}
    for index, name in enumerate(MAPS):
        g = Gegl.Node()
        src = g.create_child("gegl:buffer-source")
        src.set_property("buffer", buffer)
        node = g.create_child("mercurial:material-maps")
        node.set_property("map", index)
        node.set_property("tileable", tileable)
        save = g.create_child("gegl:png-save")
        path = f"{prefix}-{name}.png"
        save.set_property("path", path)
        src.link(node)
        node.link(save)
        save.process()
        maps[name] = path
        print(f"wrote {path} ({box.width}×{box.height})")
    if sheet:
        write_sheet(buffer, box, maps, sheet)
        print(f"wrote {sheet}")


def write_sheet(sprite, box, maps, path):
    """Sprite | height | normal | occlusion | curvature | lit, side by side on grey."""
    g = Gegl.Node()
    panels = []
    src = g.create_child("gegl:buffer-source")
    src.set_property("buffer", sprite)
    panels.append(src)
    for name in ("height", "normal-gl", "ambient-occlusion", "curvature"):
        load = g.create_child("gegl:load")
        load.set_property("path", maps[name])
        panels.append(load)
    # The sprite lit through its own height map (lit-relief's aux: luminance is the height).
    lit = g.create_child("mercurial:lit-relief")
    lit.set_property("contrast", 6.0)
    lit.set_property("smoothness", 0.2)
    lit.set_property("light1-type", 0)  # a point light at the upper left
    lit.set_property("light1-x", 0.15)
    lit.set_property("light1-y", 0.1)
    lit.set_property("light1-z", 0.3)
    lit.set_property("light1-intensity", 1.6)
    src2 = g.create_child("gegl:buffer-source")
    src2.set_property("buffer", sprite)
    height = g.create_child("gegl:load")
    height.set_property("path", maps["height"])
    src2.link(lit)
    height.connect_to("output", lit, "aux")
    panels.append(lit)
    gap = 8
    columns = 3
    background = g.create_child("gegl:color")
    background.set_property("value", Gegl.Color.new("rgb(0.16, 0.16, 0.18)"))
    result = background
    for k, panel in enumerate(panels):
        move = g.create_child("gegl:translate")
        move.set_property("x", float(gap + (k % columns) * (box.width + gap) - box.x))
        move.set_property("y", float(gap + (k // columns) * (box.height + gap) - box.y))
        panel.link(move)
        over = g.create_child("gegl:over")
        result.link(over)
        move.connect_to("output", over, "aux")
        result = over
    rows = (len(panels) + columns - 1) // columns
    crop = g.create_child("gegl:crop")
    crop.set_property("width", float(gap + columns * (box.width + gap)))
    crop.set_property("height", float(gap + rows * (box.height + gap)))
    save = g.create_child("gegl:png-save")
    save.set_property("path", path)
    result.link(crop)
    crop.link(save)
    save.process()


if __name__ == "__main__":
    main()
