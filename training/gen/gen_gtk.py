"""GTK 3 screens generated at random, with pixel-exact element boxes from the widgets' own allocations.

Run under an X server (Xvfb) with /usr/bin/python3 (python3-gi, gir1.2-gtk-3.0):
  GDK_SCALE=1 python3 gen_gtk.py --out DIR --start 0 --count 500 --scale 1
Each screen i (seeded by i, so a rerun skips what exists and regenerates the same) gives DIR/gtk-s<scale>-<i>.png and .json:
{ family, subfamily, variant, width, height, image, elements: [{ type, bbox [x1,y1,x2,y2] in image pixels, label, state, source }] }.
Types follow the AT-SPI role table of src/lab/atspi.ts (toggle button → button, spin button → text_input, menu item and slider
→ generic_interactive); a switch is a checkbox (as the DOM's role=switch). Notebook tabs are not widgets: their box is the tab
page's accessible extents (what AT-SPI reports).
"""
import argparse, json, os, random, sys, time
import gi
gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
gi.require_version("Atk", "1.0")
from gi.repository import Gtk, Gdk, GLib, Atk  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from texts import Texts  # noqa: E402

THEMES = [("Adwaita", False), ("Adwaita", True), ("HighContrast", False), ("HighContrastInverse", False),
          ("Arc", False), ("Arc-Dark", False), ("Numix", False), ("Materia", False), ("Materia-dark", False),
          ("Greybird", False), ("Breeze", False), ("Breeze-Dark", False), ("Adwaita", False), ("Adwaita", True)]
FONTS = ["DejaVu Sans", "Cantarell", "Noto Sans", "Liberation Sans", "Nimbus Sans", "DejaVu Serif", "Noto Serif"]
ICONS = ["document-save", "document-open", "edit-delete", "edit-copy", "edit-paste", "list-add", "list-remove", "go-previous",
         "go-next", "view-refresh", "document-print", "edit-find", "preferences-system", "mail-send", "help-about", "edit-undo",
         "edit-redo", "format-text-bold", "zoom-in", "media-playback-start", "document-new", "window-close", "open-menu"]


def available_themes():
    names = set(["Adwaita", "HighContrast", "HighContrastInverse"])
    for d in ["/usr/share/themes", os.path.expanduser("~/.themes")]:
        if os.path.isdir(d):
            for t in os.listdir(d):
                if os.path.isdir(os.path.join(d, t, "gtk-3.0")):
                    names.add(t)
    return [t for t in THEMES if t[0] in names]


