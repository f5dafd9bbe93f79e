"""A second, coarse pass of the detector at half resolution, for elements wider than the training crops show whole.

Why: training crops are 320 px; an element wider than 0.8 of a crop is only ever seen zoomed out (Sampler), so at full
resolution a 400–800 px text field or drop-down is seen as text inside a frame and missed or mistyped, while the same
screen halved shows it at the size it was trained on. The product (src/perception/learned-detector.ts) runs the model on
the frame and on the frame halved (2×2 mean), keeps the coarse detections at least `min_width` px wide (full-resolution
pixels) with their own Platt calibration, and merges both with the overlap rule (IoU > nms_iou keeps the more confident).

This script fits the coarse pass on the **train families only** and writes it into ui-detector.json (`coarse`):
  - its Platt scaling on the calibration split's coarse detections at least `min_width` wide;
  - `min_width` among a few sizes tied to the crop (0.4, 0.6, 0.8 of 320 px), by the merged F1 on the calibration split;
then reports train-family validation and held-family figures, full resolution alone vs merged, side by side.

  /usr/bin/python3 training/detector/coarse.py [--fold C] [--eval-per-family 30] [--write]
"""
import argparse, json, os, random, sys, time
import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from calibration import confidence, fit_platt, labelled_logits  # noqa: E402
from common import FOLDS, TYPES, Detector, decode, family_of, iou, load_rgb, match, read_index, split_of  # noqa: E402
from onnx_init import load_onnx  # noqa: E402
from train import figures, infer  # noqa: E402

MODEL_DIR = os.path.join(ROOT, "models", "ui-detector")
CROP = 320
WIDTHS = [round(f * CROP) for f in (0.4, 0.6, 0.8)]


def halve(img):
    """2×2 mean (what the product computes), dropping an odd last row or column."""
    h, w = img.shape[0] // 2 * 2, img.shape[1] // 2 * 2
    x = img[:h, :w].astype(np.float32)
    return (x[0::2, 0::2] + x[1::2, 0::2] + x[0::2, 1::2] + x[1::2, 1::2]) / 4.0


def run(model, img, floor):
    hl, bx, sl, W, H = infer(model, img)
    return decode(hl, bx, sl, floor=floor, width=W, height=H)


def both(model, m, floor=0.05):
    img = load_rgb(os.path.join(m["_dir"], m["image"]))
    fine = run(model, img, floor)
    coarse = run(model, halve(img), floor)
    for d in coarse:
        d["bbox"] = [v * 2.0 for v in d["bbox"]]
    gts = [e for e in m["elements"] if e["type"] in TYPES]
    return m, fine, coarse, gts


def as_fine_logit(z, coarse_cal, fine_cal):
    """The logit that gives, under the fine calibration, the coarse calibration's confidence (so that one threshold and
    one figures() serve both passes)."""
    return (coarse_cal["a"] * z + coarse_cal["b"] - fine_cal["b"]) / fine_cal["a"]


def merged(fine, coarse, min_width, coarse_cal, fine_cal, nms_iou=0.5):
    cand = [dict(d, pass_="fine") for d in fine]
    cand += [dict(d, logit=as_fine_logit(d["logit"], coarse_cal, fine_cal), pass_="coarse") for d in coarse if d["bbox"][2] - d["bbox"][0] >= min_width]
    cand.sort(key=lambda d: -d["logit"])
    out = []
    for d in cand:
        if not any(iou(d["bbox"], o["bbox"]) > nms_iou for o in out):
            out.append(d)
    return out


