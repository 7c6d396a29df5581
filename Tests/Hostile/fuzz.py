#!/usr/bin/python3
"""Random graphs of Mercurial's ops and GEGL's own, rendered over random regions (python3-gi).

Each iteration i of seed S builds one graph from random.Random(f"{S}:{i}"): a source (text,
uncropped or cropped pattern, colour, random pixels), an optional native op before, one of our ops
with random property values (in range, at the ends, far beyond, enum values), a random aux where
the op has one, an optional native op after; sometimes it renders the whole extent through
gegl:write-buffer (as the gegl CLI does; infinite extents too); then it renders a random region
(inside, across or far outside the extent; anywhere on an infinite one) with 1 and with 2
threads. Checks:
  - the output is finite (every source is finite),
  - pixels outside the node's extent are transparent,
  - 1 thread and 2 threads give the same bytes. babl's lossy conversions (within its default
    tolerance) are not: a pixel's value depends on where its run of pixels starts, so the runner
    keeps babl to its exact conversions (BABL_TOLERANCE=0) and the check holds our ops to the
    same bytes.
A crash or hang is caught by the runner (scripts/fuzz-test.sh), which runs batches in child
processes under memory and time limits and prints the seed of a failing batch.

Usage: fuzz.py SEED FIRST COUNT     iterations FIRST..FIRST+COUNT-1 of SEED
       fuzz.py SEED I --show        print iteration I's graph without rendering
"""
import json
import math
import os
import random
import struct
import sys
import warnings

import gi

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl  # noqa: E402

# The one list of ops: plugin-manifest, which a test holds equal to what the plug-in registers.
MANIFEST = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plugin-manifest")))
OURS = [op["name"].split(":", 1)[1] for op in MANIFEST["operations"]]
RENDERERS = {op["name"].split(":", 1)[1] for op in MANIFEST["operations"] if "input" not in op["pads"]["inputs"]}
COMPOSERS = {op["name"].split(":", 1)[1] for op in MANIFEST["operations"] if "aux" in op["pads"]["inputs"]}
FORMATS = ["RGBA float", "Y u8", "YA float", "R'G'B'A u8", "RGB u16", "Y'A u16", "RaGaBaA float", "RGBA half"]


def numeric_value(rng, spec):
    lo, hi, default = spec.minimum, spec.maximum, spec.default_value
    choice = rng.choice(["default", "min", "max", "in", "in", "below", "above"])
    v = {"default": default, "min": lo, "max": hi, "in": rng.uniform(lo, hi),
         "below": lo - rng.choice([1, 1e3, 1e9]), "above": hi + rng.choice([1, 1e3, 1e9])}[choice]
    return v


def build(rng, describe):
    g = Gegl.Node()
    kind = rng.choice(["text", "board", "board-cropped", "colour", "pixels"])
    if kind == "text":
        src = g.create_child("gegl:text")
        src.set_property("string", rng.choice(["Hg", "Mercurial", "i", " ", "WWW"]))
        src.set_property("size", float(rng.choice([1, 8, 40, 90])))
    elif kind.startswith("board"):
        src = g.create_child("gegl:checkerboard")
        src.set_property("x", rng.randint(1, 64))
        src.set_property("y", rng.randint(1, 64))
    elif kind == "colour":
        src = g.create_child("gegl:color")
        src.set_property("value", Gegl.Color.new(rng.choice(["white", "black", "rgba(0.2,0.5,0.9,0.5)"])))
    else:
        w, h = rng.randint(1, 96), rng.randint(1, 96)
        buf = Gegl.Buffer.new("RGBA float", rng.randint(-300, 300), rng.randint(-300, 300), w, h)
        ext = buf.get_extent()
        vals = [rng.choice([0.0, 1.0, rng.random(), -0.5, 2.0]) for _ in range(w * h * 4)]
        buf.set(ext, "RGBA float", struct.pack(f"{len(vals)}f", *vals))
        src = g.create_child("gegl:buffer-source")
        src.set_property("buffer", buf)
    describe.append(kind)
    last = src
    if kind in ("board-cropped", "colour"):
        crop = g.create_child("gegl:crop")
        for k, v in (("x", rng.randint(-500, 500)), ("y", rng.randint(-500, 500)),
                     ("width", rng.choice([0, 1, 7, 100, 300])), ("height", rng.choice([0, 1, 9, 80, 260]))):
            crop.set_property(k, float(v))
        last.link(crop)
        last = crop
        describe.append("crop")
    before = rng.choice([None, "gegl:gaussian-blur", "gegl:threshold", "gegl:convert-format", "gegl:translate"])
    if before:
        n = g.create_child(before)
        if before == "gegl:gaussian-blur":
            n.set_property("std-dev-x", rng.choice([0.0, 0.5, 3.0]))
            n.set_property("std-dev-y", rng.choice([0.0, 0.5, 3.0]))
        elif before == "gegl:convert-format":
            n.set_property("format", Gegl.format(rng.choice(FORMATS)) if hasattr(Gegl, "format") else None)
        elif before == "gegl:translate":
            n.set_property("x", float(rng.randint(-1000, 1000)))
            n.set_property("y", float(rng.randint(-1000, 1000)))
        last.link(n)
        last = n
        describe.append(before)
    op = rng.choice(OURS)
    node = g.create_child("mercurial:" + op)
    props = []
    for spec in Gegl.Operation.list_properties("mercurial:" + op):
        if rng.random() < 0.5:
            continue
        t = spec.value_type.name
        if t == "gdouble":
            v = numeric_value(rng, spec)
        elif t == "gint":
            v = int(max(-2**31, min(2**31 - 1, numeric_value(rng, spec))))
            if spec.name == "size":
                v = max(min(v, 600), -5)   # the hemisphere's picture size: keep renders small
        elif t == "gboolean":
            v = rng.random() < 0.5
        elif spec.value_type.is_a(gi.repository.GObject.TYPE_ENUM):
            v = rng.randint(0, 3)
        elif t == "guint":
            v = rng.randint(0, 2**32 - 1)
        else:
            continue
        try:
            node.set_property(spec.name, v)
            props.append(f"{spec.name}={v}")
        except (TypeError, ValueError, OverflowError):
            pass
    describe.append(f"mercurial:{op} " + " ".join(props))
    if op not in RENDERERS:
        last.link(node)
    if op in COMPOSERS and rng.random() < 0.7:
        auxkind = rng.choice(["hemisphere", "board", "text", "empty"])
        if auxkind == "hemisphere":
            a = g.create_child("mercurial:hemisphere-light-render")
            a.set_property("size", rng.choice([1, 16, 128]))
        elif auxkind == "board":
            a = g.create_child("gegl:checkerboard")
        elif auxkind == "text":
            a = g.create_child("gegl:text")
            a.set_property("string", "o")
        else:
            a = g.create_child("gegl:crop")
            a.set_property("width", 0.0)
        a.connect_to("output", node, "aux")
        describe.append("aux " + auxkind)
    last = node
    after = rng.choice([None, None, "gegl:crop", "gegl:translate", "gegl:invert-linear"])
    if after:
        n = g.create_child(after)
        if after == "gegl:crop":
            for k, v in (("x", rng.randint(-50, 50)), ("y", rng.randint(-50, 50)),
                         ("width", rng.randint(0, 200)), ("height", rng.randint(0, 200))):
                n.set_property(k, float(v))
        elif after == "gegl:translate":
            n.set_property("x", rng.uniform(-100, 100))
            n.set_property("y", rng.uniform(-100, 100))
        last.link(n)
        last = n
        describe.append(after)
    box = last.get_bounding_box()
    infinite = box.width >= 2**30 or box.height >= 2**30
    if infinite or box.width <= 0 or box.height <= 0:
        x, y = rng.randint(-2**28, 2**28), rng.randint(-2**28, 2**28)
    else:
        x = box.x + rng.randint(-box.width, box.width)
        y = box.y + rng.randint(-box.height, box.height)
    region = (x, y, rng.randint(1, 200), rng.randint(1, 200))
    describe.append(f"region {region} of extent ({box.x}, {box.y}, {box.width}×{box.height})")
    return g, last, box, region


