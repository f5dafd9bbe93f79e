# Shared set-up of the generated Qt 5 task apps (qt_form.py, qt_editor.py, qt_list.py). The lab's variants are read as
# a Qt app can follow them: GTK_THEME=…:dark → a dark palette, GDK_SCALE → QT_SCALE_FACTOR, GDK_DPI_SCALE → larger
# fonts; params "style" → another of Qt's own styles than Fusion ("Windows"), "class" → the application name.
import os


def qt_app(p, default_class):
    """The QApplication, the UI scale, and boxof(widget): its screen box in physical pixels (lab ground truth)."""
    scale = float(os.environ.get("GDK_SCALE", "1"))
    text_scale = float(os.environ.get("GDK_DPI_SCALE", "1"))
    os.environ["QT_SCALE_FACTOR"] = str(scale)
    os.environ.pop("QT_AUTO_SCREEN_SCALE_FACTOR", None)
    from PyQt5.QtCore import QPoint
    from PyQt5.QtGui import QColor, QPalette
    from PyQt5.QtWidgets import QApplication, QStyleFactory

    app = QApplication([p.get("class", default_class)])
    app.setStyle(QStyleFactory.create(p.get("style", "Fusion")))
    font = app.font()
    font.setPointSizeF(9.5 * text_scale)
    app.setFont(font)
    if "dark" in os.environ.get("GTK_THEME", ""):
        pal = QPalette()
        for role, colour in [(QPalette.Window, "#2d2d2d"), (QPalette.WindowText, "#eeeeee"), (QPalette.Base, "#3a3a3a"), (QPalette.Text, "#eeeeee"),
                             (QPalette.Button, "#3c3c3c"), (QPalette.ButtonText, "#eeeeee"), (QPalette.Highlight, "#3d7ad6"), (QPalette.HighlightedText, "#ffffff")]:
            pal.setColor(role, QColor(colour))
        pal.setColor(QPalette.Disabled, QPalette.Text, QColor("#7a7a7a"))
        pal.setColor(QPalette.Disabled, QPalette.ButtonText, QColor("#7a7a7a"))
        app.setPalette(pal)

    def boxof(w):
        o = w.mapToGlobal(QPoint(0, 0))
        return [round(o.x() * scale), round(o.y() * scale), round((o.x() + w.width()) * scale), round((o.y() + w.height()) * scale)]

    return app, scale, boxof
