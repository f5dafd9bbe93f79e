"""Trains the UI element detector on the generated screens (training/data), resumable, then calibrates, evaluates per
family and exports ONNX.

  npm run train -- detector                 (= /usr/bin/python3 training/detector/train.py)
  python3 train.py --hours 1.5 --fold A      stop training after 1.5 h of wall time (then calibrate, evaluate, export)
  python3 train.py --finish                  calibrate, evaluate and export the last checkpoint without training more
  python3 train.py --init-onnx models/ui-detector/ui-detector.onnx
                                             continue from the committed model's weights when there is no last.pt (onnx_init.py)

Rare types: half the crops (--balanced) are centred near an element of a type drawn uniformly, and each type's heat-map
loss is weighted by (mean count / its count) ** 0.5 (--class-weight-power); see models/ui-detector/MODEL_CARD.md.

Reproducible: fixed seeds, the data manifest's hash recorded with the model, one thread (torch.set_num_threads(1), the
machine is shared). Checkpoints in training/detector/runs/<fold>/ (last.pt every 100 steps or 3 minutes); a rerun resumes from it.
"""
import argparse, hashlib, json, math, os, random, subprocess, sys, time
import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from calibration import confidence, fit_platt, fit_temperature, labelled_logits, reliability  # noqa: E402
from common import ALIGN, ARCHS, FOLDS, STATES, STRIDE, TYPES, Detector, decode, family_of, keypoint, KEYPOINT_SIDE, load_rgb, match, pad_to, read_index, split_of  # noqa: E402

MODEL_DIR = os.path.join(ROOT, "models", "ui-detector")


# Share of the random crops per rendering stack (then evenly over its families): HTML has most of the families and the most
# varied looks, the dev corpus of real apps few screens (66 trained on) that would be seen too often at an equal share.
# Fixed before training; not chosen on any held family's figures.
STACK_WEIGHTS = {"html": 2.0, "gtk": 1.0, "tk": 1.0, "qt": 1.0, "dev": 0.5}


def gaussian_targets(elements, H, W, keypoints=True, ignored=()):
    """Heat targets (8×h×w, CenterNet Gaussians at each element's key point (common.keypoint) with σ = side/6 of the
    key region in cells), and per cell the box sides and state targets of the element owning it (smaller elements win),
    with masks; and a mask of the cells where the heat map has no negative loss (`ignored` boxes: elements only partly
    inside the crop)."""
    h, w = H // STRIDE, W // STRIDE
    heat = np.zeros((len(TYPES), h, w), np.float32)
    box = np.zeros((4, h, w), np.float32)
    boxw = np.zeros((h, w), np.float32)
    state = np.zeros((len(STATES), h, w), np.float32)
    smask = np.zeros((len(STATES), h, w), np.float32)
    gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
    cyc, cxc = (gy + 0.5) * STRIDE, (gx + 0.5) * STRIDE
    ign = np.zeros((h, w), np.float32)
    for x1, y1, x2, y2 in ignored:
        ign[(cxc >= x1) & (cxc <= x2) & (cyc >= y1) & (cyc <= y2)] = 1.0
    for e in sorted(elements, key=lambda e: -(e["bbox"][2] - e["bbox"][0]) * (e["bbox"][3] - e["bbox"][1])):
        x1, y1, x2, y2 = e["bbox"]
        ci = TYPES.index(e["type"])
        kx, ky, kw, kh = keypoint(e, keypoints)
        cx, cy = kx / STRIDE, ky / STRIDE
        sx, sy = max(0.6, kw / STRIDE / 6), max(0.6, kh / STRIDE / 6)
        g = np.exp(-(((gx + 0.5 - cx) ** 2) / (2 * sx * sx) + ((gy + 0.5 - cy) ** 2) / (2 * sy * sy)))
        icx, icy = min(w - 1, max(0, int(cx))), min(h - 1, max(0, int(cy)))
        g[icy, icx] = 1.0
        heat[ci] = np.maximum(heat[ci], g)
        inside = (cxc > x1) & (cxc < x2) & (cyc > y1) & (cyc < y2) & (g > 0.3)
        inside[icy, icx] = True
        box[0][inside] = (cxc - x1)[inside]
        box[1][inside] = (cyc - y1)[inside]
        box[2][inside] = (x2 - cxc)[inside]
        box[3][inside] = (y2 - cyc)[inside]
        boxw[inside] = g[inside]
        st = e.get("state") or {}
        known = {"disabled": True, "checked": e["type"] in ("checkbox", "radio_button") or "checked" in st, "selected": e["type"] == "tab"}
        for si, s in enumerate(STATES):
            smask[si][inside] = 1.0 if known[s] else 0.0
            state[si][inside] = 1.0 if st.get(s) else 0.0
    return heat, box, boxw, state, smask, ign


