"""Tk / ttk screens generated at random (python3-tk), boxes from winfo (rootx/rooty/width/height) relative to the window.

Run under an X server (Xvfb, no window manager: the window sits at 0,0); the window is captured from the root window with Gdk.
  DISPLAY=:62 python3 gen_tk.py --out DIR --start 0 --count 500 --scale 1
--scale 2 doubles Tk's scaling (fonts and sizes in points) and the window is captured as drawn. ttk themes: clam, alt, default,
classic, plus dark variants of clam; classic Tk widgets mixed in. Notebook tabs' boxes come from `identify tab` scans.
Same JSON as gen_gtk.py.
"""
import argparse, json, os, random, sys, time
import tkinter as tk
from tkinter import ttk, font as tkfont
import gi
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from texts import Texts  # noqa: E402

FONTS = ["DejaVu Sans", "Noto Sans", "Liberation Sans", "Nimbus Sans", "DejaVu Serif", "Cantarell"]
DARK = {"bg": "#2b2b2e", "fg": "#e6e6e6", "field": "#1e1e20", "sel": "#3a6ea5", "btn": "#3c3c40"}


class Builder:
    def __init__(self, rng, t, classic):
        self.rng, self.t, self.classic = rng, t, classic
        self.items = []
        self.notebooks = []

    def reg(self, w, typ, label="", state=None):
        if self.rng.random() < 0.08:
            try:
                w.state(["disabled"]) if isinstance(w, ttk.Widget) else w.configure(state="disabled")
            except tk.TclError:
                pass
        self.items.append((w, typ, label, state))
        return w

    def disabled(self, w):
        try:
            return w.instate(["disabled"]) if isinstance(w, ttk.Widget) else str(w.cget("state")) == "disabled"
        except tk.TclError:
            return False

    def button(self, p):
        label = self.t.action()
        if self.rng.random() < (0.5 if self.classic else 0.1):
            return self.reg(tk.Button(p, text=label), "button", label)
        return self.reg(ttk.Button(p, text=label), "button", label)

    def entry(self, p):
        if self.rng.random() < (0.4 if self.classic else 0.05):
            e = tk.Entry(p, width=self.rng.randint(8, 32))
        else:
            e = ttk.Entry(p, width=self.rng.randint(8, 32))
        v = self.t.value()
        e.insert(0, v)
        if self.rng.random() < 0.1:
            e.configure(show="•")
        return self.reg(e, "text_input", v)

    def spin(self, p):
        s = ttk.Spinbox(p, from_=0, to=1000, width=self.rng.randint(5, 12))
        s.set(self.rng.randint(0, 99))
        return self.reg(s, "text_input", s.get())

    def combo(self, p):
        opts = self.t.distinct(self.t.option, self.rng.randint(2, 6))
        if self.rng.random() < 0.25:
            var = tk.StringVar(value=opts[0])
            return self.reg(ttk.OptionMenu(p, var, opts[0], *opts) if self.rng.random() < 0.5 else tk.OptionMenu(p, var, *opts), "dropdown", opts[0])
        c = ttk.Combobox(p, values=opts, width=self.rng.randint(10, 28), state="readonly" if self.rng.random() < 0.5 else "normal")
        c.set(opts[0])
        return self.reg(c, "dropdown", opts[0])

    def check(self, p):
        label = self.t.option()
        var = tk.IntVar(value=int(self.rng.random() < 0.5))
        c = (tk.Checkbutton if self.rng.random() < (0.4 if self.classic else 0.05) else ttk.Checkbutton)(p, text=label, variable=var)
        c._v = var
        return self.reg(c, "checkbox", label, lambda w: {"checked": bool(w._v.get())})

    def radios(self, p):
        f = ttk.Frame(p)
        labels = self.t.distinct(self.t.option, self.rng.randint(2, 4))
        var = tk.StringVar(value=self.rng.choice(labels))
        side = self.rng.choice([tk.LEFT, tk.TOP])
        cls = tk.Radiobutton if self.rng.random() < (0.4 if self.classic else 0.05) else ttk.Radiobutton
        for l in labels:
            r = cls(f, text=l, value=l, variable=var)
            r._v, r._l = var, l
            r.pack(side=side, anchor="w", padx=self.rng.choice([0, 4, 8]))
            self.reg(r, "radio_button", l, lambda w: {"checked": w._v.get() == w._l})
        f._var = var
        return f

    def link(self, p):
        label = self.t.link()
        l = tk.Label(p, text=label, fg=self.rng.choice(["#0645ad", "#1a73e8", "#2a6ebb", "#5aa0ff"]), cursor="hand2",
                     font=(self.font[0], self.font[1], "underline"))
        return self.reg(l, "link", label)

    def scale(self, p):
        s = ttk.Scale(p, from_=0, to=100, length=self.rng.randint(100, 300))
        s.set(self.rng.randint(0, 100))
        return self.reg(s, "generic_interactive", "")

    def menubutton(self, p):
        label = self.t.menu()
        m = ttk.Menubutton(p, text=label)
        return self.reg(m, "generic_interactive", label)

    def form(self, p):
        f = ttk.Frame(p)
        for row in range(self.rng.randint(2, 6)):
            ttk.Label(f, text=self.t.field() + self.rng.choice(["", " :", ":", " *"])).grid(row=row, column=0, sticky=self.rng.choice(["w", "e"]), padx=4, pady=self.rng.choice([2, 4, 6]))
            k = self.rng.random()
            w = self.entry(f) if k < 0.55 else self.combo(f) if k < 0.8 else self.spin(f) if k < 0.9 else self.check(f)
            w.grid(row=row, column=1, sticky=self.rng.choice(["w", "ew"]), padx=4, pady=2)
            if self.rng.random() < 0.12:
                self.button(f).grid(row=row, column=2, padx=4)
        f.columnconfigure(1, weight=1)
        return f

    def toggles(self, p):
        f = ttk.Frame(p)
        side = self.rng.choice([tk.LEFT, tk.TOP])
        for _ in range(self.rng.randint(2, 5)):
            self.check(f).pack(side=side, anchor="w", padx=4, pady=1)
        return f

    def buttons_row(self, p):
        f = ttk.Frame(p)
        side = self.rng.choice([tk.LEFT, tk.RIGHT])
        for _ in range(self.rng.randint(1, 4)):
            self.button(f).pack(side=side, padx=self.rng.choice([2, 4, 8]))
        return f

    def tree(self, p):
        cols = [f"c{i}" for i in range(self.rng.randint(2, 5))]
        tv = ttk.Treeview(p, columns=cols, show="headings", height=self.rng.randint(3, 8))
        for c in cols:
            tv.heading(c, text=self.t.field())
            tv.column(c, width=self.rng.randint(80, 180))
        for _ in range(self.rng.randint(2, 8)):
            tv.insert("", "end", values=[self.rng.choice([self.t.name(), self.t.value(), self.t.option()]) for _ in cols])
        return tv

    def text(self, p):
        t = tk.Text(p, width=self.rng.randint(25, 60), height=self.rng.randint(2, 6))
        t.insert("1.0", self.t.sentence())
        return self.reg(t, "text_input", "")

    def misc_row(self, p):
        f = ttk.Frame(p)
        for _ in range(self.rng.randint(1, 4)):
            k = self.rng.random()
            w = self.link(f) if k < 0.3 else self.scale(f) if k < 0.45 else self.menubutton(f) if k < 0.55 else self.button(f) if k < 0.8 else ttk.Label(f, text=self.t.sentence())
            w.pack(side=tk.LEFT, padx=self.rng.choice([4, 8, 14]))
        return f

    def notebook(self, p):
        nb = ttk.Notebook(p)
        names = self.t.distinct(self.t.tab, self.rng.randint(2, 6))
        for n in names:
            page = ttk.Frame(nb, padding=8)
            (self.section(page, 1) if self.rng.random() < 0.7 else ttk.Label(page, text=self.t.sentence())).pack(anchor="w", fill=tk.X)
            nb.add(page, text=n)
        nb.select(self.rng.randrange(len(names)))
        self.notebooks.append((nb, names))
        return nb

    def section(self, p, depth=0):
        k = self.rng.random()
        if k < 0.3:
            return self.form(p)
        if k < 0.42:
            return self.toggles(p)
        if k < 0.52:
            return self.radios(p)
        if k < 0.6:
            return self.tree(p)
        if k < 0.66:
            return self.text(p)
        if k < 0.78 and depth == 0:
            return self.notebook(p)
        if k < 0.9:
            return self.misc_row(p)
        return self.buttons_row(p)


