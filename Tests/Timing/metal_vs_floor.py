#!/usr/bin/python3
"""Times mercurial:liquid-metal (default properties) against its floor, gegl:invert-linear writing
the same RGBA float output from the same 3840×2160 text layer, through python-gi as a script sees
it: a fresh graph each run, the result written into a new buffer, in a process of its own.

In such a process every run's output lands on newly mapped memory, as with the `gegl` command; in a
long-lived host such as GIMP it mostly lands on memory GEGL already holds, and both ops take less
(mercurial-bench --memory reused times that state). Prints ROUNDS lines, each the medians of RUNS
runs of the two, taken in turn, then the median ratio [min–max]. A benchmark: it asserts nothing.

Usage: metal_vs_floor.py [RUNS [ROUNDS]]   (GEGL_PATH must reach the plug-in and GEGL's own ops)
"""
import os
import statistics
import sys

import gi

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import styles_vs_gegl as shared  # noqa: E402  (the same text layer and the same timing)


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 11
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    shared.start(("mercurial:liquid-metal",))
    layer = shared.text_layer()
    # One untimed run of each first: the first use of an op in a process builds its class, babl's
    # conversions and the plug-in's tables.
    shared.timed(layer, "gegl:invert-linear", {}, runs=1)
    shared.timed(layer, "mercurial:liquid-metal", {}, runs=1)
    maj, mnr, mic = Gegl.get_version()
    print(f"GEGL {maj}.{mnr}.{mic}, {shared.W}×{shared.H} text layer, 2 threads, "
          f"{rounds} rounds of {runs} fresh-graph runs each (medians)\n")
    print("| round | floor: gegl:invert-linear | mercurial:liquid-metal | ratio (goal ≤ 2) |")
    print("|---:|---:|---:|---:|")
    ratios = []
    for k in range(rounds):
        floor = shared.timed(layer, "gegl:invert-linear", {}, runs)
        metal = shared.timed(layer, "mercurial:liquid-metal", {}, runs)
        ratios.append(metal / floor)
        print(f"| {k + 1} | {floor:.4f} s | {metal:.4f} s | {metal / floor:.2f} |", flush=True)
    print(f"\nliquid-metal ÷ floor: {statistics.median(ratios):.2f} [{min(ratios):.2f}–{max(ratios):.2f}]")


if __name__ == "__main__":
    main()
