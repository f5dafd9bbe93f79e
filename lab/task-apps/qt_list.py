#!/usr/bin/python3
# A generated Qt 5 list task app: the list task of gtk_list.py (a captioned list, a captioned field and an
# action button writing {"selected", "motif", "saved"} to params["out"], the oracle), in Qt's Fusion style
# (or params["style"]). The lab's variants are read as a Qt app can follow them: GTK_THEME=…:dark → a dark
# palette, GDK_SCALE → QT_SCALE_FACTOR, GDK_DPI_SCALE → larger fonts. Screen boxes go to params["out"] + ".geom.json".
import json
import os
import sys

p = json.load(open(sys.argv[1]))
scale = float(os.environ.get("GDK_SCALE", "1"))
text_scale = float(os.environ.get("GDK_DPI_SCALE", "1"))
dark = "dark" in os.environ.get("GTK_THEME", "")
os.environ["QT_SCALE_FACTOR"] = str(scale)
os.environ.pop("QT_AUTO_SCREEN_SCALE_FACTOR", None)

from PyQt5.QtCore import QPoint, QTimer  # noqa: E402
from PyQt5.QtGui import QColor, QPalette  # noqa: E402
from PyQt5.QtWidgets import QApplication, QHBoxLayout, QLabel, QLineEdit, QListWidget, QPushButton, QStyleFactory, QVBoxLayout, QWidget  # noqa: E402

app = QApplication([p.get("class", "tasklist-qt")])
app.setStyle(QStyleFactory.create(p.get("style", "Fusion")))
font = app.font()
font.setPointSizeF(9.5 * text_scale)
app.setFont(font)
if dark:
    pal = QPalette()
    for role, colour in [(QPalette.Window, "#2d2d2d"), (QPalette.WindowText, "#eeeeee"), (QPalette.Base, "#3a3a3a"), (QPalette.Text, "#eeeeee"),
                         (QPalette.Button, "#3c3c3c"), (QPalette.ButtonText, "#eeeeee"), (QPalette.Highlight, "#3d7ad6"), (QPalette.HighlightedText, "#ffffff")]:
        pal.setColor(role, QColor(colour))
    app.setPalette(pal)

win = QWidget()
win.setWindowTitle(p["title"])
win.resize(p.get("width", 560), p.get("height", 460))
outer = QVBoxLayout(win)
outer.setContentsMargins(12, 12, 12, 12)
outer.addWidget(QLabel(p["list_caption"]))
lst = QListWidget()
lst.addItems(p["items"])
outer.addWidget(lst, 1)
line = QHBoxLayout()
line.addWidget(QLabel(p["field_caption"]))
entry = QLineEdit()
line.addWidget(entry, 1)
action = QPushButton(p["action"])
action.setAutoDefault(False)
line.addWidget(action)
outer.addLayout(line)


def do_action():
    item = lst.currentItem()
    json.dump({"selected": item.text() if item and item.isSelected() else None, "motif": entry.text(), "saved": True}, open(p["out"], "w"), ensure_ascii=False)


action.clicked.connect(do_action)


def boxof(w):
    o = w.mapToGlobal(QPoint(0, 0))
    return [round(o.x() * scale), round(o.y() * scale), round((o.x() + w.width()) * scale), round((o.y() + w.height()) * scale)]


def geometry():
    vp = lst.viewport().mapToGlobal(QPoint(0, 0))
    items = {}
    for i in range(lst.count()):
        r = lst.visualItemRect(lst.item(i))
        items[lst.item(i).text()] = [round((vp.x() + r.x()) * scale), round((vp.y() + r.y()) * scale), round((vp.x() + r.x() + r.width()) * scale), round((vp.y() + r.y() + r.height()) * scale)]
    json.dump({"items": items, "field": boxof(entry), "action": boxof(action)}, open(p["out"] + ".geom.json", "w"))


win.show()
QTimer.singleShot(600, geometry)
sys.exit(app.exec_())
