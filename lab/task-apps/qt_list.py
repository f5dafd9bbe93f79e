#!/usr/bin/python3
# A generated Qt 5 list task app: the list task of gtk_list.py (a captioned list, a captioned field and an
# action button writing {"selected", "motif", "saved"} to params["out"], the oracle), in Qt's Fusion style
# (or params["style"]). The lab's variants are read as a Qt app can follow them: GTK_THEME=…:dark → a dark
# palette, GDK_SCALE → QT_SCALE_FACTOR, GDK_DPI_SCALE → larger fonts. Screen boxes go to params["out"] + ".geom.json".
import json
import sys

p = json.load(open(sys.argv[1]))
from task_qt import qt_app  # noqa: E402

app, scale, boxof = qt_app(p, "tasklist-qt")
from PyQt5.QtCore import QPoint, QTimer  # noqa: E402
from PyQt5.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QListWidget, QPushButton, QVBoxLayout, QWidget  # noqa: E402

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
