#!/usr/bin/python3
# A generated GTK 3 editor task app (bench/replay-gen, lab tests): a toolbar of text buttons over a
# text area holding a few lines of a document. The window's title takes a leading « * » once the
# text is modified, as editors show it. « Enregistrer » (params["save"]) writes {"text", "saved"} as
# JSON to params["out"] — the oracle, which never looks at the screen; the window stays open.
# Widget screen boxes go to params["out"] + ".geom.json" once shown, for the scripted person (lab
# ground truth, never read by the product). Variants: GTK follows GTK_THEME / GDK_SCALE / GDK_DPI_SCALE.
import json, os, sys
from task_gtk import boxof_in, gtk_window
from gi.repository import Gtk, GLib

p = json.load(open(sys.argv[1]))
win = gtk_window(p)
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
    boxof = boxof_in(win)
    json.dump({"save": boxof(buttons[p["save"]]), "text": boxof(view)}, open(p["out"] + ".geom.json", "w"))
    return False
win.show_all()
GLib.timeout_add(600, geometry)
Gtk.main()