class Sampler:
    """Random crops (with a scale jitter) of the training screens, families sampled evenly.

    With probability `balanced`, a crop is instead centred near one element of a type drawn uniformly among the
    eight types (then a family evenly among those that have that type, then a screen of it that has one): every type
    gets the same share of these crops whatever its frequency, so a rare small type (radio button: 1 element in 15)
    is in as many crops as buttons. The element lands at a uniformly random place of the crop's inner 80 %, so the
    crop's position tells nothing about where elements are. No family, type count or threshold is tuned here."""

    def __init__(self, metas, crop, seed, balanced=0.0, augment=False, keypoints=True, wide_scales=False, cache_gb=0.0, images=None):
        self.rng = random.Random(seed)
        self.images = images or {}
        self.crop = crop
        self.balanced = balanced
        self.augment = augment
        self.keypoints = keypoints
        self.wide_scales = wide_scales
        self.cache, self.cache_left = {}, int(cache_gb * 1e9)
        self.by_fam = {}
        self.by_type = {}  # type → family → [(meta, element index)]
        for m in metas:
            fam = family_of(m) if m["family"] == "html" else m["family"]
            self.by_fam.setdefault(fam, []).append(m)
            for i, e in enumerate(m["elements"]):
                if e["type"] in TYPES:
                    self.by_type.setdefault(e["type"], {}).setdefault(fam, []).append((m, i))
        self.fams = sorted(self.by_fam)
        # Random crops: a rendering stack first (weights STACK_WEIGHTS), then one of its families evenly, so that the
        # many CSS kits do not drown the toolkits (GTK would get 1 crop in 20 otherwise).
        self.stacks = {}
        for f in self.fams:
            self.stacks.setdefault(self.by_fam[f][0]["family"], []).append(f)
        self.stack_names = sorted(self.stacks)
        self.stack_w = [STACK_WEIGHTS.get(k, 1.0) for k in self.stack_names]
        self.types = [t for t in TYPES if t in self.by_type]

    def pick(self):
        """(meta, element to centre on or None)."""
        if self.balanced > 0 and self.types and self.rng.random() < self.balanced:
            per_fam = self.by_type[self.rng.choice(self.types)]
            m, i = self.rng.choice(per_fam[self.rng.choice(sorted(per_fam))])
            return m, m["elements"][i]
        stack = self.rng.choices(self.stack_names, weights=self.stack_w)[0]
        return self.rng.choice(self.by_fam[self.rng.choice(self.stacks[stack])]), None

    def image(self, m):
        """The screen's pixels, kept in memory while the cache has room (decoding is a quarter of a step otherwise)."""
        img = self.images.get(m["id"])
        if img is None:
            img = self.cache.get(m["id"])
        if img is None:
            img = load_rgb(os.path.join(m["_dir"], m["image"]))
            if img.nbytes <= self.cache_left:
                self.cache[m["id"]] = img
                self.cache_left -= img.nbytes
        return img

    def scale(self, m):
        """The crop's zoom. Wide: screens drawn at ×2 are also seen near ×1 and the others near ×1.5, so that the size
        of a widget tells less about its family; else the first version's jitter."""
        if not self.wide_scales:
            return self.rng.choice([1.0, 1.0, 0.75, 0.85, 1.15, 1.3])
        if (m.get("variant") or {}).get("scale", 1) >= 1.75:
            return self.rng.choice([0.5, 0.5, 0.6, 0.75, 1.0])
        return self.rng.choice([0.5, 0.75, 0.85, 1.0, 1.0, 1.0, 1.15, 1.3, 1.5])

    def photometric(self, out):
        """Colour changes that keep every box: channel order, inversion (a light theme drawn dark and the reverse),
        grey, contrast and brightness. Themes and palettes never seen in training then look less new."""
        r = self.rng
        if r.random() < 0.5:
            out = out[:, :, r.sample([0, 1, 2], 3)]
        if r.random() < 0.25:
            out = 255 - out
        if r.random() < 0.1:
            g = (out.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32))
            out = np.repeat(g[:, :, None], 3, axis=2)
        if r.random() < 0.3:
            c, b = r.uniform(0.6, 1.2), r.uniform(-30, 30)
            out = (out.astype(np.float32) - 128.0) * c + 128.0 + b
        return np.ascontiguousarray(np.clip(out, 0, 255).astype(np.uint8))

    def one(self):
        m, target = self.pick()
        img = self.image(m)
        els = [e for e in m["elements"] if e["type"] in TYPES]
        s = self.scale(m)
        # Crop a (crop / s)-sided window of the screen, then resize only that window (not the whole screen) to crop × crop.
        H, W = img.shape[:2]
        c = self.crop
        cs = int(round(c / s))
        if target is not None:
            # An element wider than the crop is zoomed out until it fits (else wide fields and full-width buttons would
            # never be seen whole, and only ever as the ignored part of a crop).
            tw = target["bbox"][2] - target["bbox"][0]
            if self.wide_scales and tw * s > 0.8 * self.crop:
                s = max(0.3, 0.8 * self.crop / tw)
                cs = int(round(self.crop / s))
            ox, oy = self.around(target["bbox"], cs)
        else:
            ox = self.rng.randint(0, max(0, W - cs)) if W > cs else -self.rng.randint(0, cs - W)
            oy = self.rng.randint(0, max(0, H - cs)) if H > cs else -self.rng.randint(0, cs - H)
        win = np.zeros((cs, cs, 3), np.uint8)
        sx0, sy0 = max(0, ox), max(0, oy)
        sx1, sy1 = min(W, ox + cs), min(H, oy + cs)
        win[sy0 - oy:sy1 - oy, sx0 - ox:sx1 - ox] = img[sy0:sy1, sx0:sx1]
        if cs != c:
            t = torch.from_numpy(win)[None].float().permute(0, 3, 1, 2)  # channels-last: the same values, ~10× faster than converting the permuted view
            t = F.interpolate(t, size=(c, c), mode="bilinear", align_corners=False)
            out = t[0].permute(1, 2, 0).clamp(0, 255).byte().numpy()
        else:
            out = win
        k = c / cs
        kept, ignored = [], []
        for e in els:  # boxes in the crop's pixels; kept when at least 60 % of the element is inside, else its visible part is ignored by the loss
            x1, y1, x2, y2 = (e["bbox"][0] - ox) * k, (e["bbox"][1] - oy) * k, (e["bbox"][2] - ox) * k, (e["bbox"][3] - oy) * k
            a = (x2 - x1) * (y2 - y1)
            cx1, cy1, cx2, cy2 = max(0, x1), max(0, y1), min(c, x2), min(c, y2)
            if cx2 - cx1 < 2 or cy2 - cy1 < 2:
                continue
            side = KEYPOINT_SIDE.get(e["type"]) if self.keypoints else None
            # Too little of it inside, or its key point (indicator, arrow) cut off: neither a positive nor a negative.
            if (cx2 - cx1) * (cy2 - cy1) < 0.6 * a or (side == "start" and x1 < 0) or (side == "end" and x2 > c):
                ignored.append([cx1, cy1, cx2, cy2])
                continue
            kept.append(dict(e, bbox=[cx1, cy1, cx2, cy2]))
        if self.augment:
            out = self.photometric(out)
        return out, kept, ignored

    def around(self, bbox, cs):
        """Window origin (ox, oy) of a cs-sided window where the element's centre falls at a uniform place of its
        inner 80 % (the window may stick out of the screen: the outside is black, as for small screens)."""
        x1, y1, x2, y2 = bbox
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        fx, fy = self.rng.uniform(0.1, 0.9), self.rng.uniform(0.1, 0.9)
        return int(round(cx - fx * cs)), int(round(cy - fy * cs))

    def batch(self, n, raw=False):
        """(N×3×crop×crop float pixels, or N×crop×crop×3 uint8 when raw (a quarter of the bytes between processes, laid
        out on the GPU), targets)."""
        imgs, tg = [], []
        for _ in range(n):
            img, els, ign = self.one()
            imgs.append(img)
            tg.append(gaussian_targets(els, self.crop, self.crop, self.keypoints, ign))
        x = torch.from_numpy(np.stack(imgs))
        x = x if raw else x.permute(0, 3, 1, 2).float()
        return x, [torch.from_numpy(np.stack([t[k] for t in tg])) for k in range(6)]