class Builder:
    def __init__(self, rng, texts):
        self.rng, self.t = rng, texts
        self.items = []  # (widget, type, label, state_fn)
        self.notebooks = []

    def reg(self, w, typ, label="", state=None):
        if self.rng.random() < 0.08 and typ != "tab":
            w.set_sensitive(False)
        self.items.append((w, typ, label, state))
        return w

    def button(self):
        r = self.rng.random()
        if r < 0.15:
            b = Gtk.Button.new_from_icon_name(self.rng.choice(ICONS), Gtk.IconSize.BUTTON)
            return self.reg(b, "button", "")
        label = self.t.action()
        b = Gtk.Button(label=label)
        if r < 0.3:
            b.set_image(Gtk.Image.new_from_icon_name(self.rng.choice(ICONS), Gtk.IconSize.BUTTON))
            b.set_always_show_image(True)
        if self.rng.random() < 0.2:
            b.get_style_context().add_class(self.rng.choice(["suggested-action", "destructive-action", "flat"]))
        return self.reg(b, "button", label)

    def toggle(self):
        label = self.t.action()
        b = Gtk.ToggleButton(label=label)
        b.set_active(self.rng.random() < 0.5)
        return self.reg(b, "button", label, lambda w: {"checked": w.get_active()})

    def entry(self):
        e = Gtk.Entry()
        if self.rng.random() < 0.5:
            e.set_text(self.t.value())
        else:
            e.set_placeholder_text(self.t.field())
        if self.rng.random() < 0.15:
            e.set_visibility(False)
            e.set_text("secret123")
        e.set_width_chars(self.rng.randint(8, 30))
        return self.reg(e, "text_input", e.get_text())

    def spin(self):
        s = Gtk.SpinButton.new_with_range(0, 1000, 1)
        s.set_value(self.rng.randint(0, 99))
        return self.reg(s, "text_input", str(int(s.get_value())))

    def combo(self):
        if self.rng.random() < 0.3:
            c = Gtk.ComboBoxText.new_with_entry()
        else:
            c = Gtk.ComboBoxText()
        opts = self.t.distinct(self.t.option, self.rng.randint(2, 6))
        for o in opts:
            c.append_text(o)
        c.set_active(0)
        return self.reg(c, "dropdown", opts[0])

    def check(self):
        label = self.t.option()
        c = Gtk.CheckButton(label=label)
        c.set_active(self.rng.random() < 0.5)
        return self.reg(c, "checkbox", label, lambda w: {"checked": w.get_active()})

    def switch(self):
        s = Gtk.Switch()
        s.set_active(self.rng.random() < 0.5)
        s.set_valign(Gtk.Align.CENTER)
        return self.reg(s, "checkbox", "", lambda w: {"checked": w.get_active()})

    def radios(self, horizontal):
        box = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL if horizontal else Gtk.Orientation.VERTICAL, spacing=self.rng.choice([4, 8, 12]))
        first = None
        labels = self.t.distinct(self.t.option, self.rng.randint(2, 4))
        on = self.rng.randrange(len(labels))
        for i, l in enumerate(labels):
            r = Gtk.RadioButton.new_with_label_from_widget(first, l)
            first = first or r
            box.pack_start(self.reg(r, "radio_button", l, lambda w: {"checked": w.get_active()}), False, False, 0)
        box.get_children()[on].set_active(True)
        return box

    def link(self):
        label = self.t.link()
        return self.reg(Gtk.LinkButton.new_with_label("https://example.org/", label), "link", label)

    def scale(self):
        s = Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 100, 1)
        s.set_value(self.rng.randint(0, 100))
        s.set_draw_value(self.rng.random() < 0.5)
        s.set_size_request(self.rng.randint(120, 300), -1)
        return self.reg(s, "generic_interactive", "")

    def caption(self, text=None):
        l = Gtk.Label(label=text or self.t.field() + self.rng.choice(["", " :", ":", " *"]))
        l.set_xalign(self.rng.choice([0.0, 1.0]))
        return l

    def form(self):
        g = Gtk.Grid(column_spacing=self.rng.choice([6, 10, 16]), row_spacing=self.rng.choice([4, 6, 10]))
        for row in range(self.rng.randint(2, 6)):
            g.attach(self.caption(), 0, row, 1, 1)
            kind = self.rng.random()
            w = self.entry() if kind < 0.5 else self.combo() if kind < 0.7 else self.spin() if kind < 0.8 else self.switch() if kind < 0.9 else self.check()
            w.set_hexpand(self.rng.random() < 0.6)
            g.attach(w, 1, row, 1, 1)
            if self.rng.random() < 0.15:
                g.attach(self.button(), 2, row, 1, 1)
        return g

    def toggles(self):
        box = Gtk.Box(orientation=self.rng.choice([Gtk.Orientation.HORIZONTAL, Gtk.Orientation.VERTICAL]), spacing=self.rng.choice([4, 8, 14]))
        for _ in range(self.rng.randint(2, 5)):
            box.pack_start(self.check() if self.rng.random() < 0.8 else self.switch(), False, False, 0)
        return box

    def buttons_row(self):
        box = Gtk.ButtonBox(orientation=Gtk.Orientation.HORIZONTAL)
        box.set_layout(self.rng.choice([Gtk.ButtonBoxStyle.END, Gtk.ButtonBoxStyle.START, Gtk.ButtonBoxStyle.EXPAND, Gtk.ButtonBoxStyle.SPREAD]))
        box.set_spacing(self.rng.choice([4, 6, 12]))
        for _ in range(self.rng.randint(1, 4)):
            box.add(self.button() if self.rng.random() < 0.85 else self.toggle())
        return box

    def tree(self):
        cols = self.rng.randint(2, 5)
        store = Gtk.ListStore(*([str] * cols))
        for _ in range(self.rng.randint(2, 7)):
            store.append([self.rng.choice([self.t.name(), self.t.value(), self.t.option()]) for _ in range(cols)])
        tv = Gtk.TreeView(model=store)
        for i in range(cols):
            tv.append_column(Gtk.TreeViewColumn(self.t.field(), Gtk.CellRendererText(), text=i))
        return tv

    def textview(self):
        tv = Gtk.TextView()
        tv.get_buffer().set_text(self.t.sentence())
        tv.set_size_request(self.rng.randint(200, 400), self.rng.randint(50, 110))
        fr = Gtk.Frame()
        fr.add(tv)
        self.reg(tv, "text_input", "")
        return fr

    def misc_row(self):
        box = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=self.rng.choice([6, 12, 20]))
        for _ in range(self.rng.randint(1, 4)):
            k = self.rng.random()
            w = self.link() if k < 0.35 else self.scale() if k < 0.55 else self.button() if k < 0.8 else Gtk.Label(label=self.t.sentence())
            box.pack_start(w, False, False, 0)
        return box

    def section(self, depth=0):
        k = self.rng.random()
        if k < 0.3:
            return self.form()
        if k < 0.42:
            return self.toggles()
        if k < 0.52:
            return self.radios(self.rng.random() < 0.5)
        if k < 0.62:
            return self.tree()
        if k < 0.7:
            return self.textview()
        if k < 0.8 and depth == 0:
            return self.notebook()
        if k < 0.9:
            return self.misc_row()
        return self.buttons_row()

    def notebook(self):
        nb = Gtk.Notebook()
        nb.set_tab_pos(self.rng.choice([Gtk.PositionType.TOP] * 4 + [Gtk.PositionType.LEFT, Gtk.PositionType.BOTTOM]))
        names = self.t.distinct(self.t.tab, self.rng.randint(2, 6))
        for n in names:
            page = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8, margin=10)
            page.pack_start(self.section(1) if self.rng.random() < 0.7 else Gtk.Label(label=self.t.sentence()), False, False, 0)
            nb.append_page(page, Gtk.Label(label=n))
        self.notebooks.append((nb, names))
        return nb

    def menubar(self):
        mb = Gtk.MenuBar()
        for n in self.t.distinct(self.t.menu, self.rng.randint(2, 7)):
            mi = Gtk.MenuItem(label=n)
            sub = Gtk.Menu()
            sub.append(Gtk.MenuItem(label=self.t.action()))
            mi.set_submenu(sub)
            mb.append(self.reg(mi, "generic_interactive", n))
        return mb

    def toolbar(self):
        tb = Gtk.Toolbar()
        tb.set_style(self.rng.choice([Gtk.ToolbarStyle.ICONS, Gtk.ToolbarStyle.BOTH, Gtk.ToolbarStyle.BOTH_HORIZ]))
        for _ in range(self.rng.randint(3, 8)):
            if self.rng.random() < 0.15:
                tb.insert(Gtk.SeparatorToolItem(), -1)
                continue
            label = self.t.action()
            b = Gtk.ToolButton(icon_widget=Gtk.Image.new_from_icon_name(self.rng.choice(ICONS), Gtk.IconSize.LARGE_TOOLBAR), label=label)
            b.set_is_important(True)
            tb.insert(b, -1)
            self.reg(b, "button", label if tb.get_style() != Gtk.ToolbarStyle.ICONS else "")
        return tb


