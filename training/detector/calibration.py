"""Confidence calibration of the detector's peaks, fitted on the calibration split of the TRAIN families only (never a
held family): temperature scaling (p = sigmoid(z / T)) and Platt scaling (p = sigmoid(a·z + b), the one the model
uses), plus the reliability table (confidence bins vs observed precision). numpy only (tested without torch:
`/usr/bin/python3 -m unittest training/detector/test_calibration.py`).

A detection's label y is 1 when it matches (IoU ≥ 0.5, one-to-one) an element of its own type, else 0.
"""
import math
import numpy as np


def labelled_logits(results):
    """(logits, labels) of every detection of collect()'s results [(meta, dets, gts, pairs)]."""
    z, y = [], []
    for _m, dets, gts, pairs in results:
        ok = {di for di, gj in pairs if dets[di]["type"] == gts[gj]["type"]}
        for di, d in enumerate(dets):
            z.append(d["logit"])
            y.append(1.0 if di in ok else 0.0)
    return np.array(z, np.float64), np.array(y, np.float64)


def nll(p, y):
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_temperature(z, y):
    """T in [0.3, 5] (log grid) minimising the log loss of sigmoid(z / T); 1.0 when there is nothing to fit."""
    if len(z) == 0:
        return 1.0
    best = (1e18, 1.0)
    for T in np.exp(np.linspace(math.log(0.3), math.log(5.0), 120)):
        best = min(best, (nll(_sigmoid(z / T), y), float(T)))
    return best[1]


def fit_platt(z, y, iters=100):
    """(a, b) of p = sigmoid(a·z + b) minimising the log loss against Platt's (1999) smoothed targets, by Newton's method
    with a small ridge. Identity (a 1, b 0) when there is nothing to fit (no detection, or one class only); a > 0 kept
    (a calibration must not reverse the ranking)."""
    n = len(z)
    npos = float(y.sum()) if n else 0.0
    out = {"a": 1.0, "b": 0.0, "n": int(n), "positives": int(npos)}
    if n == 0 or npos in (0.0, float(n)):
        return out
    nneg = n - npos
    t = np.where(y > 0.5, (npos + 1) / (npos + 2), 1 / (nneg + 2))
    loss = lambda a, b: nll(_sigmoid(a * z + b), t)  # noqa: E731
    a, b = 0.0, float(np.log(npos / nneg))  # start from the base rate; damped Newton (halving until the loss drops)
    cur = loss(a, b)
    for _ in range(iters):
        p = _sigmoid(a * z + b)
        g = np.array([np.sum((p - t) * z), np.sum(p - t)])
        w = p * (1 - p)
        H = np.array([[np.sum(w * z * z) + 1e-6, np.sum(w * z)], [np.sum(w * z), np.sum(w) + 1e-6]])
        step = np.linalg.solve(H, g)
        k = 1.0
        while k > 1e-4 and loss(a - k * step[0], b - k * step[1]) > cur + 1e-12:
            k /= 2
        a, b = a - k * step[0], b - k * step[1]
        new = loss(a, b)
        if cur - new < 1e-10:
            break
        cur = new
    if not (a > 0) or not np.isfinite(b):
        a, b = 1e-3, float(np.log(npos / nneg))
    out.update(a=float(a), b=float(b))
    return out


def _sigmoid(x):
    return 0.5 * (1 + np.tanh(0.5 * np.asarray(x, np.float64)))


def confidence(logit, cal):
    """Calibrated confidence of a peak logit: Platt's sigmoid(a·z + b) for a dict, sigmoid(z / T) for a number."""
    if isinstance(cal, dict):
        return float(_sigmoid(cal["a"] * logit + cal["b"]))
    return float(_sigmoid(logit / cal))


def reliability(conf, correct, bins=10):
    """Equal-width bins of predicted confidence: count, observed precision, mean confidence; and the expected
    calibration error (count-weighted |mean confidence − precision|). The same table as learned-detector.ts."""
    conf, correct = np.asarray(conf, np.float64), np.asarray(correct, np.float64)
    rows, ece = [], 0.0
    k = np.minimum(bins - 1, np.floor(conf * bins).astype(int)) if len(conf) else np.array([], int)
    for b in range(bins):
        sel = k == b
        n = int(sel.sum())
        prec = float(correct[sel].mean()) if n else None
        mc = float(conf[sel].mean()) if n else None
        if n:
            ece += n / len(conf) * abs(mc - prec)
        rows.append({"bin": f"{b / bins:.1f}-{(b + 1) / bins:.1f}", "detections": n, "precision": None if prec is None else round(prec, 3),
                     "mean_confidence": None if mc is None else round(mc, 3)})
    return rows, round(ece, 4)