def preload(metas, workers):
    """Every screen decoded once, by a pool of processes, before the crop workers start: they fork from this process and
    share the pixels instead of each decoding and caching its own copy (a GPU run reads crops far faster than one
    process decodes screens)."""
    import multiprocessing as mp
    t0 = time.time()
    with mp.get_context("fork").Pool(max(1, workers)) as pool:
        imgs = pool.map(load_rgb, [os.path.join(m["_dir"], m["image"]) for m in metas], chunksize=8)
    out = {m["id"]: im for m, im in zip(metas, imgs)}
    print(f"decoded {len(out)} screens ({sum(im.nbytes for im in imgs) / 1e9:.1f} GB) in {time.time() - t0:.0f} s", flush=True)
    return out


class CropStream(torch.utils.data.IterableDataset):
    """Batches of random crops from several worker processes (DataLoader), each with a Sampler seeded by the run's seed,
    the step it starts at and its worker number: the stream is the same for the same seed, step and worker count."""

    def __init__(self, make_sampler, batch):
        super().__init__()
        self.make_sampler, self.batch = make_sampler, batch

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        torch.set_num_threads(1)
        sampler = self.make_sampler(info.id if info else 0)
        while True:
            yield sampler.batch(self.batch, raw=True)


def batches(make_sampler, batch, workers):
    """An endless iterator of (x, targets): from the main process (workers 0, the CPU runs) or from worker processes."""
    if workers <= 0:
        sampler = make_sampler(None)
        while True:
            yield sampler.batch(batch)
    loader = torch.utils.data.DataLoader(CropStream(make_sampler, batch), batch_size=None, num_workers=workers,
                                         prefetch_factor=4, persistent_workers=True, pin_memory=torch.cuda.is_available(),
                                         multiprocessing_context="fork")
    yield from loader


