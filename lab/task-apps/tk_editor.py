#!/usr/bin/python3
# A generated Tk editor task app: the editor of gtk_editor.py (a toolbar of text buttons over a text
# area holding a few lines; « * » before the title once modified; « Enregistrer » writes {"text",
# "saved"} to params["out"], the oracle). The lab's variants are read as a Tk app can follow them:
# GTK_THEME=…:dark → a dark palette, GDK_SCALE → tk scaling, GDK_DPI_SCALE → larger fonts.
import json, os, sys, tkinter as tk
from tkinter import font as tkfont

p = json.load(open(sys.argv[1]))
scale = float(os.environ.get("GDK_SCALE", "1"))
text_scale = float(os.environ.get("GDK_DPI_SCALE", "1"))
dark = "dark" in os.environ.get("GTK_THEME", "")
bg, fg, field_bg = ("#2b2b2b", "#eeeeee", "#1f1f1f") if dark else ("#ececec", "#111111", "#ffffff")

root = tk.Tk(className=p.get("class", "TaskEditor"))
root.title(p["title"])
root.tk.call("tk", "scaling", 1.333 * scale)
for name in ("TkDefaultFont", "TkTextFont", "TkFixedFont"):
    tkfont.nametofont(name).configure(size=int(round(10 * text_scale)))
root.configure(bg=bg)
root.geometry(f"{int(p.get('width', 560) * scale)}x{int(p.get('height', 460) * scale)}")
bar = tk.Frame(root, bg=bg)
bar.pack(fill="x", padx=int(8 * scale), pady=int(6 * scale))
buttons = {}
for label in p["buttons"]:
    b = tk.Button(bar, text=label, bg=bg, fg=fg, activebackground=bg)
    b.pack(side="left", padx=(0, int(6 * scale)))
    buttons[label] = b
text = tk.Text(root, wrap="word", bg=field_bg, fg=fg, insertbackground=fg, font="TkTextFont", padx=int(6 * scale), pady=int(4 * scale))
text.pack(fill="both", expand=True, padx=int(8 * scale), pady=(0, int(8 * scale)))
text.insert("1.0", "\n".join(p["lines"]))
text.edit_modified(False)
def modified(_e):
    root.title(("*" if text.edit_modified() else "") + p["title"])
text.bind("<<Modified>>", modified)

def do_save():
    json.dump({"text": text.get("1.0", "end-1c"), "saved": True}, open(p["out"], "w"), ensure_ascii=False)
    text.edit_modified(False)
buttons[p["save"]].configure(command=do_save)

def boxof(w):
    x, y = w.winfo_rootx(), w.winfo_rooty()
    return [x, y, x + w.winfo_width(), y + w.winfo_height()]
root.after(600, lambda: json.dump({"save": boxof(buttons[p["save"]]), "text": boxof(text)}, open(p["out"] + ".geom.json", "w")))
root.mainloop()
