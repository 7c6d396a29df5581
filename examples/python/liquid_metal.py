#!/usr/bin/python3
"""Liquid-metal text from Python, through GEGL's GObject introspection (python3-gi, gir1.2-gegl-0.4).

Usage: liquid_metal.py OUTPUT.png [TEXT]
The Mercurial plug-in must be installed (./install.sh) or on GEGL_PATH.
"""
import sys

import gi

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl  # noqa: E402


def main():
    output = sys.argv[1] if len(sys.argv) > 1 else "liquid-metal.png"
    text = sys.argv[2] if len(sys.argv) > 2 else "Mercurial"
    Gegl.init(None)
    for op in ("mercurial:liquid-metal", "mercurial:holographic-hue"):
        if not Gegl.has_operation(op):
            sys.exit(f"GEGL has no {op}: install the plug-in with ./install.sh")

    graph = Gegl.Node()
    letters = graph.create_child("gegl:text")
    letters.set_property("string", text)
    letters.set_property("size", 120.0)
    metal = graph.create_child("mercurial:liquid-metal")
    metal.set_property("radius", 7.0)
    metal.set_property("foil", 0.12)  # a touch of holographic foil
    # Enum properties take the value's number through GObject: 0 chrome, 1 gold, 2 mercury, 3 neon.
    metal.set_property("preset", 2)  # mercury
    save = graph.create_child("gegl:png-save")
    save.set_property("path", output)
    letters.link(metal)
    metal.link(save)
    save.process()
    box = metal.get_bounding_box()
    print(f"wrote {output} ({box.width}×{box.height})")


if __name__ == "__main__":
    main()
