"""Qt 5 screens generated at random (python3-pyqt5), boxes from the widgets' geometry (mapTo the window).

Renders off screen (QT_QPA_PLATFORM=offscreen, no X server needed): QWidget.grab() of the window.
  QT_QPA_PLATFORM=offscreen QT_SCALE_FACTOR=2 python3 gen_qt.py --out DIR --start 0 --count 500 --scale 2
Same JSON as gen_gtk.py (types by the AT-SPI role table of src/lab/atspi.ts). Styles: Fusion (light and a dark palette),
Windows, and the qt5-style-plugins styles when installed.
"""
import argparse, json, os, random, sys
from PyQt5.QtCore import QPoint, Qt
from PyQt5.QtGui import QColor, QFont, QPalette
from PyQt5.QtWidgets import (QApplication, QCheckBox, QComboBox, QDateEdit, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QGridLayout,
                             QGroupBox, QHBoxLayout, QLabel, QLineEdit, QMainWindow, QPushButton, QRadioButton, QSlider, QSpinBox,
                             QStyle, QStyleFactory, QTabWidget, QTextEdit, QToolBar, QToolButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout,
                             QWidget, QCommandLinkButton, QButtonGroup)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from texts import Texts  # noqa: E402

FONTS = ["DejaVu Sans", "Noto Sans", "Liberation Sans", "Nimbus Sans", "Cantarell", "DejaVu Serif"]
ICONS = [QStyle.SP_DialogSaveButton, QStyle.SP_DialogOpenButton, QStyle.SP_TrashIcon, QStyle.SP_BrowserReload, QStyle.SP_ArrowBack,
         QStyle.SP_ArrowForward, QStyle.SP_FileDialogNewFolder, QStyle.SP_DialogHelpButton, QStyle.SP_DialogCloseButton, QStyle.SP_MediaPlay,
         QStyle.SP_FileIcon, QStyle.SP_DirIcon, QStyle.SP_ComputerIcon]


def dark_palette():
    p = QPalette()
    base, win, text = QColor(35, 35, 38), QColor(53, 53, 56), QColor(230, 230, 230)
    for role, c in [(QPalette.Window, win), (QPalette.WindowText, text), (QPalette.Base, base), (QPalette.AlternateBase, win),
                    (QPalette.Text, text), (QPalette.Button, win), (QPalette.ButtonText, text), (QPalette.Highlight, QColor(42, 130, 218)),
                    (QPalette.HighlightedText, QColor(0, 0, 0)), (QPalette.Link, QColor(90, 160, 255))]:
        p.setColor(role, c)
    p.setColor(QPalette.Disabled, QPalette.ButtonText, QColor(120, 120, 120))
    p.setColor(QPalette.Disabled, QPalette.Text, QColor(120, 120, 120))
    return p


