#!/usr/bin/python3
"""Times mercurial:liquid-metal's Bevel & Emboss styles and mercurial:bevel-emboss next to GEGL's
own gegl:bevel and gegl:styles on a 3840×2160 text layer, in one process, as a host sees it: a fresh graph per run,
the result written into a new buffer. Prints Markdown tables: median of RUNS runs, and each
style's ratio to gegl:bevel, gegl:styles and the default liquid-metal; the sizes 8, 64 and 250 of
some settings; every style and technique at sizes 8 and 250 with soften 0 and 16.

Usage: styles_vs_gegl.py [RUNS]   (GEGL_PATH must reach the plug-in and GEGL's own operations)
"""
import sys
import time

import gi

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl  # noqa: E402

W, H = 3840, 2160
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
# The every-setting table's rounds: its ratios compare renders a few percent apart.
SETTING_RUNS = max(RUNS, 5)


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


def graph(layer, op, props):
    """A fresh graph: the layer's buffer source and `op` with `props` (not yet linked)."""
    g = Gegl.Node()
    src = g.create_child("gegl:buffer-source")
    src.set_property("buffer", layer)
    node = g.create_child(op)
    for k, v in props.items():
        node.set_property(k, v)
    return g, src, node


def timed(layer, op, props, runs=None, fmt="RGBA float"):
    """Median seconds of `runs` (default RUNS) fresh-graph runs of `op` on `layer`, each into a new
    buffer in `fmt`."""
    samples = []
    for _ in range(runs or RUNS):
        g, src, node = graph(layer, op, props)
        out = Gegl.Buffer.new(fmt, 0, 0, W, H)
        sink = g.create_child("gegl:write-buffer")
        sink.set_property("buffer", out)
        src.link(node)
        node.link(sink)
        start = time.monotonic()
        sink.process()
        samples.append(time.monotonic() - start)
    return median(samples)


def start(ops, gpl3=False):
    """GEGL with 2 threads; exits (status 3) unless it has every op of `ops`."""
    if gpl3:
        Gegl.config().set_property("application-license", "GPL3")
    Gegl.init(None)
    Gegl.config().set_property("threads", 2)
    for op in ops:
        if not Gegl.has_operation(op):
            print(f"GEGL {Gegl.get_version()} has no {op} here")
            sys.exit(3)