def class_weights(metas, power):
    """Per-type weights of the heat-map loss, (mean count / count of the type) ** power over the given (training)
    screens, normalised to a mean of 1 over the types; power 0 gives all 1 (the loss of the first version)."""
    n = np.zeros(len(TYPES))
    for m in metas:
        for e in m["elements"]:
            if e["type"] in TYPES:
                n[TYPES.index(e["type"])] += 1
    w = (np.maximum(n, 1).mean() / np.maximum(n, 1)) ** power if power else np.ones(len(TYPES))
    w = w / w.mean()
    return torch.tensor(w, dtype=torch.float32)


def losses(out, targets, cls_w=None):
    heat_l, box_p, state_l = out
    heat, box, boxw, state, smask = targets[:5]
    p = torch.sigmoid(heat_l).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1.0).float()
    neg = 1.0 - pos
    if len(targets) > 5:  # cells of elements only partly in the crop: no negative loss (the map may or may not fire there)
        neg = neg * (1.0 - targets[5][:, None])
    per = pos * (1 - p) ** 2 * torch.log(p) + neg * (1 - heat) ** 4 * p ** 2 * torch.log(1 - p)
    if cls_w is not None:  # each type's map weighted (rare types count more); normalised by the weighted positives
        w = cls_w.view(1, -1, 1, 1)
        focal = -(w * per).sum() / (w * pos).sum().clamp(min=1.0)
    else:
        focal = -per.sum() / pos.sum().clamp(min=1.0)
    w = boxw[:, None]
    lbox = (w * (torch.log(box_p.clamp(min=0.5)) - torch.log(box.clamp(min=0.5))).abs()).sum() / (w.sum() * 4).clamp(min=1.0)
    sw = smask * boxw[:, None]
    lstate = (sw * F.binary_cross_entropy_with_logits(state_l, state, reduction="none")).sum() / sw.sum().clamp(min=1.0)
    return focal, lbox, lstate


def init_from_onnx(model, path, sampler, state, bn_batches=6):
    """Load an exported model's weights (onnx_init.py), re-estimate the BatchNorm statistics on training crops (eval
    outputs unchanged), check the result against the ONNX graph itself on a fixed input, and note it in `state`."""
    import onnx
    from onnx_init import load_onnx, max_abs_diff, recalibrate_bn
    load_onnx(model, path)
    proto = onnx.load(path)
    x = torch.rand(1, 3, 256, 320, generator=torch.Generator().manual_seed(7)) * 255.0
    d0 = max_abs_diff(model, proto, x)
    recalibrate_bn(model, [sampler.batch(8)[0] for _ in range(bn_batches)])
    d1 = max_abs_diff(model, proto, x)
    names = ["heat_logits", "box", "state_logits"]
    print(f"initialised from {path}: max abs difference to the ONNX graph on a fixed 320×256 input: "
          + ", ".join(f"{n} {v:.2e}" for n, v in zip(names, d1)) + f" (before the BatchNorm re-estimation: {max(d0):.2e})", flush=True)
    if max(d1[0], d1[2]) > 1e-3 or d1[1] > 1e-2:
        sys.exit(f"{path}: the weights do not reproduce the ONNX outputs (max abs diff {d1}): not the same network")
    with open(path, "rb") as f:
        state["init"] = {"onnx": os.path.relpath(path, ROOT), "onnx_sha256": hashlib.sha256(f.read()).hexdigest(), "max_abs_diff": dict(zip(names, d1))}