class Builder:
    def __init__(self, rng, t, style):
        self.rng, self.t, self.style = rng, t, style
        self.items = []  # (widget, type, label, state_fn, rect_fn)

    def reg(self, w, typ, label="", state=None):
        if self.rng.random() < 0.08:
            w.setEnabled(False)
        self.items.append((w, typ, label, state, None))
        return w

    def icon(self):
        return self.style.standardIcon(self.rng.choice(ICONS))

    def button(self):
        r = self.rng.random()
        if r < 0.1:
            b = QPushButton()
            b.setIcon(self.icon())
            return self.reg(b, "button", "")
        if r < 0.14:
            label = self.t.action()
            b = QCommandLinkButton(label, self.t.sentence())
            return self.reg(b, "button", label)
        label = self.t.action()
        b = QPushButton(label)
        if r < 0.3:
            b.setIcon(self.icon())
        if self.rng.random() < 0.1:
            b.setCheckable(True)
            b.setChecked(self.rng.random() < 0.5)
            return self.reg(b, "button", label, lambda w: {"checked": w.isChecked()})
        if self.rng.random() < 0.1:
            b.setFlat(True)
        return self.reg(b, "button", label)

    def entry(self):
        e = QLineEdit()
        if self.rng.random() < 0.5:
            e.setText(self.t.value())
        else:
            e.setPlaceholderText(self.t.field())
        if self.rng.random() < 0.15:
            e.setEchoMode(QLineEdit.Password)
            e.setText("secret123")
        if self.rng.random() < 0.4:
            e.setMinimumWidth(self.rng.randint(80, 360))
        return self.reg(e, "text_input", e.text())

    def spin(self):
        k = self.rng.random()
        s = QSpinBox() if k < 0.5 else QDoubleSpinBox() if k < 0.75 else QDateEdit()
        if not isinstance(s, QDateEdit):
            s.setRange(0, 10000)
            s.setValue(self.rng.randint(0, 500))
        return self.reg(s, "text_input", s.text())

    def combo(self):
        c = QComboBox()
        c.setEditable(self.rng.random() < 0.25)
        opts = self.t.distinct(self.t.option, self.rng.randint(2, 6))
        c.addItems(opts)
        return self.reg(c, "dropdown", opts[0])

    def check(self):
        label = self.t.option()
        c = QCheckBox(label)
        c.setChecked(self.rng.random() < 0.5)
        if self.rng.random() < 0.05:
            c.setTristate(True)
            c.setCheckState(Qt.PartiallyChecked)
        return self.reg(c, "checkbox", label, lambda w: {"checked": w.checkState() != Qt.Unchecked})

    def radios(self):
        box = QWidget()
        lay = QHBoxLayout(box) if self.rng.random() < 0.5 else QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        grp = QButtonGroup(box)
        labels = self.t.distinct(self.t.option, self.rng.randint(2, 4))
        on = self.rng.randrange(len(labels))
        for i, l in enumerate(labels):
            r = QRadioButton(l)
            grp.addButton(r)
            r.setChecked(i == on)
            lay.addWidget(self.reg(r, "radio_button", l, lambda w: {"checked": w.isChecked()}))
        lay.addStretch(1)
        return box

    def link(self):
        label = self.t.link()
        l = QLabel(f'<a href="https://example.org/">{label}</a>')
        l.setTextFormat(Qt.RichText)
        l.setSizePolicy(l.sizePolicy().Fixed, l.sizePolicy().Fixed)
        return self.reg(l, "link", label)

    def slider(self):
        s = QSlider(Qt.Horizontal)
        s.setRange(0, 100)
        s.setValue(self.rng.randint(0, 100))
        s.setMinimumWidth(self.rng.randint(100, 300))
        return self.reg(s, "generic_interactive", "")

    def caption(self):
        return QLabel(self.t.field() + self.rng.choice(["", " :", ":", " *"]))

    def form(self):
        w = QWidget()
        if self.rng.random() < 0.5:
            lay = QFormLayout(w)
            for _ in range(self.rng.randint(2, 6)):
                k = self.rng.random()
                lay.addRow(self.caption(), self.entry() if k < 0.5 else self.combo() if k < 0.75 else self.spin() if k < 0.9 else self.check())
        else:
            lay = QGridLayout(w)
            for row in range(self.rng.randint(2, 5)):
                for col in range(self.rng.choice([1, 1, 2])):
                    lay.addWidget(self.caption(), row, col * 2)
                    k = self.rng.random()
                    lay.addWidget(self.entry() if k < 0.55 else self.combo() if k < 0.8 else self.spin(), row, col * 2 + 1)
        return w

    def toggles(self):
        box = QWidget()
        lay = QHBoxLayout(box) if self.rng.random() < 0.4 else QVBoxLayout(box)
        for _ in range(self.rng.randint(2, 5)):
            lay.addWidget(self.check())
        lay.addStretch(1)
        return box

    def buttons_row(self):
        if self.rng.random() < 0.4:
            bb = QDialogButtonBox()
            for _ in range(self.rng.randint(1, 3)):
                label = self.t.action()
                self.reg(bb.addButton(label, QDialogButtonBox.ActionRole), "button", label)
            return bb
        box = QWidget()
        lay = QHBoxLayout(box)
        if self.rng.random() < 0.6:
            lay.addStretch(1)
        for _ in range(self.rng.randint(1, 4)):
            lay.addWidget(self.button())
        return box

    def tree(self):
        cols = self.rng.randint(2, 5)
        tw = QTreeWidget()
        tw.setHeaderLabels([self.t.field() for _ in range(cols)])
        for _ in range(self.rng.randint(2, 8)):
            QTreeWidgetItem(tw, [self.rng.choice([self.t.name(), self.t.value(), self.t.option()]) for _ in range(cols)])
        tw.setMinimumHeight(self.rng.randint(90, 220))
        return tw

    def textedit(self):
        te = QTextEdit()
        te.setPlainText(self.t.sentence())
        te.setMinimumHeight(self.rng.randint(50, 120))
        return self.reg(te, "text_input", "")

    def misc_row(self):
        box = QWidget()
        lay = QHBoxLayout(box)
        for _ in range(self.rng.randint(1, 4)):
            k = self.rng.random()
            lay.addWidget(self.link() if k < 0.35 else self.slider() if k < 0.55 else self.button() if k < 0.8 else QLabel(self.t.sentence()))
        lay.addStretch(1)
        return box

    def group(self, depth):
        g = QGroupBox(self.t.title())
        lay = QVBoxLayout(g)
        lay.addWidget(self.section(depth + 1))
        return g

    def section(self, depth=0):
        k = self.rng.random()
        if k < 0.3:
            return self.form()
        if k < 0.42:
            return self.toggles()
        if k < 0.52:
            return self.radios()
        if k < 0.6:
            return self.tree()
        if k < 0.66:
            return self.textedit()
        if k < 0.76 and depth == 0:
            return self.tabs()
        if k < 0.82 and depth == 0:
            return self.group(depth)
        if k < 0.91:
            return self.misc_row()
        return self.buttons_row()

    def tabs(self):
        tw = QTabWidget()
        tw.setTabPosition(self.rng.choice([QTabWidget.North] * 4 + [QTabWidget.West, QTabWidget.South]))
        tw.setDocumentMode(self.rng.random() < 0.3)
        names = self.t.distinct(self.t.tab, self.rng.randint(2, 6))
        for n in names:
            page = QWidget()
            lay = QVBoxLayout(page)
            lay.addWidget(self.section(1) if self.rng.random() < 0.7 else QLabel(self.t.sentence()))
            tw.addTab(page, n)
        tw.setCurrentIndex(self.rng.randrange(len(names)))
        bar = tw.tabBar()
        for i, n in enumerate(names):
            self.items.append((bar, "tab", n, (lambda i: lambda w: {"selected": w.currentIndex() == i})(i), (lambda i: lambda w: w.tabRect(i))(i)))
        return tw