def render(node, region, threads):
    Gegl.config().set_property("threads", threads)
    x, y, w, h = region
    buf = Gegl.Buffer.new("RGBA float", x, y, w, h)
    r = Gegl.Rectangle.new(x, y, w, h)
    node.blit_buffer(buf, r, 0, Gegl.AbyssPolicy.NONE)
    return buf.get(r, 1.0, "RGBA float", Gegl.AbyssPolicy.NONE)


def iteration(seed, i, show=False):
    rng = random.Random(f"{seed}:{i}")
    describe = []
    g, node, box, region = build(rng, describe)
    if show:
        print(f"{seed}:{i}: " + " → ".join(describe))
        return None
    infinite = box.width >= 2**30 or box.height >= 2**30
    # GEGL's own gaussian-blur aborts the host (GLib fails to allocate 32 GiB) when an infinite
    # extent behind it is rendered whole, with or without our ops after it: not generated.
    if rng.random() < 0.15 and not (infinite and "gegl:gaussian-blur" in describe):
        # The whole extent through a sink, as the gegl CLI and scripts do (infinite ones included).
        sink = g.create_child("gegl:write-buffer")
        sink.set_property("buffer", Gegl.Buffer.new("RGBA float", 0, 0, 1, 1))
        node.link(sink)
        sink.process()
    one = render(node, region, 1)
    two = render(node, region, 2)
    x, y, w, h = region
    values = struct.unpack(f"{w * h * 4}f", one)
    problems = []
    if any(not math.isfinite(v) for v in values):
        problems.append(f"{sum(1 for v in values if not math.isfinite(v))} non-finite components")
    outside = 0
    for py in range(h):
        for px in range(w):
            gx, gy = x + px, y + py
            if not (box.x <= gx < box.x + box.width and box.y <= gy < box.y + box.height):
                o = 4 * (py * w + px)
                if any(values[o + k] != 0 for k in range(4)):
                    outside += 1
    if outside:
        problems.append(f"{outside} pixels outside the extent are not transparent")
    if one != two:
        problems.append("1 thread and 2 threads differ")
    if problems:
        return f"{seed}:{i}: " + "; ".join(problems) + "\n    graph: " + " → ".join(describe)
    return None


def main():
    # GLib refuses out-of-range values with a warning (and keeps the old value): expected here.
    warnings.simplefilter("ignore")
    seed = sys.argv[1]
    Gegl.init(None)
    Gegl.config().set_property("use-opencl", False)
    missing = [op for op in OURS if not Gegl.has_operation("mercurial:" + op)]
    if missing:
        sys.exit(f"GEGL has no {missing} (is the plug-in on GEGL_PATH, and does it load?)")
    if len(sys.argv) > 3 and sys.argv[3] == "--show":
        iteration(seed, int(sys.argv[2]), show=True)
        return
    first, count = int(sys.argv[2]), int(sys.argv[3])
    failures = 0
    for i in range(first, first + count):
        problem = iteration(seed, i)
        if problem:
            print("FAIL " + problem, flush=True)
            failures += 1
    Gegl.config().set_property("threads", 2)
    Gegl.exit()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