def build_window(rng, texts):
    b = Builder(rng, texts)
    dialog = rng.random() < 0.2
    win = Gtk.Dialog() if dialog else Gtk.Window()
    win.set_title(texts.title())
    outer = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=0)
    if not dialog and rng.random() < 0.4:
        outer.pack_start(b.menubar(), False, False, 0)
    if not dialog and rng.random() < 0.35:
        outer.pack_start(b.toolbar(), False, False, 0)
    if rng.random() < 0.3:
        hb = Gtk.HeaderBar(title=win.get_title(), show_close_button=rng.random() < 0.5)
        for _ in range(rng.randint(0, 2)):
            hb.pack_start(b.button())
        if rng.random() < 0.5:
            hb.pack_end(b.button())
        win.set_titlebar(hb)
    body = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=rng.choice([6, 10, 16, 24]), margin=rng.choice([6, 12, 18, 24]))
    if rng.random() < 0.3:
        h = Gtk.Label()
        h.set_markup(f"<b><big>{GLib.markup_escape_text(texts.title())}</big></b>")
        h.set_xalign(0)
        body.pack_start(h, False, False, 0)
    cols = rng.random() < 0.3
    holder = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=24) if cols else body
    n = rng.randint(2, 5)
    for _ in range(n):
        holder.pack_start(b.section(), False, False, 0)
    if cols:
        body.pack_start(holder, False, False, 0)
    if rng.random() < 0.6 and not dialog:
        body.pack_end(b.buttons_row(), False, False, 0)
    outer.pack_start(body, True, True, 0)
    if dialog:
        win.get_content_area().pack_start(outer, True, True, 0)
        for _ in range(rng.randint(1, 3)):
            label = texts.action()
            b.reg(win.add_button(label, Gtk.ResponseType.OK), "button", label)
    else:
        win.add(outer)
    win.set_default_size(rng.randint(420, 1100), rng.randint(300, 800))
    return win, b


