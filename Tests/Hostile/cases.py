#!/usr/bin/python3
"""Hostile inputs for every Mercurial op, through the real GEGL (python3-gi).

Each case runs in its own process, started by scripts/hostile-test.sh under a memory limit
(ulimit -v) and a time limit, so that a crash, a hang or a runaway allocation is a failed case and
not a dead run. A case passes when it returns; it fails by raising (exit 1) or by being killed.

Usage: cases.py --list          the case names
       cases.py CASE            run one case (the plug-in must be on GEGL_PATH)
The contract these cases hold is written in docs/reliability.md.
"""
import json
import math
import os
import struct
import sys

import gi

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl, GObject  # noqa: E402

# The one list of ops: plugin-manifest, which a test holds equal to what the plug-in registers.
MANIFEST = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plugin-manifest")))
OPS = [op["name"].split(":", 1)[1] for op in MANIFEST["operations"]]
FILTERS = [op["name"].split(":", 1)[1] for op in MANIFEST["operations"] if "input" in op["pads"]["inputs"]]
# The filters with a bevel size (their radius or size property).
SIZED = [op["name"].split(":", 1)[1] for op in MANIFEST["operations"]
         if {"radius", "size"} & {p["name"] for p in op.get("properties", [])}]
COMPOSERS = [op["name"].split(":", 1)[1] for op in MANIFEST["operations"] if "aux" in op["pads"]["inputs"]]


def rect(x, y, w, h):
    return Gegl.Rectangle.new(x, y, w, h)


def render(node, x, y, w, h):
    """The op's pixels over (x, y, w, h) as RGBA floats, through gegl:write-buffer's way (blit)."""
    buf = Gegl.Buffer.new("RGBA float", x, y, w, h)
    node.blit_buffer(buf, rect(x, y, w, h), 0, Gegl.AbyssPolicy.NONE)
    data = buf.get(rect(x, y, w, h), 1.0, "RGBA float", Gegl.AbyssPolicy.NONE)
    return struct.unpack(f"{w * h * 4}f", data)


def buffer_source(graph, w, h, pixel):
    """A w×h RGBA float buffer whose pixel (i) is pixel(i) (4 floats), behind gegl:buffer-source."""
    buf = Gegl.Buffer.new("RGBA float", 0, 0, w, h)
    values = []
    for i in range(w * h):
        values.extend(pixel(i))
    buf.set(rect(0, 0, w, h), "RGBA float", struct.pack(f"{len(values)}f", *values))
    src = graph.create_child("gegl:buffer-source")
    src.set_property("buffer", buf)
    return src, buf


def text(graph):
    t = graph.create_child("gegl:text")
    t.set_property("string", "Hg")
    t.set_property("size", 40.0)
    return t


def op_node(graph, op):
    return graph.create_child("mercurial:" + op)


def non_finite(px):
    return sum(1 for v in px if not math.isfinite(v))


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


# --- cases -------------------------------------------------------------------------------------

def case_no_input(op):
    """Nothing on the input pad: renders (transparent or, for renders, the picture), finite."""
    g = Gegl.Node()
    node = op_node(g, op)
    px = render(node, 0, 0, 32, 32)
    expect(non_finite(px) == 0, "non-finite output with no input")


def case_empty_input(op):
    g = Gegl.Node()
    src = g.create_child("gegl:crop")
    src.set_property("width", 0.0)
    src.set_property("height", 0.0)
    text(g).link(src)
    node = op_node(g, op)
    src.link(node)
    px = render(node, 0, 0, 16, 16)
    expect(non_finite(px) == 0, "non-finite output on an empty input")


def case_infinite_input_region(op):
    """An uncropped pattern: any finite region renders, far from the origin too."""
    g = Gegl.Node()
    board = g.create_child("gegl:checkerboard")
    node = op_node(g, op)
    board.link(node)
    for (x, y) in [(0, 0), (-1_000_000, 5_000_000), (2**29, -(2**29))]:
        px = render(node, x, y, 64, 48)
        expect(non_finite(px) == 0, f"non-finite output at {x},{y}")


def case_infinite_input_whole(op):
    """An uncropped pattern rendered whole through gegl:write-buffer: returns, bounded memory."""
    g = Gegl.Node()
    board = g.create_child("gegl:checkerboard")
    node = op_node(g, op)
    out = Gegl.Buffer.new("RGBA float", 0, 0, 16, 16)
    sink = g.create_child("gegl:write-buffer")
    sink.set_property("buffer", out)
    board.link(node)
    node.link(sink)
    sink.process()


def case_infinite_aux_whole(op):
    """An uncropped pattern on the aux pad of a finite input."""
    g = Gegl.Node()
    t = text(g)
    node = op_node(g, op)
    board = g.create_child("gegl:checkerboard")
    t.link(node)
    board.connect_to("output", node, "aux")
    box = node.get_bounding_box()
    px = render(node, box.x, box.y, max(1, box.width), max(1, box.height))
    expect(non_finite(px) == 0, "non-finite output with an infinite aux")


