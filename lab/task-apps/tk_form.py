#!/usr/bin/python3
# A generated Tk task app: the same form as gtk_form.py (search entry, captioned fields, a greyed-out
# button, an empty canvas, an icon-only Save button), from the same parameters. The lab's variants
# are read as a Tk app can follow them: GTK_THEME=…:dark → a dark palette, GDK_SCALE → tk scaling,
# GDK_DPI_SCALE → larger fonts. Save writes the state JSON to params["out"] (the oracle); the window stays open.
import json, os, sys, tkinter as tk
from task_tk import boxof, tk_root

p = json.load(open(sys.argv[1]))
state = {"fields": {}, "search": "", "mark": None, "saved": False}
root, scale, (bg, fg, field_bg), dark = tk_root(p, "TaskForm")

bar = tk.Frame(root, bg=bg)
bar.pack(fill="x", padx=int(12 * scale), pady=int(8 * scale))
# An icon-only Save button: a floppy drawn in a small image (no text).
n = int(22 * scale)
icon = tk.PhotoImage(width=n, height=n)
icon.put(fg, to=(2, 2, n - 2, n - 2))
icon.put(field_bg, to=(int(n * 0.28), 3, int(n * 0.72), int(n * 0.38)))
icon.put(field_bg, to=(int(n * 0.22), int(n * 0.55), int(n * 0.78), n - 3))
save = tk.Button(bar, image=icon, bg=bg, activebackground=bg, relief="raised")
save.pack(side="left")
# Optional "dialog": a button opening a modal dialog with one captioned field (as gtk_form.py).
d = p.get("dialog")
if d:
    opener = tk.Button(bar, text=d["open"], bg=bg, fg=fg, activebackground=bg)
    opener.pack(side="left", padx=int(6 * scale))
search = tk.Entry(bar, width=18, bg=field_bg, fg=fg, insertbackground=fg)
search.pack(side="right")

grid = tk.Frame(root, bg=bg)
grid.pack(fill="x", padx=int(12 * scale))
entries = {}
fields = ([p["extra_field"]] if p.get("extra_field") else []) + p["fields"]
for i, f in enumerate(fields):
    tk.Label(grid, text=f["caption"], bg=bg, fg=fg, anchor="e").grid(row=i, column=0, sticky="e", padx=int(6 * scale), pady=int(4 * scale))
    e = tk.Entry(grid, bg=field_bg, fg=fg, insertbackground=fg)
    e.grid(row=i, column=1, sticky="we", pady=int(4 * scale))
    entries[f["key"]] = e
    if f["key"] in p.get("insensitive", []):
        e.configure(state="disabled")
grid.columnconfigure(1, weight=1)
dis = tk.Button(grid, text=p.get("disabled_label", "Effacer"), state="disabled", bg=bg)
dis.grid(row=len(fields) - 1, column=2, padx=int(6 * scale))

canvas = tk.Canvas(root, bg="#1f1f1f" if dark else "#ffffff", highlightthickness=1, highlightbackground="#888888")
canvas.pack(fill="both", expand=True, padx=int(12 * scale), pady=int(10 * scale))
def press(ev):
    state["mark"] = [round(ev.x / canvas.winfo_width(), 3), round(ev.y / canvas.winfo_height(), 3)]
canvas.bind("<Button-1>", press)

if d:
    def open_dialog():
        dlg = tk.Toplevel(root, bg=bg)
        dlg.title(d["title"])
        dlg.transient(root)
        row = tk.Frame(dlg, bg=bg)
        row.pack(fill="x", padx=int(12 * scale), pady=int(12 * scale))
        tk.Label(row, text=d["caption"], bg=bg, fg=fg).pack(side="left", padx=int(6 * scale))
        entry = tk.Entry(row, width=28, bg=field_bg, fg=fg, insertbackground=fg)
        entry.pack(side="left", fill="x", expand=True)
        buttons = tk.Frame(dlg, bg=bg)
        buttons.pack(fill="x", padx=int(12 * scale), pady=int(8 * scale))
        def close(keep):
            if keep:
                state["dialog"] = entry.get()
            if os.path.exists(p["out"] + ".dialog.json"):
                os.remove(p["out"] + ".dialog.json")
            dlg.destroy()
        ok = tk.Button(buttons, text=d["ok"], command=lambda: close(True), bg=bg, fg=fg)
        ok.pack(side="right")
        cancel = tk.Button(buttons, text=d["cancel"], command=lambda: close(False), bg=bg, fg=fg)
        cancel.pack(side="right", padx=int(6 * scale))
        dlg.protocol("WM_DELETE_WINDOW", lambda: close(False))
        dlg.wait_visibility()
        dlg.grab_set()
        def dgeom():
            if dlg.winfo_exists():
                json.dump({"field": boxof(entry), "ok": boxof(ok), "cancel": boxof(cancel)}, open(p["out"] + ".dialog.json", "w"))
        dlg.after(500, dgeom)
    opener.configure(command=open_dialog)

def do_save():
    state["fields"] = {k: e.get() for k, e in entries.items()}
    state["search"] = search.get()
    state["saved"] = True
    json.dump(state, open(p["out"], "w"), ensure_ascii=False)
save.configure(command=do_save)

def geometry():
    g = {"save": boxof(save), "search": boxof(search), "canvas": boxof(canvas), "disabled": boxof(dis), "fields": {k: boxof(e) for k, e in entries.items()}}
    if d:
        g["opener"] = boxof(opener)
    json.dump(g, open(p["out"] + ".geom.json", "w"))
root.after(600, geometry)
root.mainloop()
