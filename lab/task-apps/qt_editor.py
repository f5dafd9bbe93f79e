#!/usr/bin/python3
# A generated Qt 5 editor task app: the editor of gtk_editor.py (a toolbar of text buttons over a text
# area holding a few lines; « * » before the title once modified; « Enregistrer » writes {"text",
# "saved"} to params["out"], the oracle), in Qt's Fusion style (or params["style"]). The lab's variants
# are read as a Qt app can follow them: GTK_THEME=…:dark → a dark palette, GDK_SCALE → QT_SCALE_FACTOR,
# GDK_DPI_SCALE → larger fonts. Widget screen boxes (physical pixels) go to params["out"] + ".geom.json".
import json
import sys

p = json.load(open(sys.argv[1]))
from task_qt import qt_app  # noqa: E402

app, scale, boxof = qt_app(p, "taskeditor-qt")
from PyQt5.QtCore import QTimer  # noqa: E402
from PyQt5.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget  # noqa: E402

win = QWidget()
win.setWindowTitle(p["title"])
win.resize(p.get("width", 560), p.get("height", 460))
outer = QVBoxLayout(win)
outer.setContentsMargins(8, 8, 8, 8)
bar = QHBoxLayout()
buttons = {}
for label in p["buttons"]:
    b = QPushButton(label)
    b.setAutoDefault(False)
    bar.addWidget(b)
    buttons[label] = b
bar.addStretch(1)
outer.addLayout(bar)
text = QPlainTextEdit()
text.setPlainText("\n".join(p["lines"]))
text.document().setModified(False)
text.modificationChanged.connect(lambda m: win.setWindowTitle(("*" if m else "") + p["title"]))
outer.addWidget(text, 1)


def do_save():
    json.dump({"text": text.toPlainText(), "saved": True}, open(p["out"], "w"), ensure_ascii=False)
    text.document().setModified(False)


buttons[p["save"]].clicked.connect(do_save)


win.show()
QTimer.singleShot(600, lambda: json.dump({"save": boxof(buttons[p["save"]]), "text": boxof(text)}, open(p["out"] + ".geom.json", "w")))
sys.exit(app.exec_())
