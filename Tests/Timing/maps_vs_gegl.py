#!/usr/bin/python3
"""Times mercurial:material-maps' maps against gegl:normal-map and the floor (gegl:invert-linear)
on the same 3840×2160 text layer, through python-gi: a fresh graph each run, the result written
into a new buffer, in turn, medians of RUNS runs over ROUNDS rounds. Twice: into the op's own
output format, so that nothing is converted (gegl:normal-map: R'G'B'A float; the normal maps:
R'G'B' float; the grey maps: Y' float; the floor: RGBA float), and into RGBA float for every op (as the styles benchmark times: babl converts the maps).
A benchmark: it asserts nothing.

Usage: maps_vs_gegl.py [RUNS [ROUNDS]]   (GEGL_PATH must reach the plug-in and GEGL's own ops)
"""
import os
import statistics
import sys

import gi

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import styles_vs_gegl as shared  # noqa: E402  (the same text layer and timing)

ROWS = [
    ("floor: gegl:invert-linear", "gegl:invert-linear", {}, "RGBA float"),
    ("gegl:normal-map", "gegl:normal-map", {}, "R'G'B'A float"),
    ("lit-relief normal map", "mercurial:lit-relief", {"output": 1}, "R'G'B'A float"),
    ("material-maps normal (defaults)", "mercurial:material-maps", {}, "R'G'B' float"),
    ("material-maps height", "mercurial:material-maps", {"map": 0}, "Y' float"),
    ("material-maps ambient occlusion", "mercurial:material-maps", {"map": 3}, "Y' float"),
    ("material-maps curvature", "mercurial:material-maps", {"map": 4}, "Y' float"),
    ("material-maps normal, tileable", "mercurial:material-maps", {"tileable": True}, "R'G'B' float"),
]


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    shared.start(("mercurial:material-maps",))
    layer = shared.text_layer()
    for _, op, props, fmt in ROWS:  # first use of each op: its class, babl's conversions
        shared.timed(layer, op, props, 1, fmt)
    formats = ("own", "RGBA float")
    times = {(label, f): [] for label, *_ in ROWS for f in formats}
    for _ in range(rounds):
        for label, op, props, fmt in ROWS:
            for f in formats:
                times[(label, f)].append(shared.timed(layer, op, props, runs, fmt if f == "own" else f))
    maj, mnr, mic = Gegl.get_version()
    print(f"GEGL {maj}.{mnr}.{mic}, {shared.W}×{shared.H} text layer, 2 threads, "
          f"{rounds} rounds of {runs} fresh-graph runs (median of the rounds' medians)\n")
    print("| op | own format: s | ÷ floor | ÷ gegl:normal-map | RGBA float: s | ÷ floor | ÷ gegl:normal-map |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, *_ in ROWS:
        cells = []
        for f in formats:
            t = statistics.median(times[(label, f)])
            floor = statistics.median(times[(ROWS[0][0], f)])
            native = statistics.median(times[("gegl:normal-map", f)])
            cells.append(f"{t:.4f} | {t / floor:.2f} | {t / native:.2f}")
        print(f"| {label} | " + " | ".join(cells) + " |")

if __name__ == "__main__":
    main()
