#!/usr/bin/python3
"""Dump the AT-SPI tree of the desktop (or of one process) as JSON, for ground truth.

Run with Debian's /usr/bin/python3 (needs python3-gi and gir1.2-atspi-2.0), on the lab's
DISPLAY and DBUS_SESSION_BUS_ADDRESS. Prints one JSON object:
  {"nodes": [{role, name, states, bbox, pid, app, depth, toplevel, words?}], "apps": [...]}
toplevel is the window (frame or dialog) the node belongs to: {role, name, bbox}.
bbox is [x1, y1, x2, y2] in screen pixels (logical extents multiplied by --scale).
"""
import argparse
import json
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

TEXT_ROLES = {"label", "text", "entry", "push button", "toggle button", "check box", "radio button",
              "page tab", "link", "menu item", "combo box", "list item", "table cell", "heading", "paragraph"}


def states_of(acc):
    ss = acc.get_state_set()
    return sorted(Atspi.StateType(s).value_nick for s in ss.get_states())


def word_boxes(acc, scale):
    try:
        if "Text" not in acc.get_interfaces():
            return None
        n = Atspi.Text.get_character_count(acc)
        if n <= 0 or n > 2000:
            return None
        s = Atspi.Text.get_text(acc, 0, n)
    except Exception:
        return None
    out = []
    i = 0
    while i < len(s):
        if s[i].isspace():
            i += 1
            continue
        j = i
        while j < len(s) and not s[j].isspace():
            j += 1
        try:
            r = Atspi.Text.get_range_extents(acc, i, j, Atspi.CoordType.SCREEN)
            if r.width > 0 and r.height > 0:
                out.append({"text": s[i:j], "bbox": [r.x * scale, r.y * scale, (r.x + r.width) * scale, (r.y + r.height) * scale]})
        except Exception:
            pass
        i = j
    return out


def walk(acc, app_name, pid, scale, depth, out, limit, toplevel=None):
    if len(out) >= limit or depth > 40:
        return
    try:
        role = acc.get_role_name()
        name = acc.get_name() or ""
        states = states_of(acc)
        ext = acc.get_extents(Atspi.CoordType.SCREEN)
        bbox = [ext.x * scale, ext.y * scale, (ext.x + ext.width) * scale, (ext.y + ext.height) * scale]
        if depth == 1:
            toplevel = {"role": role, "name": name, "bbox": bbox}
        node = {"role": role, "name": name, "states": states, "bbox": bbox, "pid": pid, "app": app_name, "depth": depth, "toplevel": toplevel}
        if role in TEXT_ROLES and "showing" in states:
            words = word_boxes(acc, scale)
            if words:
                node["words"] = words
        out.append(node)
        n = acc.get_child_count()
    except Exception as e:  # a widget that vanished mid-walk: skip it, keep the rest
        print(f"atspi-dump: skipped a node: {e}", file=sys.stderr)
        return
    for k in range(min(n, 2000)):
        try:
            child = acc.get_child_at_index(k)
        except Exception:
            continue
        if child is not None:
            walk(child, app_name, pid, scale, depth + 1, out, limit, toplevel)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pid", type=int, default=None, help="only the application with this process id")
    ap.add_argument("--scale", type=float, default=1.0, help="GDK_SCALE of the application (extents are logical)")
    ap.add_argument("--limit", type=int, default=20000)
    ap.add_argument("--list-apps", action="store_true")
    a = ap.parse_args()
    desktop = Atspi.get_desktop(0)
    apps, nodes = [], []
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is None:
            continue
        try:
            pid = app.get_process_id()
            name = app.get_name() or ""
        except Exception:
            continue
        apps.append({"name": name, "pid": pid})
        if a.list_apps or (a.pid is not None and pid != a.pid):
            continue
        walk(app, name, pid, a.scale, 0, nodes, a.limit)
    json.dump({"apps": apps, "nodes": nodes}, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
