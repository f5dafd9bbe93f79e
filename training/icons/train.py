"""`npm run train -- icons`: trains the icon classifier (src/perception/icon-classifier.ts; model card
models/icon-classifier/MODEL_CARD.md) on training/data/icons/set.bin (made by `npm run train -- icons-data`),
calibrates it, measures it and exports it to ONNX.

Splits: every variant and size of one icon falls on the same side. "val" (10 % of icons, by a hash of the
icon's name) is the seen-families measure and fits the temperature; "held" is Qt's built-in icons
(training/data/icons/held.bin, `npm run train -- icons-data --held`), never trained or tuned on.
`--holdout FAMILY` (repeatable) also leaves a whole source family out of training and reports it apart
(the leave-one-family-out measure); a model trained so is not exported unless --out is given.

Network: four 3×3 conv blocks (16-32-64-96 channels, batch norm, ReLU, 2×2 max pool after the first three),
global average pooling, dropout, a linear layer: ≈ 0.21 M parameters, ≈ 9 M multiply-adds per icon.
Seeds fixed; checkpoints every epoch in training/data/icons/runs/ (an interrupted run resumes).
"""
import argparse, hashlib, json, os, subprocess, sys, time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "training", "data", "icons")


def load(name):
    meta = json.load(open(os.path.join(DATA, f"{name}.json")))
    side = meta["side"]
    x = np.fromfile(os.path.join(DATA, f"{name}.bin"), dtype=np.uint8).reshape(-1, meta.get("planes", 1), side, side)
    return x, np.array(meta["labels"], dtype=np.int64), meta


class Net(nn.Module):
    def __init__(self, classes, width=1.0, planes=1):
        super().__init__()
        chans = [planes] + [int(round(c * width)) for c in (16, 32, 64, 96)]
        layers = []
        for i in range(4):
            layers += [nn.Conv2d(chans[i], chans[i + 1], 3, padding=1, bias=False), nn.BatchNorm2d(chans[i + 1]), nn.ReLU(inplace=True)]
            layers += [nn.Conv2d(chans[i + 1], chans[i + 1], 3, padding=1, bias=False), nn.BatchNorm2d(chans[i + 1]), nn.ReLU(inplace=True)] if i > 0 else []
            if i < 3:
                layers.append(nn.MaxPool2d(2))
        self.features = nn.Sequential(*layers)
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(chans[-1], classes)

    def forward(self, x):
        return self.head(self.drop(self.features(x).mean(dim=(2, 3))))


class Exported(nn.Module):
    """What the product runs: ink in [0, 1] → calibrated probabilities."""

    def __init__(self, net, temperature):
        super().__init__()
        self.net = net
        self.t = temperature

    def forward(self, ink):
        return torch.softmax(self.net(ink) / self.t, dim=1)


def augment(x, g, lowres=0.0):
    """Small shifts and scale changes (the ink box is never exact), contrast and noise; with probability `lowres`, the
    icon seen at 12–24 px and enlarged back (a small pixmap's blur). No flips: arrows point."""
    n = x.shape[0]
    if lowres > 0:
        pick = torch.rand(n, generator=g) < lowres
        if pick.any():
            side = int(torch.randint(12, 25, (1,), generator=g))
            small = F.interpolate(x[pick], size=(side, side), mode="area")
            x = x.clone()
            x[pick] = F.interpolate(small, size=x.shape[-2:], mode="bilinear", align_corners=False)
    s = 1 + (torch.rand(n, generator=g) - 0.5) * 0.3
    tx = (torch.rand(n, generator=g) - 0.5) * 0.2
    ty = (torch.rand(n, generator=g) - 0.5) * 0.2
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = s
    theta[:, 1, 1] = s
    theta[:, 0, 2] = tx
    theta[:, 1, 2] = ty
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, align_corners=False, padding_mode="zeros")
    x = x * (0.6 + 0.4 * torch.rand(n, 1, 1, 1, generator=g)) + torch.randn(x.shape, generator=g) * 0.03
    return x.clamp(0, 1)


