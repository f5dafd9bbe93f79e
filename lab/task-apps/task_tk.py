# Shared set-up of the generated Tk task apps (tk_form.py, tk_editor.py, tk_list.py). The lab's variants are read as a
# Tk app can follow them: GTK_THEME=…:dark → a dark palette, GDK_SCALE → tk scaling, GDK_DPI_SCALE → larger fonts.
import os
import tkinter as tk
from tkinter import font as tkfont


def tk_root(p, default_class, fonts=("TkDefaultFont", "TkTextFont")):
    """The root window (title, size and palette set), the UI scale and the colours: (root, scale, (bg, fg, field_bg), dark)."""
    scale = float(os.environ.get("GDK_SCALE", "1"))
    text_scale = float(os.environ.get("GDK_DPI_SCALE", "1"))
    dark = "dark" in os.environ.get("GTK_THEME", "")
    colours = ("#2b2b2b", "#eeeeee", "#3c3c3c") if dark else ("#ececec", "#111111", "#ffffff")
    root = tk.Tk(className=p.get("class", default_class))
    root.title(p["title"])
    root.tk.call("tk", "scaling", 1.333 * scale)
    for name in fonts:
        tkfont.nametofont(name).configure(size=int(round(10 * text_scale)))
    root.configure(bg=colours[0])
    root.geometry(f"{int(p.get('width', 560) * scale)}x{int(p.get('height', 460) * scale)}")
    return root, scale, colours, dark


def boxof(w):
    """A widget's screen box (lab ground truth)."""
    x, y = w.winfo_rootx(), w.winfo_rooty()
    return [x, y, x + w.winfo_width(), y + w.winfo_height()]