def case_nan_pixels(op):
    """Non-finite input pixels stay in their own pixel or are made finite."""
    g = Gegl.Node()
    w, h = 40, 30
    bad = {37, 38, 300, 301, 302, 900}
    specials = [float("nan"), float("inf"), float("-inf")]

    def pixel(i):
        if i in bad:
            s = specials[i % 3]
            return (s, s, s, s if i % 2 else 1.0)
        v = 1.0 if (i % w) in range(8, 32) and (i // w) in range(6, 24) else 0.0
        return (v, v, v, 1.0 if v else 0.5)
    src, _ = buffer_source(g, w, h, pixel)
    node = op_node(g, op)
    src.link(node)
    px = render(node, 0, 0, w, h)
    expect(non_finite(px) <= 4 * len(bad), f"{non_finite(px)} non-finite components from {len(bad)} bad pixels")


def case_nan_aux(op):
    """An aux image that is all NaN: the output is not all NaN."""
    g = Gegl.Node()
    t = text(g)
    node = op_node(g, op)
    src, _ = buffer_source(g, 16, 16, lambda i: (float("nan"),) * 4)
    t.link(node)
    src.connect_to("output", node, "aux")
    box = node.get_bounding_box()
    px = render(node, box.x, box.y, box.width, box.height)
    expect(non_finite(px) < len(px) // 10, f"{non_finite(px)} of {len(px)} components non-finite")


def case_huge_aux(op):
    """A 20000² aux image: bounded memory (the runner's limit) and time."""
    g = Gegl.Node()
    t = text(g)
    node = op_node(g, op)
    board = g.create_child("gegl:checkerboard")
    crop = g.create_child("gegl:crop")
    crop.set_property("width", 20000.0)
    crop.set_property("height", 20000.0)
    board.link(crop)
    t.link(node)
    crop.connect_to("output", node, "aux")
    px = render(node, 0, 0, 160, 120)
    expect(non_finite(px) == 0, "non-finite output with a huge aux")
    if op in ("shaded-material", "shaded-material-from-mask"):
        # Defined result: an aux above 4096² is not read; the default hemisphere shades instead.
        g2 = Gegl.Node()
        t2 = text(g2)
        plain = op_node(g2, op)
        t2.link(plain)
        expect(px == render(plain, 0, 0, 160, 120), "a huge aux must give the default hemisphere's picture")


def case_property_extremes(op):
    """Every numeric property at its minimum, its maximum, and far beyond both: finite output."""
    for where in ("min", "max", "below", "above"):
        g = Gegl.Node()
        t = text(g)
        node = op_node(g, op)
        t.link(node)
        for spec in Gegl.Operation.list_properties("mercurial:" + op):
            if spec.value_type.name not in ("gdouble", "gint"):
                continue
            lo, hi = spec.minimum, spec.maximum
            value = {"min": lo, "max": hi, "below": lo - 1e6, "above": hi + 1e6}[where]
            if spec.value_type.name == "gint":
                value = int(max(-2**31, min(2**31 - 1, value)))
            node.set_property(spec.name, value)
        if op == "hemisphere-light-render":
            node.set_property("size", 64)
        box = node.get_bounding_box()
        w, h = min(max(1, box.width), 256), min(max(1, box.height), 256)
        px = render(node, box.x, box.y, w, h)
        expect(non_finite(px) == 0, f"non-finite output with properties at {where}")


def case_every_choice_at_max(op):
    """Every value of every enumerated property (style, technique, profile, contour, …), each with
    every numeric property at its maximum (radius 128, soften 16, …): finite output, within the
    suite's memory and time limits."""
    specs = Gegl.Operation.list_properties("mercurial:" + op)
    enums = [s for s in specs if GObject.type_is_a(s.value_type, GObject.TYPE_ENUM)]
    numeric = [s for s in specs if s.value_type.name in ("gdouble", "gint")]
    for spec in enums:
        for value in sorted(type(spec.default_value).__enum_values__):
            g = Gegl.Node()
            t = text(g)
            node = op_node(g, op)
            t.link(node)
            for n in numeric:
                node.set_property(n.name, n.maximum)
            if op == "hemisphere-light-render":
                node.set_property("size", 64)
            node.set_property(spec.name, value)
            box = node.get_bounding_box()
            w, h = min(max(1, box.width), 256), min(max(1, box.height), 256)
            px = render(node, box.x, box.y, w, h)
            expect(non_finite(px) == 0, f"non-finite output with {spec.name} = {value} and the numbers at their maximum")


def case_file_paths(op):
    """Every file-path property given no file, a folder, a device that never ends, a fifo, a
    file that is not a picture and a missing one: the built-in default, finite output, no hang."""
    import tempfile
    folder = tempfile.mkdtemp()
    garbage = os.path.join(folder, "garbage.png")
    with open(garbage, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + b"\xff" * 4000)
    fifo = os.path.join(folder, "fifo.png")
    os.mkfifo(fifo)
    paths = [s.name for s in Gegl.Operation.list_properties("mercurial:" + op) if s.value_type.name == "gchararray"]
    if not paths:
        return
    for path in ["", "/", "/dev/zero", "/dev/urandom", fifo, garbage, os.path.join(folder, "missing.png")]:
        g = Gegl.Node()
        t = text(g)
        node = op_node(g, op)
        t.link(node)
        for name in paths:
            node.set_property(name, path)
        names = [s.name for s in Gegl.Operation.list_properties("mercurial:" + op)]
        if "source" in names:
            node.set_property("source", 1)   # matcap: the file, not the look
        if "texture" in names:
            node.set_property("texture", 5)  # bevel-emboss: the texture from the file
        box = node.get_bounding_box()
        px = render(node, box.x, box.y, max(1, box.width), max(1, box.height))
        expect(non_finite(px) == 0, f"non-finite output with the file {path!r}")
    import shutil
    shutil.rmtree(folder)


def case_odd_extents(op):
    """Extents 1×1, 30000×2 and one far from the origin at a negative position."""
    for (x, y, w, h) in [(0, 0, 1, 1), (0, 0, 30000, 2), (-70001, -3, 5, 9)]:
        g = Gegl.Node()
        colour = g.create_child("gegl:color")
        colour.set_property("value", Gegl.Color.new("white"))
        crop = g.create_child("gegl:crop")
        for k, v in (("x", x), ("y", y), ("width", w), ("height", h)):
            crop.set_property(k, float(v))
        node = op_node(g, op)
        colour.link(crop)
        crop.link(node)
        px = render(node, x, y, min(w, 4096), h)
        expect(non_finite(px) == 0, f"non-finite output on {w}×{h} at {x},{y}")


def case_formats(op):
    """The input in 8- and 16-bit, grey, perceptual and premultiplied formats."""
    for fmt in ("Y u8", "Y' u8", "YA u16", "R'G'B' u8", "R'G'B'A u8", "RaGaBaA float", "RGB half", "cairo-ARGB32"):
        g = Gegl.Node()
        t = text(g)
        conv = g.create_child("gegl:convert-format")
        conv.set_property("format", Gegl.format(fmt) if hasattr(Gegl, "format") else fmt)
        node = op_node(g, op)
        t.link(conv)
        conv.link(node)
        box = node.get_bounding_box()
        px = render(node, box.x, box.y, max(1, box.width), max(1, box.height))
        expect(non_finite(px) == 0, f"non-finite output from {fmt}")


def case_threads_alike(op):
    """A large region at the largest bevel size, the outer style and exact distances where the op
    has them, rendered with 1 and with 3 threads: the same bytes (the region is cut into windows
    that threads share out, and under ThreadSanitizer this is the case that shares them)."""
    specs = {s.name: s for s in Gegl.Operation.list_properties("mercurial:" + op)}
    size = specs.get("radius") or specs.get("size")

    def picture(threads):
        Gegl.config().set_property("threads", threads)
        g = Gegl.Node()
        t = text(g)
        t.set_property("size", 1000.0)
        node = op_node(g, op)
        t.link(node)
        node.set_property(size.name, size.maximum)
        for name, value in (("style", "outer-bevel"), ("technique", "chisel-soft")):
            if name in specs:
                node.set_property(name, value)
        box = node.get_bounding_box()
        w, h = min(box.width, 3000), min(box.height, 2000)
        buf = Gegl.Buffer.new("RGBA float", box.x, box.y, w, h)
        node.blit_buffer(buf, rect(box.x, box.y, w, h), 0, Gegl.AbyssPolicy.NONE)
        return buf.get(rect(box.x, box.y, w, h), 1.0, "RGBA float", Gegl.AbyssPolicy.NONE)

    one = picture(1)
    expect(len(set(one)) > 2, "a blank picture")
    expect(picture(3) == one, "3 threads render other bytes than 1")


CASES = {}
for _op in OPS:
    for _name, _fn in [("no-input", case_no_input), ("empty-input", case_empty_input),
                       ("infinite-input-region", case_infinite_input_region),
                       ("infinite-input-whole", case_infinite_input_whole),
                       ("nan-pixels", case_nan_pixels), ("property-extremes", case_property_extremes),
                       ("every-choice-at-max", case_every_choice_at_max),
                       ("odd-extents", case_odd_extents), ("formats", case_formats),
                       ("file-paths", case_file_paths)]:
        if _op not in FILTERS and _name not in ("no-input", "property-extremes", "every-choice-at-max"):
            continue
        CASES[f"{_op}/{_name}"] = (_fn, _op)
    if _op in FILTERS and _op in SIZED:
        CASES[f"{_op}/threads-alike"] = (case_threads_alike, _op)
    if _op in COMPOSERS:
        for _name, _fn in [("infinite-aux", case_infinite_aux_whole), ("nan-aux", case_nan_aux),
                           ("huge-aux", case_huge_aux)]:
            CASES[f"{_op}/{_name}"] = (_fn, _op)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--list":
        print("\n".join(CASES))
        return
    name = sys.argv[1]
    Gegl.init(None)
    Gegl.config().set_property("use-opencl", False)
    fn, op = CASES[name]
    expect(Gegl.has_operation("mercurial:" + op), f"GEGL has no mercurial:{op} (is the plug-in on GEGL_PATH?)")
    fn(op)
    Gegl.exit()


if __name__ == "__main__":
    main()