def manifest_hash(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def infer(model, img):
    H, W = img.shape[:2]
    x = torch.from_numpy(pad_to(img)).permute(2, 0, 1)[None].float()
    with torch.no_grad():
        hl, bx, sl = model(x)
    return hl[0].numpy(), bx[0].numpy(), sl[0].numpy(), W, H


def collect(model, metas, floor=0.05):
    """Detections and their match to the ground truth on each screen: [(meta, dets, gts, pairs)]."""
    out = []
    for i, m in enumerate(metas):
        img = load_rgb(os.path.join(m["_dir"], m["image"]))
        hl, bx, sl, W, H = infer(model, img)
        dets = decode(hl, bx, sl, floor=floor, width=W, height=H)
        gts = [e for e in m["elements"] if e["type"] in TYPES]
        out.append((m, dets, gts, match(dets, gts)))
        if (i + 1) % 25 == 0:
            print(f"    {i + 1}/{len(metas)} screens", flush=True)
    return out


def figures(results, T, thr):
    tp = fp = fn = typed = 0
    per_type = {t: [0, 0] for t in TYPES}  # found, total (type-agnostic IoU match, right type)
    confs, right = [], []
    for m, dets, gts, pairs in results:
        kept = [i for i, d in enumerate(dets) if confidence(d["logit"], T) >= thr]
        kd = [dets[i] for i in kept]
        pr = match(kd, gts)
        ok = {di for di, gj in pr if kd[di]["type"] == gts[gj]["type"]}
        tp += len(pr)
        fp += len(kd) - len(pr)
        fn += len(gts) - len(pr)
        typed += len(ok)
        for di, gj in pr:
            if kd[di]["type"] == gts[gj]["type"]:
                per_type[gts[gj]["type"]][0] += 1
        for g in gts:
            per_type[g["type"]][1] += 1
        okall = {di for di, gj in pairs if dets[di]["type"] == gts[gj]["type"]}  # every proposal down to the floor
        for di, d in enumerate(dets):
            confs.append(confidence(d["logit"], T))
            right.append(1.0 if di in okall else 0.0)
    table, ece = reliability(confs, right)
    P = tp / max(1, tp + fp)
    R = tp / max(1, tp + fn)
    return {"screens": len(results), "elements": tp + fn, "precision": round(P, 4), "recall": round(R, 4),
            "f1": round(2 * P * R / max(1e-9, P + R), 4), "type_accuracy": round(typed / max(1, tp), 4),
            "recall_by_type": {t: (round(v[0] / v[1], 3) if v[1] else None) for t, v in per_type.items()},
            "reliability": table, "ece": ece}


def best_threshold(results, T):
    best = (-1, 0.5)
    for thr in np.linspace(0.1, 0.9, 33):
        f = figures(results, T, float(thr))["f1"]
        best = max(best, (f, float(thr)))
    return best[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.path.join(ROOT, "training", "data"))
    ap.add_argument("--manifest", default=os.path.join(ROOT, "training", "data-manifest.json"))
    ap.add_argument("--fold", default="A", choices=sorted(FOLDS))
    ap.add_argument("--hours", type=float, default=2.0, help="wall-clock training budget (all sessions of a resumed run together)")
    ap.add_argument("--steps", type=int, default=12000)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--crop", type=int, default=320)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--eval-per-family", type=int, default=60)
    ap.add_argument("--finish", action="store_true", help="no more training: calibrate, evaluate, export")
    ap.add_argument("--from", dest="from_ck", default="best", choices=["best", "last"], help="checkpoint calibrated, evaluated and exported (best: lowest train-family validation loss)")
    ap.add_argument("--val-every", type=int, default=250, help="steps between validation losses on fixed train-family validation crops (best.pt keeps the lowest)")
    ap.add_argument("--val-crops", type=int, default=48)
    ap.add_argument("--no-export", action="store_true")
    ap.add_argument("--export-dir", default=MODEL_DIR, help="where ui-detector.onnx / .json are written (default the committed model's folder)")
    ap.add_argument("--run-dir", help="checkpoints and report.json here instead of training/detector/runs/<fold> (e.g. to evaluate the committed model: --init-onnx M --steps 0 --no-export)")
    ap.add_argument("--init-onnx", metavar="MODEL.onnx", help="start (when there is no last.pt to resume) from this exported model's weights instead of from zero, "
                    "e.g. models/ui-detector/ui-detector.onnx; its validation loss is measured first and best.pt must beat it")
    ap.add_argument("--balanced", type=float, default=0.5, help="share of the crops centred near an element of a type drawn uniformly among the types (0: all random crops, as in the first version)")
    ap.add_argument("--class-weight-power", type=float, default=0.5, help="heat-map loss weight per type = (mean count / type count) ** this, over the training screens (0: equal weights)")
    ap.add_argument("--arch", default="v2", choices=ARCHS, help="network (common.Detector); v1 with --width 1 is the first version's")
    ap.add_argument("--width", type=float, default=2.0, help="channel multiplier")
    ap.add_argument("--keypoints", default="on", choices=["on", "off"], help="peaks of check boxes / radios at their indicator and drop-downs at their arrow (common.keypoint); off: every peak at the centre (v1)")
    ap.add_argument("--augment", default="on", choices=["on", "off"], help="colour augmentation (channel order, inversion, grey, contrast) and the wide scale jitter")
    ap.add_argument("--threads", type=int, default=2, help="torch threads (2 on an otherwise idle 2-core machine; 1 when it is shared)")
    ap.add_argument("--cache-gb", type=float, default=6.0, help="decoded screens kept in memory")
    ap.add_argument("--device", default="cpu", help="cpu, or cuda on a machine with a GPU (train there on a packed copy of the data: pack.py)")
    ap.add_argument("--workers", type=int, default=0, help="processes drawing crops (0: the training process itself, as on 2 cores); with workers every training screen is decoded first")
    ap.add_argument("--train-only", action="store_true", help="stop after training (checkpoints only): calibrate, evaluate and export later with --finish, e.g. after a run on a GPU machine")
    ap.add_argument("--warmup", type=int, default=0, help="steps of linear learning-rate warm-up (a large batch continuing a trained model)")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    dev = torch.device(a.device)
    if dev.type == "cuda":
        torch.backends.cudnn.benchmark = True  # fixed crop size
    torch.manual_seed(a.seed)
    np.random.seed(a.seed)
    run = a.run_dir or os.path.join(HERE, "runs", a.fold)
    os.makedirs(run, exist_ok=True)
    if not os.path.exists(a.manifest):
        sys.exit(f"no data manifest at {a.manifest}: run `npm run train -- data` first")
    mhash = manifest_hash(a.manifest)
    with open(a.manifest) as f:
        listed = {r["id"]: r.get("image_sha256", r["png_sha256"]) for r in json.load(f)["files"]}  # a packed copy's WebP has its own hash
    metas = [m for m in read_index(a.data) if m["id"] in listed]  # exactly the manifest's screens
    if len(metas) < len(listed):
        sys.exit(f"{len(listed) - len(metas)} screens of the manifest are missing from {a.data}: run `npm run train -- data`")
    differ = 0
    for m in metas:
        with open(os.path.join(m["_dir"], m["image"]), "rb") as fh:
            differ += hashlib.sha256(fh.read()).hexdigest() != listed[m["id"]]
    if differ:
        print(f"warning: {differ} of {len(metas)} images differ from the manifest's hashes (other package versions or fonts): the run is not an exact reproduction", flush=True)
    split = {m["id"]: split_of(m, a.fold) for m in metas}
    train = [m for m in metas if split[m["id"]] == "train"]
    print(f"fold {a.fold}: held {FOLDS[a.fold]['held']}; {len(train)} training screens, {sum(1 for v in split.values() if v == 'calib')} calibration, "
          f"{sum(1 for v in split.values() if v == 'trainval')} train-family validation, {sum(1 for v in split.values() if v == 'held')} held; manifest {mhash[:12]}", flush=True)
    net = lambda: Detector(a.width, a.arch)
    kp, aug = a.keypoints == "on", a.augment == "on"
    model = net()
    print(f"architecture {a.arch}, width {a.width}, key points {a.keypoints}, augmentation {a.augment}, {a.threads} thread(s)", flush=True)
    print(f"parameters: {sum(p.numel() for p in model.parameters())}", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    state = {"step": 0, "seconds": 0.0, "crops": 0}
    ck = os.path.join(run, "last.pt")
    cls_w = class_weights(train, a.class_weight_power)
    print("heat-map loss weight per type: " + ", ".join(f"{t} {w:.2f}" for t, w in zip(TYPES, cls_w.tolist())), flush=True)
    resumed = os.path.exists(ck)
    if resumed:
        c = torch.load(ck, map_location="cpu")
        model.load_state_dict(c["model"])
        if "opt" in c:  # best.pt carries no optimiser state: continuing from it starts the moments afresh
            opt.load_state_dict(c["opt"])
        state = c["state"]
        print(f"resumed at step {state['step']} ({state['seconds'] / 3600:.2f} h trained)", flush=True)
    elif a.init_onnx and not a.finish:
        init_from_onnx(model, a.init_onnx, Sampler(train, a.crop, f"{a.seed}:bn", a.balanced, keypoints=kp), state)
    model.to(dev)
    for st in opt.state.values():  # a resumed optimiser's moments follow the weights to the device
        for k, v in st.items():
            if torch.is_tensor(v) and k != "step":
                st[k] = v.to(dev)
    images = preload(train, a.workers) if a.workers > 0 and not a.finish else None
    make_sampler = lambda w: Sampler(train, a.crop, f"{a.seed}:{state['step']}" + ("" if w is None else f":w{w}"), a.balanced, augment=aug, keypoints=kp,
                                     wide_scales=aug, cache_gb=a.cache_gb if a.workers <= 0 else 0.0, images=images)
    # Fixed validation crops from the train families' validation split (never a held family, never trained on), drawn
    # the same way as the training crops (the same share centred on a type drawn uniformly).
    vms = [m for m in metas if split[m["id"]] == "trainval"]
    val = Sampler(vms, a.crop, f"{a.seed}:val", a.balanced, keypoints=kp).batch(a.val_crops) if vms else None
    best_ck = os.path.join(run, "best.pt")

    def val_loss(net=model):
        net.eval()
        tot = 0.0
        with torch.no_grad():
            for k in range(0, a.val_crops, 8):
                x = val[0][k:k + 8].to(dev)
                fl, lb, ls = losses(net(x), [t[k:k + 8].to(dev) for t in val[1]], cls_w.to(dev))
                tot += (fl + lb + 0.5 * ls).item() * len(x)
        net.train()
        return tot / a.val_crops

    best_val = float("inf")
    if os.path.exists(best_ck) and val is not None:
        c = torch.load(best_ck, map_location="cpu")
        best_val = c["val_loss"]
        if c.get("manifest") != mhash:  # other validation crops: measure the kept checkpoint on these ones
            other = net()
            other.load_state_dict(c["model"])
            other.to(dev)
            best_val = val_loss(other)
            c["val_loss"], c["manifest"] = best_val, mhash
            torch.save(c, best_ck)
            print(f"best.pt (step {c['state']['step']}) on this manifest's validation crops: {best_val:.4f}", flush=True)
    elif val is not None and not resumed and a.init_onnx and not a.finish:
        # The starting point (the exported model) is the checkpoint to beat: best.pt holds it until a later one is better.
        best_val = val_loss()
        state.setdefault("val", []).append([state["step"], round(best_val, 4)])
        torch.save({"model": model.state_dict(), "state": dict(state), "val_loss": best_val, "manifest": mhash}, best_ck)
        print(f"  validation loss of the initial model ({os.path.basename(a.init_onnx)}): {best_val:.4f} (best.pt)", flush=True)
    t_start = time.time() - state["seconds"]
    model.train()
    last_print = last_save = time.time()
    run_loss = None
    stream = batches(make_sampler, a.batch, a.workers) if not a.finish else None
    cls_dev = cls_w.to(dev)
    while not a.finish and state["step"] < a.steps and (time.time() - t_start) < a.hours * 3600:
        # Cosine schedule over the step budget or the time budget, whichever runs out first (a time-boxed run on a shared
        # machine still ends with a low learning rate).
        done = max(state["step"] / a.steps, state["seconds"] / (a.hours * 3600))
        lr = a.lr * 0.5 * (1 + math.cos(math.pi * min(1.0, done))) * min(1.0, (state["step"] + 1) / max(1, a.warmup))
        for g in opt.param_groups:
            g["lr"] = lr
        x, tg = next(stream)
        x = x.to(dev, non_blocking=True).permute(0, 3, 1, 2).float() if x.dtype == torch.uint8 else x.to(dev)
        tg = [t.to(dev, non_blocking=True) for t in tg]
        fl, lb, ls = losses(model(x), tg, cls_dev)
        loss = fl + lb + 0.5 * ls
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        state["step"] += 1
        state["crops"] += a.batch
        state["seconds"] = time.time() - t_start
        v = np.array([fl.item(), lb.item(), ls.item()])
        run_loss = v if run_loss is None else 0.98 * run_loss + 0.02 * v
        if time.time() - last_print > 30:
            rate = state["crops"] / max(1.0, state["seconds"])
            bar = "#" * int(30 * done) + "." * (30 - int(30 * done))
            print(f"[{bar}] step {state['step']}/{a.steps} {state['seconds'] / 3600:.2f} h, {rate:.1f} crops/s, loss heat {run_loss[0]:.3f} box {run_loss[1]:.3f} state {run_loss[2]:.3f}, lr {lr:.2e}", flush=True)
            last_print = time.time()
        if val is not None and state["step"] % a.val_every == 0:
            vl = val_loss()
            state.setdefault("val", []).append([state["step"], round(vl, 4)])
            mark = ""
            if vl < best_val:
                best_val = vl
                torch.save({"model": model.state_dict(), "state": dict(state), "val_loss": vl, "manifest": mhash}, best_ck + ".tmp")
                os.replace(best_ck + ".tmp", best_ck)
                mark = " (best so far: best.pt)"
            print(f"  validation loss at step {state['step']}: {vl:.4f}{mark}", flush=True)
        if state["step"] % 100 == 0 or time.time() - last_save > 180:
            last_save = time.time()
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "state": state}, ck + ".tmp")
            os.replace(ck + ".tmp", ck)
    if not a.finish:
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "state": state}, ck + ".tmp")
        os.replace(ck + ".tmp", ck)
    print(f"training: {state['step']} steps, {state['crops']} crops, {state['seconds'] / 3600:.2f} h on this machine", flush=True)
    if a.train_only:
        return
    model.to("cpu")

    if a.from_ck == "best" and os.path.exists(best_ck):
        c = torch.load(best_ck, map_location="cpu")
        model.load_state_dict(c["model"])
        print(f"exporting best.pt: step {c['state']['step']}, validation loss {c['val_loss']:.4f} (last: step {state['step']})", flush=True)
        trained_state = state
        state = c["state"]
        state["trained_steps_total"] = trained_state["step"]
    model.eval()
    rng = random.Random(a.seed)

    def sample(kind):
        groups = {}
        for m in metas:
            if split[m["id"]] == kind:
                groups.setdefault(family_of(m), []).append(m)
        out = {}
        for fam, ms in sorted(groups.items()):
            rng.shuffle(ms)
            out[fam] = ms[: a.eval_per_family]
        return out

    print("calibration (train families' calibration split):", flush=True)
    calib = [r for ms in sample("calib").values() for r in collect(model, ms)]
    z, y = labelled_logits(calib)
    T = fit_temperature(z, y)
    platt = fit_platt(z, y)
    thr = best_threshold(calib, platt)
    print(f"  temperature {T:.3f}; Platt a {platt['a']:.3f} b {platt['b']:.3f} on {platt['n']} detections ({platt['positives']} right); threshold {thr:.3f}", flush=True)
    report = {"fold": a.fold, "held_families": FOLDS[a.fold]["held"], "temperature": T, "platt": platt, "threshold": thr, "calibration": figures(calib, platt, thr), "families": {}}
    for kind in ["trainval", "held"]:
        for fam, ms in sample(kind).items():
            print(f"{kind} {fam}: {len(ms)} screens", flush=True)
            res = collect(model, ms)
            f = figures(res, platt, thr)
            f["split"] = "train" if kind == "trainval" else "held"
            report["families"][fam] = f
            print(f"  P {f['precision']} R {f['recall']} F1 {f['f1']} type {f['type_accuracy']}", flush=True)
    for kind in ["train", "held"]:
        rs = [f for f in report["families"].values() if f["split"] == kind]
        if rs:
            report[f"{kind}_mean_f1"] = round(sum(f["f1"] for f in rs) / len(rs), 4)
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = ""
    meta = {"schema": "rpav_ui_detector_v1", "types": TYPES, "states": STATES, "stride": STRIDE, "align": ALIGN, "input": "RGB 0-255, N×3×H×W float32, H and W multiples of 32",
            "outputs": ["heat_logits", "box", "state_logits"], "temperature": T, "threshold": thr, "floor": 0.05,
            "calibration": {"method": "platt", "a": platt["a"], "b": platt["b"], "fitted_on": "calibration split of the train families (5 % of their screens by id hash)",
                            "detections": platt["n"], "right": platt["positives"]}, "nms_iou": 0.5,
            "min_side": 32, "max_side": 4096, "data_manifest_sha256": mhash, "code_commit": commit, "fold": a.fold,
            "training": {"steps": state["step"], "crops": state["crops"], "crop": a.crop, "batch": a.batch, "hours": round(state["seconds"] / 3600, 3), "threads": a.threads, "seed": a.seed,
                         "arch": a.arch, "width": a.width, "keypoints": a.keypoints, "augment": a.augment, "checkpoint": a.from_ck,
                         "steps_trained_in_all": state.get("trained_steps_total", state["step"]), "validation_losses": state.get("val", []),
                         "parameters": sum(p.numel() for p in model.parameters()), "balanced": a.balanced, "class_weight_power": a.class_weight_power,
                         "class_weights": dict(zip(TYPES, [round(v, 3) for v in cls_w.tolist()])), "lr": a.lr, "initialised_from": state.get("init")}, "figures": report}
    with open(os.path.join(run, "report.json"), "w") as f:
        json.dump(meta, f, indent=1)
    if not a.no_export:
        # The weights exported (reference.py recomputes the test fixture's detections from them).
        torch.save({"model": model.state_dict(), "state": state}, os.path.join(run, "exported.pt"))
        os.makedirs(a.export_dir, exist_ok=True)
        onnx_path = os.path.join(a.export_dir, "ui-detector.onnx")
        torch.onnx.export(model, torch.zeros(1, 3, 256, 320), onnx_path + ".tmp", opset_version=13, input_names=["image"], output_names=["heat_logits", "box", "state_logits"],
                          dynamic_axes={"image": {2: "height", 3: "width"}, "heat_logits": {2: "h", 3: "w"}, "box": {2: "h", 3: "w"}, "state_logits": {2: "h", 3: "w"}})
        os.replace(onnx_path + ".tmp", onnx_path)
        with open(onnx_path, "rb") as f:
            meta["onnx_sha256"] = hashlib.sha256(f.read()).hexdigest()
        with open(os.path.join(a.export_dir, "ui-detector.json"), "w") as f:
            json.dump(meta, f, indent=1)
        print(f"exported {onnx_path} ({os.path.getsize(onnx_path) / 1e6:.2f} MB); the hybrid's gate describes the previous model's misses: refit it with `npm run train -- gate` (the product refuses a gate fitted for another model)", flush=True)
    print(json.dumps({k: report[k] for k in report if k.endswith("mean_f1")}), flush=True)


if __name__ == "__main__":
    main()
