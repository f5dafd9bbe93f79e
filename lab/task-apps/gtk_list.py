#!/usr/bin/python3
# A generated GTK 3 list task app (bench/replay-gen, lab tests): a captioned list of items, a captioned
# field and an action button. The button writes {"selected", "motif", "saved"} as JSON to params["out"]
# — the oracle, which never looks at the screen; the window stays open. Widget screen boxes (each
# item's row among them) go to params["out"] + ".geom.json" once shown, for the scripted person (lab
# ground truth, never read by the product). Variants: GTK follows GTK_THEME / GDK_SCALE / GDK_DPI_SCALE.
import json, os, sys
from task_gtk import boxof_in, gtk_window
from gi.repository import Gtk, GLib

p = json.load(open(sys.argv[1]))
win = gtk_window(p)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8, margin=12)
win.add(box)
box.pack_start(Gtk.Label(label=p["list_caption"], xalign=0), False, False, 0)
lst = Gtk.ListBox()
lst.set_selection_mode(Gtk.SelectionMode.SINGLE)
rows = {}
for item in p["items"]:
    row = Gtk.ListBoxRow()
    row.add(Gtk.Label(label=item, xalign=0, margin=6))
    lst.add(row)
    rows[item] = row
scroll = Gtk.ScrolledWindow(vexpand=True)
scroll.set_shadow_type(Gtk.ShadowType.IN)
scroll.add(lst)
box.pack_start(scroll, True, True, 0)
line = Gtk.Box(spacing=12)
line.pack_start(Gtk.Label(label=p["field_caption"]), False, False, 0)
entry = Gtk.Entry(hexpand=True)
line.pack_start(entry, True, True, 0)
action = Gtk.Button(label=p["action"])
line.pack_start(action, False, False, 0)
box.pack_start(line, False, False, 0)

def do_action(_b):
    r = lst.get_selected_row()
    json.dump({"selected": r.get_child().get_label() if r else None, "motif": entry.get_text(), "saved": True}, open(p["out"], "w"), ensure_ascii=False)
action.connect("clicked", do_action)

def geometry():
    boxof = boxof_in(win)
    json.dump({"items": {k: boxof(r) for k, r in rows.items()}, "field": boxof(entry), "action": boxof(action)}, open(p["out"] + ".geom.json", "w"))
    return False
win.show_all()
GLib.timeout_add(600, geometry)
Gtk.main()
