#!/usr/bin/python3
# A generated Qt 5 task app: the same form as gtk_form.py and tk_form.py (search entry, captioned
# fields, a greyed-out button, an empty canvas, an icon-only Save button), from the same
# parameters, in Qt's Fusion style. The lab's variants are read as a Qt app can follow them:
# GTK_THEME=…:dark → a dark palette, GDK_SCALE → QT_SCALE_FACTOR, GDK_DPI_SCALE → larger fonts.
# Save writes the state JSON to params["out"] (the oracle); the window stays open. Widget screen
# boxes (physical pixels) go to params["out"] + ".geom.json" once shown, for the scripted person
# (lab ground truth, never read by the product).
# Optional parameters (absent: the form above, unchanged): "values" — text already in fields when
# the app opens, by key (a check box: true = ticked); "check" — {caption, key}: a check box under
# the fields, its state saved under "checks"; "scroll": true — the fields and the check box in a
# scrolled area (made smaller than the form, the lower ones are out of view).
import json
import os
import sys

p = json.load(open(sys.argv[1]))
from task_qt import qt_app  # noqa: E402

app, scale, boxof = qt_app(p, "taskform-qt")
dark = "dark" in os.environ.get("GTK_THEME", "")
from PyQt5.QtCore import Qt, QTimer  # noqa: E402
from PyQt5.QtGui import QColor, QPalette  # noqa: E402
from PyQt5.QtWidgets import (QCheckBox, QDialog, QFrame, QGridLayout, QHBoxLayout, QLabel, QLineEdit,  # noqa: E402
                             QPushButton, QScrollArea, QSizePolicy, QStyle, QToolButton, QVBoxLayout, QWidget)

state = {"fields": {}, "search": "", "mark": None, "saved": False}
win = QWidget()
win.setWindowTitle(p["title"])
win.resize(p.get("width", 560), p.get("height", 460))
outer = QVBoxLayout(win)
outer.setContentsMargins(12, 12, 12, 12)

bar = QHBoxLayout()
save = QToolButton()
save.setIcon(app.style().standardIcon(QStyle.SP_DialogSaveButton))
save.setToolTip("Enregistrer")
save.setAutoRaise(False)
bar.addWidget(save)
# Optional "dialog": a button opening a modal dialog with one captioned field (as gtk_form.py).
d = p.get("dialog")
if d:
    opener = QPushButton(d["open"])
    bar.addWidget(opener)
bar.addStretch(1)
search = QLineEdit()
search.setFixedWidth(170)
bar.addWidget(search)
outer.addLayout(bar)

grid = QGridLayout()
entries = {}
fields = ([p["extra_field"]] if p.get("extra_field") else []) + p["fields"]
for i, f in enumerate(fields):
    lab = QLabel(f["caption"])
    lab.setAlignment(Qt.AlignRight | Qt.AlignVCenter)
    e = QLineEdit()
    grid.addWidget(lab, i, 0)
    grid.addWidget(e, i, 1)
    entries[f["key"]] = e
    e.setText(p.get("values", {}).get(f["key"], ""))  # a field already filled when the app opens
    if f["key"] in p.get("insensitive", []):
        e.setEnabled(False)
dis = QPushButton(p.get("disabled_label", "Effacer"))
dis.setEnabled(False)
grid.addWidget(dis, len(fields) - 1, 2)
grid.setColumnStretch(1, 1)
checks = {}
if p.get("check"):
    c = p["check"]
    box = QCheckBox(c["caption"])
    box.setChecked(bool(p.get("values", {}).get(c["key"])))  # a box already ticked when the app opens
    grid.addWidget(box, len(fields), 1)
    checks[c["key"]] = box
if p.get("scroll"):
    inner = QWidget()
    inner.setLayout(grid)
    area = QScrollArea()
    area.setWidget(inner)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.NoFrame)
    area.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Preferred)
    outer.addWidget(area)
else:
    outer.addLayout(grid)


class Canvas(QFrame):
    def mousePressEvent(self, ev):
        state["mark"] = [round(ev.x() / self.width(), 3), round(ev.y() / self.height(), 3)]


canvas = Canvas()
if p.get("scroll"):
    canvas.setMinimumHeight(120)  # the window made smaller shrinks the scrolled area, not the canvas
canvas.setFrameShape(QFrame.Box)
canvas.setAutoFillBackground(True)
cp = canvas.palette()
cp.setColor(QPalette.Window, QColor("#1f1f1f" if dark else "#ffffff"))
canvas.setPalette(cp)
outer.addWidget(canvas, 1)


def do_save():
    state["fields"] = {k: e.text() for k, e in entries.items()}
    state["search"] = search.text()
    if checks:
        state["checks"] = {k: b.isChecked() for k, b in checks.items()}
    state["saved"] = True
    json.dump(state, open(p["out"], "w"), ensure_ascii=False)


save.clicked.connect(do_save)


if d:
    def open_dialog():
        dlg = QDialog(win)
        dlg.setWindowTitle(d["title"])
        lay = QVBoxLayout(dlg)
        row = QHBoxLayout()
        row.addWidget(QLabel(d["caption"]))
        entry = QLineEdit()
        entry.setMinimumWidth(220)
        row.addWidget(entry, 1)
        lay.addLayout(row)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        cancel = QPushButton(d["cancel"])
        ok = QPushButton(d["ok"])
        ok.setAutoDefault(False)
        cancel.setAutoDefault(False)
        buttons.addWidget(cancel)
        buttons.addWidget(ok)
        lay.addLayout(buttons)
        ok.clicked.connect(dlg.accept)
        cancel.clicked.connect(dlg.reject)
        QTimer.singleShot(500, lambda: json.dump({"field": boxof(entry), "ok": boxof(ok), "cancel": boxof(cancel)}, open(p["out"] + ".dialog.json", "w")))
        if dlg.exec_() == QDialog.Accepted:
            state["dialog"] = entry.text()
        if os.path.exists(p["out"] + ".dialog.json"):
            os.remove(p["out"] + ".dialog.json")
    opener.clicked.connect(open_dialog)


def geometry():
    g = {"save": boxof(save), "search": boxof(search), "canvas": boxof(canvas), "disabled": boxof(dis), "fields": {k: boxof(e) for k, e in entries.items()}}
    if checks:
        g["checks"] = {k: boxof(b) for k, b in checks.items()}
    if d:
        g["opener"] = boxof(opener)
    json.dump(g, open(p["out"] + ".geom.json", "w"))


win.show()
QTimer.singleShot(600, geometry)
sys.exit(app.exec_())
