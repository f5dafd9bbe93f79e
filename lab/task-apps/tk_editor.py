#!/usr/bin/python3
# A generated Tk editor task app: the editor of gtk_editor.py (a toolbar of text buttons over a text
# area holding a few lines; « * » before the title once modified; « Enregistrer » writes {"text",
# "saved"} to params["out"], the oracle). The lab's variants are read as a Tk app can follow them:
# GTK_THEME=…:dark → a dark palette, GDK_SCALE → tk scaling, GDK_DPI_SCALE → larger fonts.
import json, sys, tkinter as tk
from task_tk import boxof, tk_root

p = json.load(open(sys.argv[1]))
root, scale, (bg, fg, field_bg), dark = tk_root(p, "TaskEditor", ("TkDefaultFont", "TkTextFont", "TkFixedFont"))
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

root.after(600, lambda: json.dump({"save": boxof(buttons[p["save"]]), "text": boxof(text)}, open(p["out"] + ".geom.json", "w")))
root.mainloop()