def pump(seconds):
    end = time.time() + seconds
    while time.time() < end:
        while Gtk.events_pending():
            Gtk.main_iteration_do(False)
        time.sleep(0.01)


def collect(win, b, scale):
    gw = win.get_window()
    W, H = gw.get_width(), gw.get_height()
    els = []

    def add(typ, x, y, w, h, label, state, source):
        x1, y1, x2, y2 = max(0, x), max(0, y), min(W, x + w), min(H, y + h)
        if x2 - x1 < 3 or y2 - y1 < 3:
            return
        els.append({"type": typ, "bbox": [x1 * scale, y1 * scale, x2 * scale, y2 * scale], "label": label, "state": state, "source": source})

    known = set(id(w) for w, *_ in b.items)

    def internal_buttons(w, inside):
        # Buttons the toolkit adds itself (a header bar's window controls): buttons on screen all the same.
        if isinstance(w, Gtk.TreeView) or isinstance(w, Gtk.ComboBox):
            return
        mine = id(w) in known
        if isinstance(w, Gtk.Button) and not inside and not mine:
            lab = w.get_label() or ""
            b.items.append((w, "button", lab, None))
        if isinstance(w, Gtk.Container):
            w.forall(lambda c: internal_buttons(c, inside or mine or isinstance(w, Gtk.Button)))
    internal_buttons(win, False)
    for w, typ, label, state in b.items:
        if not w.is_drawable() or not w.get_mapped():
            continue
        a = w.get_allocation()
        pos = w.translate_coordinates(win, 0, 0)
        if pos is None:
            continue
        # translate_coordinates is relative to the toplevel widget; its GdkWindow origin may differ (CSD margins).
        ox, oy = win.translate_coordinates(win, 0, 0) or (0, 0)
        x, y = pos[0] + ox, pos[1] + oy
        st = state(w) if state else {}
        if not w.get_sensitive() or not w.is_sensitive():
            st["disabled"] = True
        width = a.width
        if isinstance(w, Gtk.CheckButton) and w.get_direction() != Gtk.TextDirection.RTL:
            width = min(width, w.get_preferred_width()[1])  # indicator and caption, not the grid's stretch
        add(typ, x, y, width, a.height, label, st, type(w).__name__)
    for nb, names in b.notebooks:
        if not nb.get_mapped():
            continue
        acc = nb.get_accessible()
        cur = nb.get_current_page()
        for i in range(acc.get_n_accessible_children()):
            ch = acc.ref_accessible_child(i)
            if ch is None or ch.get_role() != Atk.Role.PAGE_TAB:
                continue
            ex, ey, ew, eh = ch.get_extents(Atk.CoordType.WINDOW)
            add("tab", ex, ey, ew, eh, names[i] if i < len(names) else "", {"selected": i == cur}, "GtkNotebookPage")
    return W, H, els


# The AT-SPI role table of src/lab/atspi.ts (the dev corpus's ground truth), for --atspi-check.
ROLE_TYPES = {"push button": "button", "toggle button": "button", "check box": "checkbox", "check menu item": "checkbox",
              "radio button": "radio_button", "radio menu item": "radio_button", "page tab": "tab", "combo box": "dropdown",
              "text": "text_input", "entry": "text_input", "password text": "text_input", "spin button": "text_input", "link": "link",
              "menu": "generic_interactive", "menu item": "generic_interactive", "slider": "generic_interactive"}


def box_iou(a, b):
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - ix * iy
    return ix * iy / u if u > 0 else 0.0