def main():
    # As GIMP does: a GPL-3 host, so GEGL loads its GPL-3 operations (gegl:bevel and gegl:styles
    # use gegl:emboss, one of them; without it they would time a pass-through in its place).
    start(("gegl:bevel", "gegl:styles", "gegl:emboss", "mercurial:liquid-metal"), gpl3=True)
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
    # Each of our filters in turn with the default liquid-metal, round after round, so that its ratio
    # to the default compares renders made side by side; GEGL's own two last: their renders fill
    # the process's tile cache, and ours run slower after them.
    t, default = {}, {}
    for name, op, props in rows:
        if name == "liquid-metal (default)":
            t[name] = timed(layer, op, props)
        elif not op.startswith("gegl:"):
            default[name], t[name] = in_turn(layer, [("mercurial:liquid-metal", {}), (op, props)])
    sized, chunks = sizes(layer)
    settings = every_setting(layer, SETTING_RUNS)
    for name, op, props in rows:
        if op.startswith("gegl:"):
            t[name] = timed(layer, op, props)
    maj, mnr, mic = Gegl.get_version()
    print(f"GEGL {maj}.{mnr}.{mic}, {W}×{H} text layer, 2 threads, median of {RUNS} fresh-graph runs (our filters: "
          f"{RUNS} rounds, each rendering the default liquid-metal and the filter in turn)\n")
    print("| operation | seconds | ÷ gegl:bevel (goal ≤ 0.1) | ÷ gegl:styles (goal ≤ 0.3) | ÷ liquid-metal default |")
    print("|---|---:|---:|---:|---:|")
    for name, _, _ in rows:
        s = t[name]
        print(f"| {name} | {s:.3f} | {s / t['gegl:bevel']:.3f} | {s / t['gegl:styles']:.3f} | "
              f"{s / default.get(name, t['liquid-metal (default)']):.2f} |")
    print(f"\nAny bevel size, same run, the sizes and the default liquid-metal in turn: seconds at sizes 8, 64, 250 "
          f"(medians of the rounds); 250 ÷ 8 (goal ≤ 1.5) and size 8 ÷ the default (goal ≤ 1.5), medians of the "
          f"rounds' ratios (250 ÷ 8: with the lowest and highest round's); size 250 ÷ gegl:bevel\n")
    print("| settings | size 8 | size 64 | size 250 | 250 ÷ 8 | rounds | 8 ÷ default | 250 ÷ gegl:bevel |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, (d, a, b, c) in sized:
        lo, hi = spread(a, c)
        print(f"| {label} | {median(a):.3f} | {median(b):.3f} | {median(c):.3f} | {paired(a, c):.2f} | {lo:.2f}–{hi:.2f} | "
              f"{paired(d, a):.2f} | {median(c) / t['gegl:bevel']:.3f} |")
    for label, one, many in chunks:
        print(f"| liquid-metal {label}, size 250: 256×256 regions of one graph {many:.3f} s ÷ one region "
              f"{one:.3f} s (goal ≤ 1.5) | | | | {many / one:.2f} | | | |")
    print(f"\nEvery style and technique, soften 0 and 16, same run, the default liquid-metal and the two sizes in turn "
          f"({SETTING_RUNS} rounds): seconds (medians of the rounds); 250 ÷ 8 (goal ≤ 1.5) and size 8 ÷ the default "
          f"(soften 0: goal ≤ 1.5), medians of the rounds' ratios (250 ÷ 8: with the lowest and highest round's)\n")
    print("| style | technique | soften | default | size 8 | size 250 | 250 ÷ 8 | rounds | 8 ÷ default |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for (style, technique, soften), (d, a, b), large, small, (lo, hi) in settings:
        print(f"| {style} | {technique} | {soften:.0f} | {d:.3f} | {a:.3f} | {b:.3f} | {large:.2f} | {lo:.2f}–{hi:.2f} | "
              f"{small:.2f} |")
    worst = max(settings, key=lambda row: row[2])
    print(f"\nliquid-metal, every setting: largest 250 ÷ 8: {worst[2]:.2f} ({', '.join(str(v) for v in worst[0])}); largest size 8 ÷ "
          f"the default at soften 0: {max(row[3] for row in settings if row[0][2] == 0):.2f}")


def chunked(layer, op, props, tile, runs=None):
    """Median seconds of `runs` fresh graphs each rendered as tile×tile regions, one blit (one
    processor) per region, as GIMP renders a live filter's preview; tile ≥ the frame: one region."""
    samples = []
    for _ in range(runs or RUNS):
        g, src, node = graph(layer, op, props)
        src.link(node)
        out = Gegl.Buffer.new("RGBA float", 0, 0, W, H)
        start = time.monotonic()
        for y in range(0, H, tile):
            for x in range(0, W, tile):
                rect = Gegl.Rectangle.new(x, y, min(tile, W - x), min(tile, H - y))
                node.blit_buffer(out, rect, 0, Gegl.AbyssPolicy.NONE)
        samples.append(time.monotonic() - start)
    return median(samples)


def rounds(layer, variants, runs=None):
    """Seconds of each (op, props) of `variants`, rendered one after the other in each of `runs`
    (default RUNS) rounds: a list of the rounds' times per variant."""
    samples = [[] for _ in variants]
    for _ in range(runs or RUNS):
        for i, (op, props) in enumerate(variants):
            samples[i].append(timed(layer, op, props, 1))
    return samples


def median(values):
    """The middle of `values` (the upper of the two middle ones for an even count)."""
    return sorted(values)[len(values) // 2]


def in_turn(layer, variants, runs=None):
    """Median seconds of each (op, props) of `variants`, rendered one after the other in each of
    `runs` (default RUNS) rounds: a drift of the machine reaches them all alike."""
    return [median(s) for s in rounds(layer, variants, runs)]


def ratios(a, b):
    """Each round's b ÷ a, its two renders made side by side."""
    return [y / x for x, y in zip(a, b)]


def paired(a, b):
    """The median over rounds of b ÷ a (a drift of the machine between rounds cancels out)."""
    return median(ratios(a, b))


def spread(a, b):
    """The lowest and the highest of the rounds' b ÷ a: how far the machine moved a ratio."""
    return min(ratios(a, b)), max(ratios(a, b))


def every_setting(layer, runs=None):
    """Every style and technique at sizes 8 and 250, with soften 0 and 16, each round in turn with the
    default liquid-metal: ((style, technique, soften), [default, 8, 250], 250 ÷ 8, 8 ÷ default,
    250 ÷ 8's spread) rows: medians of the rounds' seconds, and of the rounds' ratios (`paired`)."""
    rows = []
    for soften in (0.0, 16.0):
        for style in ("inner-bevel", "outer-bevel", "emboss", "pillow-emboss"):
            for technique in ("smooth", "chisel-hard", "chisel-soft"):
                props = {"style": style, "technique": technique, "soften": soften}
                d, a, b = rounds(layer, [("mercurial:liquid-metal", {})] + [
                    ("mercurial:liquid-metal", dict(props, radius=r)) for r in (8.0, 250.0)], runs)
                rows.append(((style, technique, soften), [median(d), median(a), median(b)], paired(a, b), paired(d, a),
                             spread(a, b)))
    return rows


def sizes(layer):
    """Any bevel size: each style at sizes 8, 64 and 250 (and soften 16), each round with the default
    liquid-metal: (label, [default, 8, 64, 250]) rows of the rounds' seconds; and the preview's
    chunks: (label, one region, 256×256 regions) rows."""
    rows = []
    for label, op, props, key in (
            ("liquid-metal inner-bevel", "mercurial:liquid-metal", {}, "radius"),
            ("liquid-metal outer-bevel", "mercurial:liquid-metal", {"style": "outer-bevel"}, "radius"),
            ("liquid-metal emboss", "mercurial:liquid-metal", {"style": "emboss"}, "radius"),
            ("liquid-metal pillow-emboss", "mercurial:liquid-metal", {"style": "pillow-emboss"}, "radius"),
            ("liquid-metal inner, chisel-soft", "mercurial:liquid-metal", {"technique": "chisel-soft"}, "radius"),
            ("liquid-metal outer, chisel-soft", "mercurial:liquid-metal", {"style": "outer-bevel", "technique": "chisel-soft"},
             "radius"),
            ("liquid-metal inner, soften 16", "mercurial:liquid-metal", {"soften": 16.0}, "radius"),
            ("bevel-emboss (default style)", "mercurial:bevel-emboss", {}, "size")):
        if not Gegl.has_operation(op):
            continue
        sized = [(op, dict(props, **{key: r})) for r in (8.0, 64.0, 250.0)]
        rows.append((label, rounds(layer, [("mercurial:liquid-metal", {})] + sized)))
    chunks = []
    for label, props in (("outer-bevel", {"style": "outer-bevel", "radius": 250.0}),
                         ("outer-bevel, chisel-soft", {"style": "outer-bevel", "technique": "chisel-soft", "radius": 250.0})):
        chunks.append((label, chunked(layer, "mercurial:liquid-metal", props, max(W, H)),
                       chunked(layer, "mercurial:liquid-metal", props, 256)))
    return rows, chunks


if __name__ == "__main__":
    main()