def file_split(files):
    """By icon (every size of one theme icon on one side), else by file."""
    return np.array([int(hashlib.sha256(f.encode()).hexdigest()[:8], 16) % 10 == 0 for f in files])


def evaluate(net, x, y, t=1.0):
    net.eval()
    with torch.no_grad():
        logits = torch.cat([net(torch.from_numpy(x[i:i + 512]).float() / 255) for i in range(0, len(x), 512)]) if len(x) else torch.zeros(0, 1)
    p = torch.softmax(logits / t, dim=1).numpy()
    return logits, p


def summary(p, y, classes):
    """Top-1 accuracy, and for icons of a named class: how often that class gets P ≥ 0.5 (what locate uses)."""
    if len(y) == 0:
        return {}
    pred = p.argmax(1)
    other = classes.index("other")
    named = y != other
    hit = p[np.arange(len(y)), y] >= 0.5
    false_named = (p[~named][:, [i for i in range(len(classes)) if i != other]].max(1) >= 0.5).mean() if (~named).any() else 0.0
    per = {c: round(float((pred[y == i] == i).mean()), 3) for i, c in enumerate(classes) if (y == i).any()}
    return {"n": int(len(y)), "top1": round(float((pred == y).mean()), 3), "named_p50": round(float(hit[named].mean()), 3) if named.any() else None,
            "other_false_p50": round(float(false_named), 3), "per_class_top1": per}


def fit_temperature(logits, y):
    best = (1e9, 1.0)
    for t in np.arange(0.5, 3.01, 0.05):
        nll = F.cross_entropy(logits / float(t), torch.from_numpy(y)).item()
        best = min(best, (nll, float(t)))
    return best[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--epochs", type=int, default=24)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--holdout", action="append", default=[])
    ap.add_argument("--out", default=None, help="model folder (default models/icon-classifier unless --holdout)")
    ap.add_argument("--seed", type=int, default=20261204)
    ap.add_argument("--width", type=float, default=1.0, help="channel multiplier (1: 16-32-64-96)")
    ap.add_argument("--lowres", type=float, default=0.3, help="share of icons seen blurred as at 12–24 px")
    ap.add_argument("--extra", action="store_true", help="the extra figures' model (set-extra, `icons-data --extra`): icon-extra.onnx")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    np.random.seed(a.seed)
    x, y, meta = load("set-extra" if a.extra else "set")
    classes = meta["classes"]
    fams = np.array(meta["families"])
    val = file_split(meta.get("groups") or meta["files"])
    out_fam = np.isin(fams, a.holdout)
    tr = ~val & ~out_fam
    print(f"{tr.sum()} training icons, {(val & ~out_fam).sum()} val, {out_fam.sum()} held out by family ({', '.join(a.holdout) or 'none'})")
    tag = ("extra-" if a.extra else "") + ("full" if not a.holdout else "lofo-" + "-".join(h.replace("/", "_") for h in a.holdout)) + (f"-w{a.width:g}" if a.width != 1 else "") + (f"-lr{a.lowres:g}" if a.lowres != 0.3 else "")
    runs = os.path.join(DATA, "runs")
    os.makedirs(runs, exist_ok=True)
    ckpt = os.path.join(runs, f"{tag}.pt")
    net = Net(len(classes), a.width, x.shape[1])
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=int(a.epochs * ((tr.sum() + 127) // 128)))
    start = 0
    if os.path.exists(ckpt):
        st = torch.load(ckpt)
        if st.get("epochs") == a.epochs and st.get("data") == meta_hash(meta):
            net.load_state_dict(st["net"]); opt.load_state_dict(st["opt"]); sched.load_state_dict(st["sched"]); start = st["epoch"]
            print(f"resuming at epoch {start}")
    xt = torch.from_numpy(x[tr]).float() / 255
    yt = torch.from_numpy(y[tr])
    # Classes are unbalanced ("other" is a third of the icons): weights ~ 1/sqrt(count).
    counts = np.bincount(y[tr], minlength=len(classes)).astype(np.float64)
    w = torch.tensor((counts.max() / np.maximum(counts, 1)) ** 0.5, dtype=torch.float32)
    g = torch.Generator().manual_seed(a.seed)
    t0 = time.time()
    for ep in range(start, a.epochs):
        g.manual_seed(a.seed + ep)
        net.train()
        perm = torch.randperm(len(xt), generator=g)
        total = 0.0
        for i in range(0, len(perm), 128):
            idx = perm[i:i + 128]
            loss = F.cross_entropy(net(augment(xt[idx], g, a.lowres)), yt[idx], weight=w, label_smoothing=0.05)
            opt.zero_grad(); loss.backward(); opt.step(); sched.step()
            total += loss.item() * len(idx)
        _, pv = evaluate(net, x[val & ~out_fam], y[val & ~out_fam])
        acc = (pv.argmax(1) == y[val & ~out_fam]).mean()
        print(f"epoch {ep + 1}/{a.epochs}: loss {total / len(perm):.3f}, val top-1 {acc:.3f} ({time.time() - t0:.0f} s)", flush=True)
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "epoch": ep + 1, "epochs": a.epochs, "data": meta_hash(meta)}, ckpt)
    lv, _ = evaluate(net, x[val & ~out_fam], y[val & ~out_fam])
    temp = fit_temperature(lv, y[val & ~out_fam])
    _, pv = evaluate(net, x[val & ~out_fam], y[val & ~out_fam], temp)
    report = {"temperature": temp, "val_seen_families": summary(pv, y[val & ~out_fam], classes)}
    if out_fam.any():
        _, po = evaluate(net, x[out_fam], y[out_fam], temp)
        report["held_out_families"] = summary(po, y[out_fam], classes)
    if os.path.exists(os.path.join(DATA, "held.bin")):
        hx, hy, hmeta = load("held")
        if a.extra:
            assert hmeta.get("extra_classes") == classes, "held.json predates the extra classes: npm run train -- icons-data --held"
            hy = np.array(hmeta["extra_labels"], dtype=np.int64)
        _, ph = evaluate(net, hx, hy, temp)
        report["held_qt_builtin"] = summary(ph, hy, classes)
    print(json.dumps({k: ({kk: vv for kk, vv in v.items() if kk != "per_class_top1"} if isinstance(v, dict) else v) for k, v in report.items()}))
    json.dump(report, open(os.path.join(runs, f"{tag}-report.json"), "w"), indent=1)
    out = a.out or (None if a.holdout else os.path.join(ROOT, "models", "icon-classifier"))
    if out:
        export(net, temp, classes, meta, report, out, time.time() - t0, vars(a), "icon-extra" if a.extra else "icon-classifier")