def atspi_check(win, els, scale):
    """Compares this window's boxes with what AT-SPI reports for it (lab/atspi-dump.py, run while this process keeps
    answering the accessibility bus). Returns per element the best IoU with an AT-SPI node of the same type."""
    import subprocess
    dump = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lab", "atspi-dump.py")
    p = subprocess.Popen([sys.executable, dump, "--pid", str(os.getpid()), "--scale", str(scale)], stdout=subprocess.PIPE, text=True)
    out = []
    while p.poll() is None:
        pump(0.02)
    nodes = json.loads(p.stdout.read())["nodes"]
    ox, oy = win.get_window().get_origin()[1:]
    theirs = [(ROLE_TYPES[n["role"]], [n["bbox"][0] - ox * scale, n["bbox"][1] - oy * scale, n["bbox"][2] - ox * scale, n["bbox"][3] - oy * scale])
              for n in nodes if n["role"] in ROLE_TYPES and "showing" in n["states"]]
    for e in els:
        best = max([box_iou(e["bbox"], b) for t, b in theirs if t == e["type"]] or [0.0])
        out.append({"type": e["type"], "source": e["source"], "iou": round(best, 3)})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--indices", help="comma-separated screen indices to make instead of --start/--count (each seeded by its index)")
    ap.add_argument("--scale", type=int, default=int(os.environ.get("GDK_SCALE", "1")))
    ap.add_argument("--atspi-check", metavar="REPORT.json", help="write no screens: compare each screen's boxes with AT-SPI's (needs the lab's session and accessibility buses)")
    a = ap.parse_args()
    checks = []
    os.makedirs(a.out, exist_ok=True)
    themes = available_themes()
    settings = Gtk.Settings.get_default()
    made = 0
    for i in ([int(v) for v in a.indices.split(",")] if a.indices else range(a.start, a.start + a.count)):
        sid = f"gtk-s{a.scale}-{i:05d}"
        if os.path.exists(os.path.join(a.out, sid + ".json")):
            continue
        rng = random.Random(f"gtk:{a.scale}:{i}")
        theme, dark = rng.choice(themes)
        font = f"{rng.choice(FONTS)} {rng.choice([9, 10, 10, 11, 12, 13])}"
        settings.set_property("gtk-theme-name", theme)
        settings.set_property("gtk-application-prefer-dark-theme", dark)
        settings.set_property("gtk-font-name", font)
        texts = Texts(rng)
        win, b = build_window(rng, texts)
        win.move(0, 0)
        win.show_all()
        pump(0.25)
        if rng.random() < 0.5:
            for nb, names in b.notebooks:
                nb.set_current_page(rng.randrange(len(names)))
            pump(0.1)
        W, H, els = collect(win, b, a.scale)
        if a.atspi_check:
            res = atspi_check(win, els, a.scale)
            checks.append({"id": sid, "elements": res})
            ok = sum(1 for r in res if r["iou"] >= 0.9)
            print(f"{sid}: {ok}/{len(res)} boxes within IoU 0.9 of AT-SPI's", flush=True)
            win.destroy()
            pump(0.05)
            continue
        pb = Gdk.pixbuf_get_from_window(win.get_window(), 0, 0, W, H)
        win.destroy()
        pump(0.02)
        if pb is None or not els:
            continue
        pb.savev(os.path.join(a.out, sid + ".png"), "png", [], [])
        meta = {"id": sid, "family": "gtk", "subfamily": theme + (":dark" if dark else ""), "variant": {"theme": theme, "dark": dark or "dark" in theme.lower() or "Inverse" in theme, "scale": a.scale, "font": font, "lang": "fr" if texts.fr else "en"},
                "width": pb.get_width(), "height": pb.get_height(), "image": sid + ".png", "elements": els}
        with open(os.path.join(a.out, sid + ".json"), "w") as f:
            json.dump(meta, f, ensure_ascii=False)
        made += 1
        print(f"{sid} {len(els)} elements {pb.get_width()}x{pb.get_height()} {theme}{':dark' if dark else ''} {font}", flush=True)
    if a.atspi_check:
        allr = [r for c in checks for r in c["elements"]]
        by = {}
        for r in allr:
            k = by.setdefault(r["source"], [0, 0])
            k[0] += 1
            k[1] += 1 if r["iou"] >= 0.9 else 0
        summary = {"screens": len(checks), "elements": len(allr), "within_iou_0.9": sum(1 for r in allr if r["iou"] >= 0.9),
                   "mean_iou": round(sum(r["iou"] for r in allr) / max(1, len(allr)), 3), "by_widget": {k: f"{v[1]}/{v[0]}" for k, v in sorted(by.items())}, "screens_detail": checks}
        with open(a.atspi_check, "w") as f:
            json.dump(summary, f, indent=1)
        print(json.dumps({k: v for k, v in summary.items() if k != "screens_detail"}), flush=True)
        return
    print(f"done: {made} new", flush=True)


if __name__ == "__main__":
    main()
