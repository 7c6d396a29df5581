#!/usr/bin/python3
"""Prints, for live_filters.py, every menu op of plugin-manifest with a non-default value for each
of its controls: numbers a fifth of the slider away from their default, the next choice of every
enum, booleans flipped. Paths, colours and where the shape comes from keep their defaults (so the
black test text still makes a picture). The one list of ops is the manifest.

Usage: live_values.py plugin-manifest   → op=prop:value,...;op=...
"""
import json
import sys


def other(prop):
    kind, default = prop["type"], prop["default"]
    if prop["name"] in ("mask", "height-source"):
        return None
    if kind == "gboolean":
        return "false" if default == "true" else "true"
    if "choices" in prop:
        choices = prop["choices"]
        return choices[(choices.index(default) + 1) % len(choices)]
    if kind in ("gdouble", "gint"):
        lo = float(prop.get("ui_minimum", prop["minimum"]))
        hi = float(prop.get("ui_maximum", prop["maximum"]))
        value = float(default)
        step = (hi - lo) / 5
        new = value + step if value + step <= hi else value - step
        return str(int(round(new))) if kind == "gint" else "%.4g" % new
    return None


def main():
    manifest = json.load(open(sys.argv[1]))
    entries = []
    for op in manifest["operations"]:
        if "gimp:menu-path" not in op:
            continue
        pairs = [(p["name"], other(p)) for p in op["properties"]]
        entries.append(op["name"] + "=" + ",".join("%s:%s" % (k, v) for k, v in pairs if v is not None))
    print(";".join(entries))


if __name__ == "__main__":
    main()