def results(rows, fn):
    out = []
    for m, fine, coarse, gts in rows:
        dets = fn(fine, coarse)
        out.append((m, dets, gts, match(dets, gts)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.path.join(ROOT, "training", "data"))
    ap.add_argument("--fold", default="C", choices=sorted(FOLDS))
    ap.add_argument("--model-dir", default=MODEL_DIR)
    ap.add_argument("--eval-per-family", type=int, default=30)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--write", action="store_true", help="write the fitted coarse pass into ui-detector.json")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    meta_path = os.path.join(a.model_dir, "ui-detector.json")
    with open(meta_path) as f:
        meta = json.load(f)
    tr = meta["training"]
    model = Detector(tr["width"], tr["arch"])
    load_onnx(model, os.path.join(a.model_dir, "ui-detector.onnx"))
    model.eval()
    fine_cal = {"a": meta["calibration"]["a"], "b": meta["calibration"]["b"]}
    thr = meta["threshold"]
    metas = read_index(a.data)
    rng = random.Random(a.seed)
    groups = {}
    for m in metas:
        groups.setdefault((split_of(m, a.fold), family_of(m)), []).append(m)
    pick = {k: rng.sample(v, min(len(v), a.eval_per_family)) for k, v in sorted(groups.items()) if k[0] in ("calib", "trainval", "held")}
    t0 = time.time()
    rows = {}
    n = sum(len(v) for v in pick.values())
    for k, ms in pick.items():
        rows[k] = [both(model, m) for m in ms]
        done = sum(len(v) for v in rows.values())
        print(f"\r  {done}/{n} screens, {time.time() - t0:.0f} s", end="", flush=True)
    print()
    calib = [r for (s, _), v in rows.items() if s == "calib" for r in v]
    fine_only = lambda fine, coarse: fine
    best = None
    for mw in WIDTHS:
        wide = results([(m, [], [d for d in c if d["bbox"][2] - d["bbox"][0] >= mw], g) for m, _, c, g in calib], lambda f, c: c)
        z, y = labelled_logits(wide)
        cal = fit_platt(z, y)
        f1 = figures(results(calib, lambda f, c, mw=mw, cal=cal: merged(f, c, mw, cal, fine_cal)), fine_cal, thr)["f1"]
        print(f"min_width {mw}: coarse Platt a {cal['a']:.3f} b {cal['b']:.3f} on {cal['n']} detections ({cal['positives']} right); merged F1 on the calibration split {f1:.4f}")
        if best is None or f1 > best[0]:
            best = (f1, mw, cal)
    f1c = figures(results(calib, fine_only), fine_cal, thr)["f1"]
    _, mw, cal = best
    print(f"chosen min_width {mw} (calibration split F1: full resolution alone {f1c:.4f}, merged {best[0]:.4f})")
    report = {}
    for (s, fam), v in sorted(rows.items(), key=lambda kv: (kv[0][0] != "trainval", kv[0][1])):
        if s == "calib":
            continue
        a1 = figures(results(v, fine_only), fine_cal, thr)
        a2 = figures(results(v, lambda f, c: merged(f, c, mw, cal, fine_cal)), fine_cal, thr)
        split = "train" if s == "trainval" else "held"
        report[fam] = {"split": split, "screens": len(v), "fine": a1, "merged": a2}
        rt = lambda f: "/".join(f"{f['recall_by_type'][t]:.2f}" if f["recall_by_type"][t] is not None else "-" for t in ("text_input", "dropdown", "checkbox", "radio_button", "tab"))
        print(f"{split:5} {fam:22} F1 {a1['f1']:.3f} → {a2['f1']:.3f}  type {a1['type_accuracy']:.3f} → {a2['type_accuracy']:.3f}  recall text/drop/check/radio/tab {rt(a1)} → {rt(a2)}")
    for split in ("train", "held"):
        fs = [r for r in report.values() if r["split"] == split]
        if fs:
            mean = lambda k, q: round(sum(r[k][q] for r in fs) / len(fs), 4)
            print(f"mean {split} ({len(fs)} families): F1 {mean('fine', 'f1')} → {mean('merged', 'f1')}, type {mean('fine', 'type_accuracy')} → {mean('merged', 'type_accuracy')}")
    out = {"coarse": {"scale": 0.5, "resample": "2x2 mean", "min_width": mw, "calibration": {"method": "platt", "a": cal["a"], "b": cal["b"], "detections": cal["n"], "right": cal["positives"]},
                      "fitted_on": "calibration split of the train families (coarse detections at least min_width wide; min_width by the merged F1 there)"},
           "families": report}
    os.makedirs(os.path.join(HERE, "runs"), exist_ok=True)
    with open(os.path.join(HERE, "runs", "coarse-report.json"), "w") as f:
        json.dump(out, f, indent=1)
    if a.write:
        meta["coarse"] = out["coarse"]
        with open(meta_path, "w") as f:
            json.dump(meta, f, indent=1)
        print(f"wrote the coarse pass into {meta_path}")


if __name__ == "__main__":
    main()