def build(rng, t, style):
    b = Builder(rng, t, style)
    win = QMainWindow()
    win.setWindowTitle(t.title())
    if rng.random() < 0.4:
        mb = win.menuBar()
        for n in t.distinct(t.menu, rng.randint(2, 7)):
            m = mb.addMenu(n)
            m.addAction(t.action())
            act = m.menuAction()
            b.items.append((mb, "generic_interactive", n, None, (lambda a: lambda w: w.actionGeometry(a))(act)))
    if rng.random() < 0.35:
        tb = QToolBar()
        tb.setToolButtonStyle(rng.choice([Qt.ToolButtonIconOnly, Qt.ToolButtonTextBesideIcon, Qt.ToolButtonTextUnderIcon]))
        win.addToolBar(tb)
        for _ in range(rng.randint(3, 8)):
            if rng.random() < 0.15:
                tb.addSeparator()
                continue
            label = t.action()
            act = tb.addAction(b.icon(), label)
            tbtn = tb.widgetForAction(act)
            if isinstance(tbtn, QToolButton):
                b.reg(tbtn, "button", label if tb.toolButtonStyle() != Qt.ToolButtonIconOnly else "")
    central = QWidget()
    lay = QVBoxLayout(central)
    m = rng.choice([6, 9, 12, 18, 24])
    lay.setContentsMargins(m, m, m, m)
    lay.setSpacing(rng.choice([4, 6, 10, 16]))
    if rng.random() < 0.3:
        h = QLabel(t.title())
        f = h.font()
        f.setPointSize(f.pointSize() + 4)
        f.setBold(True)
        h.setFont(f)
        lay.addWidget(h)
    cols = rng.random() < 0.3
    row = QHBoxLayout() if cols else lay
    for _ in range(rng.randint(2, 5)):
        row.addWidget(b.section())
    if cols:
        lay.addLayout(row)
    lay.addStretch(1)
    if rng.random() < 0.6:
        lay.addWidget(b.buttons_row())
    win.setCentralWidget(central)
    if rng.random() < 0.3:
        win.statusBar().showMessage(t.sentence())
    win.resize(rng.randint(420, 1100), rng.randint(300, 800))
    return win, b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--indices", help="comma-separated screen indices to make instead of --start/--count (each seeded by its index)")
    ap.add_argument("--scale", type=int, default=1)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    app = QApplication(["gen_qt"])
    styles = [s for s in QStyleFactory.keys()]
    made = 0
    for i in ([int(v) for v in a.indices.split(",")] if a.indices else range(a.start, a.start + a.count)):
        sid = f"qt-s{a.scale}-{i:05d}"
        if os.path.exists(os.path.join(a.out, sid + ".json")):
            continue
        rng = random.Random(f"qt:{a.scale}:{i}")
        sname = rng.choice(styles + ["Fusion"])
        dark = sname == "Fusion" and rng.random() < 0.45
        style = QStyleFactory.create(sname)
        app.setStyle(style)
        app.setPalette(dark_palette() if dark else style.standardPalette())
        font = QFont(rng.choice(FONTS), rng.choice([8, 9, 10, 10, 11, 12]))
        app.setFont(font)
        t = Texts(rng)
        win, b = build(rng, t, style)
        win.show()
        for _ in range(3):
            app.processEvents()
        pm = win.grab()
        dpr = pm.devicePixelRatio()
        W, H = win.width(), win.height()
        els = []
        for w, typ, label, state, rect_fn in b.items:
            if not w.isVisible():
                continue
            r = rect_fn(w) if rect_fn else w.rect()
            if r.isEmpty():
                continue
            if isinstance(w, (QCheckBox, QRadioButton)) and w.layoutDirection() == Qt.LeftToRight:
                r.setWidth(min(r.width(), w.sizeHint().width()))  # indicator and caption, not the layout's stretch
            p = w.mapTo(win, r.topLeft())
            x1, y1 = max(0, p.x()), max(0, p.y())
            x2, y2 = min(W, p.x() + r.width()), min(H, p.y() + r.height())
            if x2 - x1 < 3 or y2 - y1 < 3:
                continue
            st = state(w) if state else {}
            if not w.isEnabled():
                st["disabled"] = True
            els.append({"type": typ, "bbox": [round(x1 * dpr), round(y1 * dpr), round(x2 * dpr), round(y2 * dpr)], "label": label, "state": st, "source": type(w).__name__})
        win.close()
        win.deleteLater()
        app.processEvents()
        if not els:
            continue
        pm.save(os.path.join(a.out, sid + ".png"), "PNG")
        meta = {"id": sid, "family": "qt", "subfamily": sname + (":dark" if dark else ""), "variant": {"theme": sname, "dark": dark, "scale": dpr, "font": f"{font.family()} {font.pointSize()}", "lang": "fr" if t.fr else "en"},
                "width": pm.width(), "height": pm.height(), "image": sid + ".png", "elements": els}
        with open(os.path.join(a.out, sid + ".json"), "w") as f:
            json.dump(meta, f, ensure_ascii=False)
        made += 1
        print(f"{sid} {len(els)} elements {pm.width()}x{pm.height()} {sname}{':dark' if dark else ''}", flush=True)
    print(f"done: {made} new", flush=True)


if __name__ == "__main__":
    main()
