#!/usr/bin/python3
"""Times mercurial:liquid-metal's Bevel & Emboss styles and mercurial:bevel-emboss next to GEGL's
own gegl:bevel and gegl:styles on a 3840×2160 text layer, in one process, as a host sees it: a fresh graph per run,
the result written into a new buffer. Prints a Markdown table: median of RUNS runs, and each
style's ratio to gegl:bevel, gegl:styles and the default liquid-metal.

Usage: styles_vs_gegl.py [RUNS]   (GEGL_PATH must reach the plug-in and GEGL's own operations)
"""
import sys
import time

import gi

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl  # noqa: E402

W, H = 3840, 2160
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5


def text_layer():
    """Black letters on transparency, filling the frame (as GIMP hands a text layer over)."""
    g = Gegl.Node()
    text = g.create_child("gegl:text")
    text.set_property("string", "Mercurial liquid\nmetal letters in\nSwift for GEGL 42")
    text.set_property("size", 330.0)
    text.set_property("color", Gegl.Color.new("black"))
    crop = g.create_child("gegl:crop")
    for k, v in (("x", -60.0), ("y", -80.0), ("width", float(W)), ("height", float(H))):
        crop.set_property(k, v)
    text.link(crop)
    buf = Gegl.Buffer.new("RGBA float", 0, 0, W, H)
    shift = g.create_child("gegl:translate")
    shift.set_property("x", 60.0)
    shift.set_property("y", 80.0)
    crop.link(shift)
    sink = g.create_child("gegl:write-buffer")
    sink.set_property("buffer", buf)
    shift.link(sink)
    sink.process()
    return buf


def timed(layer, op, props, runs=None):
    """Median seconds of `runs` (default RUNS) fresh-graph runs of `op` on `layer`."""
    samples = []
    for _ in range(runs or RUNS):
        g = Gegl.Node()
        src = g.create_child("gegl:buffer-source")
        src.set_property("buffer", layer)
        node = g.create_child(op)
        for k, v in props.items():
            node.set_property(k, v)
        out = Gegl.Buffer.new("RGBA float", 0, 0, W, H)
        sink = g.create_child("gegl:write-buffer")
        sink.set_property("buffer", out)
        src.link(node)
        node.link(sink)
        start = time.monotonic()
        sink.process()
        samples.append(time.monotonic() - start)
    return sorted(samples)[len(samples) // 2]


def main():
    # As GIMP does: a GPL-3 host, so GEGL loads its GPL-3 operations (gegl:bevel and gegl:styles
    # use gegl:emboss, one of them; without it they would time a pass-through in its place).
    Gegl.config().set_property("application-license", "GPL3")
    Gegl.init(None)
    Gegl.config().set_property("threads", 2)
    for op in ("gegl:bevel", "gegl:styles", "gegl:emboss", "mercurial:liquid-metal"):
        if not Gegl.has_operation(op):
            print(f"GEGL {Gegl.get_version()} has no {op} here")
            sys.exit(3)
    layer = text_layer()
    rows = [("gegl:bevel", "gegl:bevel", {}), ("gegl:styles", "gegl:styles", {}),
            ("liquid-metal (default)", "mercurial:liquid-metal", {})]
    for style in ("inner-bevel", "outer-bevel", "emboss", "pillow-emboss"):
        for technique in ("smooth", "chisel-hard", "chisel-soft"):
            rows.append((f"liquid-metal {style}, {technique}", "mercurial:liquid-metal",
                         {"style": style, "technique": technique}))
    # Bevel & Emboss keeping the layer's colours, as gegl:bevel does: its defaults and each style.
    if Gegl.has_operation("mercurial:bevel-emboss"):
        rows.append(("bevel-emboss (default)", "mercurial:bevel-emboss", {}))
        for style in ("outer-bevel", "emboss", "pillow-emboss"):
            rows.append((f"bevel-emboss {style}", "mercurial:bevel-emboss", {"style": style}))
    t = {name: timed(layer, op, props) for name, op, props in rows}
    maj, mnr, mic = Gegl.get_version()
    print(f"GEGL {maj}.{mnr}.{mic}, {W}×{H} text layer, 2 threads, median of {RUNS} fresh-graph runs\n")
    print("| operation | seconds | ÷ gegl:bevel (goal ≤ 0.1) | ÷ gegl:styles (goal ≤ 0.3) | ÷ liquid-metal default |")
    print("|---|---:|---:|---:|---:|")
    for name, _, _ in rows:
        s = t[name]
        print(f"| {name} | {s:.3f} | {s / t['gegl:bevel']:.3f} | {s / t['gegl:styles']:.3f} | "
              f"{s / t['liquid-metal (default)']:.2f} |")


if __name__ == "__main__":
    main()
