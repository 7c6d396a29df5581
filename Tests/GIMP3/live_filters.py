# Runs inside GIMP 3 (gimp-console-3.0 --batch-interpreter=python-fu-eval): Mercurial's menu filters
# as live (non-destructive) filters on a text layer, saved to XCF and opened again.
#
#   MERCURIAL_LIVE=save  for each op in $MERCURIAL_LIVE_OPS (op[#tag]=prop:value,...;...), a black
#                        text layer with the op appended as a live filter with those values; writes
#                        DIR/<op>[#tag].xcf, .png (the image as GIMP shows it) and .filters.
#   MERCURIAL_LIVE=load  opens every DIR/*.xcf in this (fresh) GIMP; writes DIR/<op>.reloaded.png and
#                        DIR/<op>.filters (the filters found on the layer: op and every value).
# DIR is $MERCURIAL_LIVE_DIR. Any error is printed and ends GIMP with a failure.
import os, sys, traceback
import gi
gi.require_version("Gimp", "3.0")
from gi.repository import Gimp, Gio

mode = os.environ["MERCURIAL_LIVE"]
folder = os.environ["MERCURIAL_LIVE_DIR"]


def parse_ops(text):
    ops = []
    for entry in filter(None, text.split(";")):
        name, _, values = entry.partition("=")
        pairs = []
        for item in filter(None, values.split(",")):
            key, _, value = item.partition(":")
            pairs.append((key, value))
        ops.append((name, pairs))
    return ops


def typed(config, key, text):
    # The config's own property type decides how the text is read.
    spec = config.find_property(key)
    if spec is None:
        raise RuntimeError("no property %s" % key)
    kind = spec.value_type.name
    if kind == "gboolean":
        return text == "true"
    if kind in ("gint", "guint"):
        return int(text)
    if kind in ("gdouble", "gfloat"):
        return float(text)
    return text  # enums reach a plug-in as GimpChoice strings (nicks); strings stay strings


def text_image():
    image = Gimp.Image.new(420, 160, Gimp.ImageBaseType.RGB)
    font = Gimp.context_get_font()
    layer = Gimp.TextLayer.new(image, "Hg 3", font, 110.0, Gimp.Unit.pixel())
    image.insert_layer(layer, None, 0)
    return image, layer


def save(image, path):
    Gimp.file_save(Gimp.RunMode.NONINTERACTIVE, image, Gio.File.new_for_path(path), None)


def describe(layer):
    lines = []
    for f in layer.get_filters():
        config = f.get_config()
        lines.append("filter %s" % f.get_operation_name())
        for spec in sorted(config.list_properties(), key=lambda s: s.name):
            if spec.name in ("input", "output", "aux"):
                continue
            value = config.get_property(spec.name)
            if hasattr(value, "get_rgba"):
                value = "rgba(%.4f, %.4f, %.4f, %.4f)" % tuple(value.get_rgba())
            elif isinstance(value, float):
                value = "%.6g" % value
            lines.append("  %s = %s" % (spec.name, value))
    return "\n".join(lines) + "\n"


try:
    if mode == "save":
        for entry, pairs in parse_ops(os.environ["MERCURIAL_LIVE_OPS"]):
            name = entry.split("#")[0]
            image, layer = text_image()
            f = Gimp.DrawableFilter.new(layer, name, "")
            config = f.get_config()
            for key, text in pairs:
                config.set_property(key, typed(config, key, text))
            f.update()
            layer.append_filter(f)
            stem = os.path.join(folder, entry.replace(":", "-"))
            if not layer.get_filters():
                raise RuntimeError("%s: GIMP left no live filter on the layer" % name)
            with open(stem + ".filters", "w") as out:
                out.write(describe(layer))
            save(image, stem + ".xcf")
            save(image, stem + ".png")
            print("saved %s" % entry)
    else:
        for entry in sorted(os.listdir(folder)):
            if not entry.endswith(".xcf"):
                continue
            stem = os.path.join(folder, entry[:-4])
            image = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path(stem + ".xcf"))
            layer = image.get_layers()[0]
            with open(stem + ".reloaded.filters", "w") as out:
                out.write(describe(layer))
            save(image, stem + ".reloaded.png")
            print("reloaded %s" % entry)
except Exception:
    traceback.print_exc()
    print("MERCURIAL-LIVE-FAILED")
    sys.stdout.flush()
    Gimp.quit()
