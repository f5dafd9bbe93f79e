#!/usr/bin/python3
# A generated GTK 3 task app (bench/replay-gen, lab tests): a form built from parameters. A search
# entry on top, captioned fields, a greyed-out button, an empty canvas and an icon-only Save
# button. Save writes the final state as JSON to params["out"] — the oracle, which never looks at
# the screen; the window stays open, as an app's does after saving. Widget screen boxes go to params["out"] + ".geom.json" once shown, for
# the scripted person who demonstrates the task (lab ground truth, never read by the product).
import json, os, sys
from task_gtk import boxof_in, gtk_window
from gi.repository import Gtk, GLib

p = json.load(open(sys.argv[1]))
state = {"fields": {}, "search": "", "mark": None, "saved": False}
win = gtk_window(p)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8, margin=12)
win.add(box)

bar = Gtk.Box(spacing=6)
# The app's next version (RPAV_TASK_VERSION=2, the lab's AppVariant.version): an icon-only Print button before Save, which
# moves Save along the toolbar. Print only notes that it was pressed (state "printed").
if os.environ.get("RPAV_TASK_VERSION") == "2":
    printer = Gtk.Button()
    printer.set_image(Gtk.Image.new_from_icon_name("document-print", Gtk.IconSize.LARGE_TOOLBAR))
    printer.set_tooltip_text("Imprimer")
    printer.connect("clicked", lambda _b: state.update(printed=True))
    bar.pack_start(printer, False, False, 0)
save = Gtk.Button()
save.set_image(Gtk.Image.new_from_icon_name("document-save", Gtk.IconSize.LARGE_TOOLBAR))
save.set_tooltip_text("Enregistrer")
bar.pack_start(save, False, False, 0)
# Optional "dialog": {"title", "caption", "key", "open", "ok", "cancel"} — a button that opens a modal dialog with one
# captioned field; its OK keeps the field's text (saved under "dialog"), the dialog closes either way. Its boxes go to
# params["out"] + ".dialog.json" while it is shown.
d = p.get("dialog")
if d:
    opener = Gtk.Button(label=d["open"])
    bar.pack_start(opener, False, False, 0)
search = Gtk.SearchEntry()
search.set_placeholder_text("")
bar.pack_end(search, False, False, 0)
box.pack_start(bar, False, False, 0)

grid = Gtk.Grid(column_spacing=12, row_spacing=8)
entries = {}
fields = ([p["extra_field"]] if p.get("extra_field") else []) + p["fields"]
for i, f in enumerate(fields):
    lab = Gtk.Label(label=f["caption"], xalign=1)
    e = Gtk.Entry(hexpand=True)
    grid.attach(lab, 0, i, 1, 1)
    grid.attach(e, 1, i, 1, 1)
    entries[f["key"]] = e
    e.set_text(p.get("values", {}).get(f["key"], ""))  # a field already filled when the app opens
    if f["key"] in p.get("insensitive", []):
        e.set_sensitive(False)
dis = Gtk.Button(label=p.get("disabled_label", "Effacer"))
dis.set_sensitive(False)
grid.attach(dis, 2, len(fields) - 1, 1, 1)
box.pack_start(grid, False, False, 0)

canvas = Gtk.DrawingArea(hexpand=True, vexpand=True)
canvas.set_size_request(-1, 160)
canvas.add_events(1 << 8)  # button press
def draw(w, cr):
    a = w.get_allocation()
    dark = "dark" in (GLib.getenv("GTK_THEME") or "")
    v = 0.12 if dark else 1.0
    cr.set_source_rgb(v, v, v)
    cr.rectangle(0, 0, a.width, a.height)
    cr.fill()
canvas.connect("draw", draw)
def press(w, ev):
    a = w.get_allocation()
    state["mark"] = [round(ev.x / a.width, 3), round(ev.y / a.height, 3)]
canvas.connect("button-press-event", press)
frame = Gtk.Frame()
frame.add(canvas)
box.pack_start(frame, True, True, 0)

if d:
    def open_dialog(_b):
        dlg = Gtk.Dialog(title=d["title"], transient_for=win, modal=True)
        cancel = dlg.add_button(d["cancel"], Gtk.ResponseType.CANCEL)
        ok = dlg.add_button(d["ok"], Gtk.ResponseType.OK)
        row = Gtk.Box(spacing=12, margin=12)
        row.pack_start(Gtk.Label(label=d["caption"], xalign=1), False, False, 0)
        entry = Gtk.Entry(hexpand=True, width_chars=28)
        row.pack_start(entry, True, True, 0)
        dlg.get_content_area().add(row)
        def dgeom():
            if not dlg.get_window():
                return False
            boxof = boxof_in(dlg)
            json.dump({"field": boxof(entry), "ok": boxof(ok), "cancel": boxof(cancel)}, open(p["out"] + ".dialog.json", "w"))
            return False
        dlg.show_all()
        GLib.timeout_add(500, dgeom)
        r = dlg.run()
        if r == Gtk.ResponseType.OK:
            state["dialog"] = entry.get_text()
        dlg.destroy()
        if os.path.exists(p["out"] + ".dialog.json"):
            os.remove(p["out"] + ".dialog.json")
    opener.connect("clicked", open_dialog)

def do_save(_b):
    state["fields"] = {k: e.get_text() for k, e in entries.items()}
    state["search"] = search.get_text()
    state["saved"] = True
    json.dump(state, open(p["out"], "w"), ensure_ascii=False)
save.connect("clicked", do_save)

def geometry():
    boxof = boxof_in(win)
    g = {"save": boxof(save), "search": boxof(search), "canvas": boxof(canvas), "disabled": boxof(dis), "fields": {k: boxof(e) for k, e in entries.items()}}
    if d:
        g["opener"] = boxof(opener)
    json.dump(g, open(p["out"] + ".geom.json", "w"))
    return False
win.show_all()
GLib.timeout_add(600, geometry)
Gtk.main()
