#!/usr/bin/python3
# A generated Tk list task app: the list task of gtk_list.py (a captioned list, a captioned field and an
# action button writing {"selected", "motif", "saved"} to params["out"], the oracle). The lab's variants
# are read as a Tk app can follow them: GTK_THEME=…:dark → a dark palette, GDK_SCALE → tk scaling,
# GDK_DPI_SCALE → larger fonts.
import json, sys, tkinter as tk
from task_tk import boxof, tk_root

p = json.load(open(sys.argv[1]))
root, scale, (bg, fg, field_bg), dark = tk_root(p, "TaskList")
pad = int(12 * scale)
tk.Label(root, text=p["list_caption"], bg=bg, fg=fg, anchor="w").pack(fill="x", padx=pad, pady=(pad, int(4 * scale)))
lst = tk.Listbox(root, bg=field_bg, fg=fg, selectmode="browse", exportselection=False, activestyle="none", font="TkDefaultFont")
for item in p["items"]:
    lst.insert("end", item)
lst.pack(fill="both", expand=True, padx=pad)
line = tk.Frame(root, bg=bg)
line.pack(fill="x", padx=pad, pady=pad)
tk.Label(line, text=p["field_caption"], bg=bg, fg=fg).pack(side="left", padx=(0, int(8 * scale)))
entry = tk.Entry(line, bg=field_bg, fg=fg, insertbackground=fg)
entry.pack(side="left", fill="x", expand=True)
action = tk.Button(line, text=p["action"], bg=bg, fg=fg, activebackground=bg)
action.pack(side="left", padx=(int(8 * scale), 0))

def do_action():
    sel = lst.curselection()
    json.dump({"selected": lst.get(sel[0]) if sel else None, "motif": entry.get(), "saved": True}, open(p["out"], "w"), ensure_ascii=False)
action.configure(command=do_action)

def geometry():
    ox, oy = lst.winfo_rootx(), lst.winfo_rooty()
    items = {}
    for i, item in enumerate(p["items"]):
        b = lst.bbox(i)
        if b:
            items[item] = [ox, oy + b[1], ox + lst.winfo_width(), oy + b[1] + b[3]]
    json.dump({"items": items, "field": boxof(entry), "action": boxof(action)}, open(p["out"] + ".geom.json", "w"))
root.after(600, geometry)
root.mainloop()
