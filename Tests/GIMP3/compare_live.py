#!/usr/bin/python3
"""Checks what scripts/gimp3-live-test.sh made GIMP 3 do.

Usage: compare_live.py ROUNDTRIP FIXTURES FIXTURE_SOURCES
  ROUNDTRIP: each X.xcf saved by this build and opened by a fresh GIMP: the same filters and values
             (X.filters = X.reloaded.filters) and the same pixels (X.png, X.reloaded.png within 1/255).
  FIXTURES:  each X.xcf saved by an earlier build (FIXTURE_SOURCES has its X.png and X.filters) and
             opened with this build: the same op and every saved value as it was, the same pixels
             within 1/255.
Prints a line per check and 'N passed, N failed'; exits 1 on any failure.
"""
import importlib.util
import os
import sys

import gi

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl  # noqa: E402

# The picture loader of scripts/check-images.py (a file name with a dash: loaded by path).
_spec = importlib.util.spec_from_file_location(
    "check_images", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "check-images.py"))
check_images = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_images)

results = []


def check(ok, what):
    results.append(ok)
    print(("ok   " if ok else "FAIL ") + what)


def pixels(path):
    """(size, 8-bit R'G'B'A values) of a picture, read through GEGL as check-images.py reads it."""
    width, height, values = check_images.load(path)
    return (width, height), [max(0, min(255, round(v * 255))) for v in values]


def same_look(a, b, what):
    if not (os.path.exists(a) and os.path.exists(b)):
        check(False, f"{what}: missing {a if not os.path.exists(a) else b}")
        return
    (sa, pa), (sb, pb) = pixels(a), pixels(b)
    if sa != sb:
        check(False, f"{what}: {sa} against {sb} pixels")
        return
    worst = max((abs(x - y) for x, y in zip(pa, pb)), default=0)
    visible = sum(1 for i in range(3, len(pa), 4) if pa[i] > 0)
    check(worst <= 1 and visible > 0, f"{what}: largest difference {worst}/255, {visible} visible pixels")


def values(path):
    lines = open(path).read().splitlines()
    return lines[0] if lines else "", dict(l.strip().split(" = ", 1) for l in lines[1:] if " = " in l)


def main():
    roundtrip, fixtures, sources = sys.argv[1:4]
    for entry in sorted(os.listdir(roundtrip)):
        if not entry.endswith(".xcf"):
            continue
        stem = os.path.join(roundtrip, entry[:-4])
        saved, reloaded = values(stem + ".filters"), values(stem + ".reloaded.filters") \
            if os.path.exists(stem + ".reloaded.filters") else ("", {})
        check(saved == reloaded and saved[0].startswith("filter mercurial:"),
              f"round trip {entry}: {saved[0] or 'no filter'} and its {len(saved[1])} values back as saved"
              + ("" if saved == reloaded else f" (reloaded: {reloaded[0] or 'no filter'}, "
                 + ", ".join(f"{k} {saved[1].get(k)}→{reloaded[1].get(k)}" for k in saved[1]
                             if saved[1].get(k) != reloaded[1].get(k)) + ")"))
        same_look(stem + ".png", stem + ".reloaded.png", f"round trip {entry}: pixels")
    for entry in sorted(os.listdir(sources)):
        if not entry.endswith(".xcf"):
            continue
        name = entry[:-4]
        old, new = values(os.path.join(sources, name + ".filters")), \
            values(os.path.join(fixtures, name + ".reloaded.filters")) \
            if os.path.exists(os.path.join(fixtures, name + ".reloaded.filters")) else ("", {})
        changed = [k for k in old[1] if old[1][k] != new[1].get(k)]
        check(old[0] == new[0] and not changed,
              f"fixture {entry}: {new[0] or 'no filter'} with its {len(old[1])} saved values"
              + ("" if not changed else " (changed: " + ", ".join(f"{k} {old[1][k]}→{new[1].get(k)}" for k in changed) + ")"))
        same_look(os.path.join(sources, name + ".png"), os.path.join(fixtures, name + ".reloaded.png"),
                  f"fixture {entry}: pixels as the earlier build drew them")
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    sys.exit(0 if results and all(results) else 1)


if __name__ == "__main__":
    Gegl.init(None)
    main()
