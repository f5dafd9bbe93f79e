"""Qt's own standard icons (QStyle.standardIcon, the Fusion style's built-in pixmaps), rendered for the
icon classifier's HELD measure only: Qt is a held family of the detector, and these icons are never
training data (training/icons/build.ts --held). Each is named by what it shows, from Qt's enum name.
Usage: python3 qt_icons.py OUT_DIR  (writes OUT_DIR/<enum>-<size>.png and OUT_DIR/qt-icons.json)."""
import json
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PyQt5.QtWidgets import QApplication, QStyle, QStyleFactory  # noqa: E402

CLASSES = {
    "SP_DialogSaveButton": "save", "SP_DialogOpenButton": "folder", "SP_DirIcon": "folder", "SP_DirOpenIcon": "folder",
    "SP_DirClosedIcon": "folder", "SP_TrashIcon": "delete", "SP_BrowserReload": "refresh", "SP_ArrowBack": "arrow_left",
    "SP_ArrowLeft": "arrow_left", "SP_ArrowForward": "arrow_right", "SP_ArrowRight": "arrow_right", "SP_ArrowUp": "arrow_up",
    "SP_ArrowDown": "arrow_down", "SP_DialogHelpButton": "help", "SP_MessageBoxQuestion": "help", "SP_DialogCloseButton": "close",
    "SP_TitleBarCloseButton": "close", "SP_MediaPlay": "play", "SP_FileIcon": "file", "SP_ComputerIcon": "computer",
    "SP_MessageBoxInformation": "info", "SP_MessageBoxWarning": "warning", "SP_DirHomeIcon": "home", "SP_DesktopIcon": "computer",
    "SP_DriveHDIcon": "other", "SP_DriveNetIcon": "other", "SP_DriveCDIcon": "other", "SP_MediaPause": "other",
    "SP_MediaStop": "other", "SP_MediaVolume": "other", "SP_DialogApplyButton": "other", "SP_DialogOkButton": "other",
    "SP_FileDialogDetailedView": "other", "SP_FileDialogListView": "other", "SP_FileDialogContentsView": "other",
    "SP_FileDialogInfoView": "other", "SP_MediaSkipForward": "other", "SP_MediaSkipBackward": "other", "SP_DialogYesButton": "other",
    "SP_DialogNoButton": "other", "SP_FileLinkIcon": "other", "SP_TitleBarMenuButton": "other", "SP_TitleBarShadeButton": "other",
}

# Those that show a figure of the extra model (icon-extra: training/icons/build.ts EXTRA_ICON_KEYWORDS), "other" above.
EXTRA_CLASSES = {"SP_DialogApplyButton": "check"}


def main() -> None:
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    app = QApplication(sys.argv[:1])
    style = QStyleFactory.create("Fusion")
    app.setStyle(style)
    items = []
    for name, cls in CLASSES.items():
        icon = style.standardIcon(getattr(QStyle, name))
        for size in (16, 22, 24, 32):
            pm = icon.pixmap(size, size)
            if pm.isNull():
                continue
            path = os.path.join(out, f"{name}-{size}.png")
            pm.save(path)
            items.append({"file": os.path.basename(path), "enum": name, "class": cls, "extra_class": EXTRA_CLASSES.get(name, "other"), "size": size})
    with open(os.path.join(out, "qt-icons.json"), "w") as f:
        json.dump(items, f, indent=1)
    print(f"{len(items)} Qt icons in {out}")


main()
