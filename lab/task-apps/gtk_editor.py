#!/usr/bin/python3
# A generated GTK 3 editor task app (bench/replay-gen, lab tests): a toolbar of text buttons over a
# text area holding a few lines of a document. The window's title takes a leading « * » once the
# text is modified, as editors show it. « Enregistrer » (params["save"]) writes {"text", "saved"} as
# JSON to params["out"] — the oracle, which never looks at the screen; the window stays open.
# Widget screen boxes go to params["out"] + ".geom.json" once shown, for the scripted person (lab
# ground truth, never read by the product). Variants: GTK follows GTK_THEME / GDK_SCALE / GDK_DPI_SCALE.
import json, os, sys
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk, GLib

p = json.load(open(sys.argv[1]))
if p.get("theme") and not os.environ.get("GTK_THEME"):
    Gtk.Settings.get_default().set_property("gtk-theme-name", p["theme"])

win = Gtk.Window(title=p["title"])
win.set_default_size(p.get("width", 560), p.get("height", 460))
win.connect("destroy", Gtk.main_quit)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6, margin=8)
win.add(box)
bar = Gtk.Box(spacing=6)
buttons = {}
for label in p["buttons"]:
    b = Gtk.Button(label=label)
    bar.pack_start(b, False, False, 0)
    buttons[label] = b
box.pack_start(bar, False, False, 0)
view = Gtk.TextView(wrap_mode=Gtk.WrapMode.WORD, left_margin=6, top_margin=4)
buf = view.get_buffer()
buf.set_text("\n".join(p["lines"]))
buf.set_modified(False)
buf.connect("modified-changed", lambda b: win.set_title(("*" if b.get_modified() else "") + p["title"]))
scroll = Gtk.ScrolledWindow(hexpand=True, vexpand=True)
scroll.set_shadow_type(Gtk.ShadowType.IN)
scroll.add(view)
box.pack_start(scroll, True, True, 0)

def do_save(_b):
    json.dump({"text": buf.get_text(buf.get_start_iter(), buf.get_end_iter(), False), "saved": True}, open(p["out"], "w"), ensure_ascii=False)
    buf.set_modified(False)
buttons[p["save"]].connect("clicked", do_save)

def geometry():
    ox, oy = win.get_window().get_origin()[1:]
    def boxof(w):
        x, y = w.translate_coordinates(win, 0, 0)
        a = w.get_allocation()
        return [ox + x, oy + y, ox + x + a.width, oy + y + a.height]
    json.dump({"save": boxof(buttons[p["save"]]), "text": boxof(view)}, open(p["out"] + ".geom.json", "w"))
    return False
win.show_all()
GLib.timeout_add(600, geometry)
Gtk.main()
