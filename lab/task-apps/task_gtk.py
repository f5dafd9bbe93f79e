# Shared set-up of the generated GTK 3 task apps (gtk_form.py, gtk_editor.py, gtk_list.py): GTK follows the lab's
# variants itself (GTK_THEME, GDK_SCALE, GDK_DPI_SCALE); params "theme" → a GTK theme by name ("HighContrast", built
# into GTK 3) unless GTK_THEME (the dark cell) names one.
import os

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402


def gtk_window(p):
    """The app's window (its title and size from params; closing it ends the app)."""
    if p.get("theme") and not os.environ.get("GTK_THEME"):
        Gtk.Settings.get_default().set_property("gtk-theme-name", p["theme"])
    win = Gtk.Window(title=p["title"])
    win.set_default_size(p.get("width", 560), p.get("height", 460))
    win.connect("destroy", Gtk.main_quit)
    return win


def boxof_in(win):
    """boxof(widget): its screen box (lab ground truth), from `win`'s origin on screen."""
    ox, oy = win.get_window().get_origin()[1:]

    def boxof(w):
        x, y = w.translate_coordinates(win, 0, 0)
        a = w.get_allocation()
        return [ox + x, oy + y, ox + x + a.width, oy + y + a.height]

    return boxof
