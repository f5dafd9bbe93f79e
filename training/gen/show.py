"""Draws a generated screen's boxes (ImageMagick): python3 show.py X.json OUT.png"""
import json, subprocess, sys
COLORS = {"button": "red", "text_input": "blue", "dropdown": "orange", "tab": "magenta", "checkbox": "green", "radio_button": "cyan", "link": "purple", "generic_interactive": "yellow"}
m = json.load(open(sys.argv[1]))
img = sys.argv[1][:-5] + ".png"
args = ["convert", img, "-fill", "none", "-strokewidth", "1"]
for e in m["elements"]:
    x1, y1, x2, y2 = e["bbox"]
    args += ["-stroke", COLORS[e["type"]], "-draw", f"rectangle {x1},{y1} {x2 - 1},{y2 - 1}"]
subprocess.run(args + [sys.argv[2]], check=True)
