#!/usr/bin/python3
# A generated Qt 5 editor task app: the editor of gtk_editor.py (a toolbar of text buttons over a text
# area holding a few lines; « * » before the title once modified; « Enregistrer » writes {"text",
# "saved"} to params["out"], the oracle), in Qt's Fusion style (or params["style"]). The lab's variants
# are read as a Qt app can follow them: GTK_THEME=…:dark → a dark palette, GDK_SCALE → QT_SCALE_FACTOR,
# GDK_DPI_SCALE → larger fonts. Widget screen boxes (physical pixels) go to params["out"] + ".geom.json".
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
from PyQt5.QtWidgets import QApplication, QHBoxLayout, QPlainTextEdit, QPushButton, QStyleFactory, QVBoxLayout, QWidget  # noqa: E402

app = QApplication([p.get("class", "taskeditor-qt")])
app.setStyle(QStyleFactory.create(p.get("style", "Fusion")))
font = app.font()
font.setPointSizeF(9.5 * text_scale)
app.setFont(font)
if dark:
    pal = QPalette()
    for role, colour in [(QPalette.Window, "#2d2d2d"), (QPalette.WindowText, "#eeeeee"), (QPalette.Base, "#262626"), (QPalette.Text, "#eeeeee"),
                         (QPalette.Button, "#3c3c3c"), (QPalette.ButtonText, "#eeeeee"), (QPalette.Highlight, "#3d7ad6"), (QPalette.HighlightedText, "#ffffff")]:
        pal.setColor(role, QColor(colour))
    app.setPalette(pal)

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


def boxof(w):
    o = w.mapToGlobal(QPoint(0, 0))
    return [round(o.x() * scale), round(o.y() * scale), round((o.x() + w.width()) * scale), round((o.y() + w.height()) * scale)]


win.show()
QTimer.singleShot(600, lambda: json.dump({"save": boxof(buttons[p["save"]]), "text": boxof(text)}, open(p["out"] + ".geom.json", "w")))
sys.exit(app.exec_())
