#!/usr/bin/python3
# A generated Tk list task app: the list task of gtk_list.py (a captioned list, a captioned field and an
# action button writing {"selected", "motif", "saved"} to params["out"], the oracle). The lab's variants
# are read as a Tk app can follow them: GTK_THEME=…:dark → a dark palette, GDK_SCALE → tk scaling,
# GDK_DPI_SCALE → larger fonts.
import json, os, sys, tkinter as tk
from tkinter import font as tkfont

p = json.load(open(sys.argv[1]))
scale = float(os.environ.get("GDK_SCALE", "1"))
text_scale = float(os.environ.get("GDK_DPI_SCALE", "1"))
dark = "dark" in os.environ.get("GTK_THEME", "")
bg, fg, field_bg = ("#2b2b2b", "#eeeeee", "#3c3c3c") if dark else ("#ececec", "#111111", "#ffffff")

root = tk.Tk(className=p.get("class", "TaskList"))
root.title(p["title"])
root.tk.call("tk", "scaling", 1.333 * scale)
for name in ("TkDefaultFont", "TkTextFont"):
    tkfont.nametofont(name).configure(size=int(round(10 * text_scale)))
root.configure(bg=bg)
root.geometry(f"{int(p.get('width', 560) * scale)}x{int(p.get('height', 460) * scale)}")
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

def boxof(w):
    x, y = w.winfo_rootx(), w.winfo_rooty()
    return [x, y, x + w.winfo_width(), y + w.winfo_height()]
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