def tab_boxes(nb):
    """Each tab's box in the notebook's coordinates, from `identify tab` (a row scan, then a column scan per tab)."""
    W, H = nb.winfo_width(), nb.winfo_height()
    ident = lambda x, y: nb.tk.call(nb._w, "identify", "tab", x, y)
    band = None
    for y in range(0, min(H, 80)):
        if str(ident(6, y)) != "" or str(ident(20, y)) != "":
            band = y + 3
            break
    if band is None:
        return {}
    xs = {}
    for x in range(0, W):
        i = str(ident(x, band))
        if i != "":
            lo, hi = xs.get(int(i), (x, x))
            xs[int(i)] = (min(lo, x), max(hi, x))
    out = {}
    for i, (x1, x2) in xs.items():
        cx = (x1 + x2) // 2
        ys = [y for y in range(0, min(H, 90)) if str(ident(cx, y)) == str(i)]
        if ys:
            out[i] = (x1, ys[0], x2 + 1, ys[-1] + 1)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--indices", help="comma-separated screen indices to make instead of --start/--count (each seeded by its index)")
    ap.add_argument("--scale", type=int, default=1)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    root_gdk = Gdk.get_default_root_window()
    made = 0
    for i in ([int(v) for v in a.indices.split(",")] if a.indices else range(a.start, a.start + a.count)):
        sid = f"tk-s{a.scale}-{i:05d}"
        if os.path.exists(os.path.join(a.out, sid + ".json")):
            continue
        rng = random.Random(f"tk:{a.scale}:{i}")
        root = tk.Tk()
        root.tk.call("tk", "scaling", 1.333 * a.scale * rng.choice([1.0, 1.0, 1.15]))
        style = ttk.Style(root)
        theme = rng.choice(["clam", "alt", "default", "classic", "clam"])
        style.theme_use(theme)
        dark = theme == "clam" and rng.random() < 0.5
        fam, size = rng.choice(FONTS), rng.choice([9, 10, 10, 11, 12])
        for name in ["TkDefaultFont", "TkTextFont", "TkMenuFont", "TkHeadingFont"]:
            tkfont.nametofont(name).configure(family=fam, size=size)
        if dark:
            style.configure(".", background=DARK["bg"], foreground=DARK["fg"], fieldbackground=DARK["field"], selectbackground=DARK["sel"])
            style.configure("TButton", background=DARK["btn"])
            style.map("TButton", background=[("active", "#505055")])
            style.configure("TNotebook.Tab", background=DARK["btn"])
            style.map("TNotebook.Tab", background=[("selected", DARK["bg"])])
            style.configure("Treeview", background=DARK["field"], fieldbackground=DARK["field"], foreground=DARK["fg"])
            root.configure(background=DARK["bg"])
            root.option_add("*Background", DARK["bg"])
            root.option_add("*Foreground", DARK["fg"])
        t = Texts(rng)
        b = Builder(rng, t, theme == "classic" or rng.random() < 0.2)
        b.font = (fam, size)
        root.title(t.title())
        outer = ttk.Frame(root, padding=rng.choice([6, 10, 16, 24]))
        outer.pack(fill=tk.BOTH, expand=True)
        if rng.random() < 0.3:
            ttk.Label(outer, text=t.title(), font=(fam, size + 5, "bold")).pack(anchor="w", pady=(0, 8))
        for _ in range(rng.randint(2, 5)):
            b.section(outer).pack(anchor="w", fill=rng.choice([tk.X, tk.NONE]), pady=rng.choice([3, 6, 10]))
        if rng.random() < 0.6:
            b.buttons_row(outer).pack(side=tk.BOTTOM, anchor="e", pady=6)
        root.geometry("+0+0")
        root.update()
        time.sleep(0.05)
        root.update()
        W, H = root.winfo_width(), root.winfo_height()
        ox, oy = root.winfo_rootx(), root.winfo_rooty()
        els = []

        def add(typ, x1, y1, x2, y2, label, st, source):
            x1, y1, x2, y2 = max(0, x1), max(0, y1), min(W, x2), min(H, y2)
            if x2 - x1 >= 3 and y2 - y1 >= 3:
                els.append({"type": typ, "bbox": [x1, y1, x2, y2], "label": label, "state": st, "source": source})

        for w, typ, label, state in b.items:
            if not w.winfo_ismapped() or not w.winfo_viewable():
                continue
            x, y = w.winfo_rootx() - ox, w.winfo_rooty() - oy
            st = state(w) if state else {}
            if b.disabled(w):
                st["disabled"] = True
            add(typ, x, y, x + w.winfo_width(), y + w.winfo_height(), label, st, w.winfo_class())
        for nb, names in b.notebooks:
            if not nb.winfo_viewable():
                continue
            sel = nb.index(nb.select())
            bx, by = nb.winfo_rootx() - ox, nb.winfo_rooty() - oy
            for ti, (x1, y1, x2, y2) in tab_boxes(nb).items():
                add("tab", bx + x1, by + y1, bx + x2, by + y2, names[ti] if ti < len(names) else "", {"selected": ti == sel}, "TNotebook.Tab")
        pb = Gdk.pixbuf_get_from_window(root_gdk, ox, oy, W, H)
        root.destroy()
        if pb is None or not els:
            continue
        pb.savev(os.path.join(a.out, sid + ".png"), "png", [], [])
        meta = {"id": sid, "family": "tk", "subfamily": theme + (":dark" if dark else ""), "variant": {"theme": theme, "dark": dark, "scale": a.scale, "font": f"{fam} {size}", "lang": "fr" if t.fr else "en"},
                "width": W, "height": H, "image": sid + ".png", "elements": els}
        with open(os.path.join(a.out, sid + ".json"), "w") as f:
            json.dump(meta, f, ensure_ascii=False)
        made += 1
        print(f"{sid} {len(els)} elements {W}x{H} {theme}{':dark' if dark else ''}", flush=True)
    print(f"done: {made} new", flush=True)


if __name__ == "__main__":
    main()