def meta_hash(meta):
    return hashlib.sha256(json.dumps(meta["labels"]).encode() + json.dumps(meta["files"]).encode() + str(meta.get("planes", 1)).encode()).hexdigest()[:16]


def export(net, temp, classes, meta, report, out, seconds, args, name):
    os.makedirs(out, exist_ok=True)
    net.eval()
    model = Exported(net, temp)
    side = meta["side"]
    path = os.path.join(out, f"{name}.onnx")
    planes = meta.get("planes", 1)
    torch.onnx.export(model, torch.zeros(1, planes, side, side), path, input_names=["ink"], output_names=["probs"],
                      dynamic_axes={"ink": {0: "n"}, "probs": {0: "n"}}, opset_version=13)
    manifest = json.load(open(os.path.join(DATA, "manifest-extra.json" if name == "icon-extra" else "manifest.json")))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    sidecar = {"classes": classes, "side": side, "planes": planes, "temperature": temp, "data_sha256": manifest["sha256"], "data_samples": manifest["samples"],
               "commit": commit, "training_seconds": round(seconds), "args": args, "sha256": hashlib.sha256(open(path, "rb").read()).hexdigest(),
               "figures": {k: v for k, v in report.items() if k != "temperature"}}
    json.dump(sidecar, open(os.path.join(out, f"{name}.json"), "w"), indent=1)
    json.dump(manifest, open(os.path.join(out, "data-manifest-extra.json" if name == "icon-extra" else "data-manifest.json"), "w"), indent=1)
    print(f"exported {path} ({os.path.getsize(path) / 1e6:.2f} MB)")


if __name__ == "__main__":
    sys.exit(main())
