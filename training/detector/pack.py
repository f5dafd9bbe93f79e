"""Packs a fold's training screens as lossless WebP (the same pixels, a third of the PNG's bytes) into a folder small
enough to travel to a machine with a GPU, with a manifest of its own, and trains there with train.py --data DIR
--manifest DIR/manifest.json --device cuda. Held families and the calibration split stay here (they are not trained on:
calibration, evaluation and export run here with --finish on the full manifest).

  /usr/bin/python3 training/detector/pack.py --fold C --out .pack --max-mb 38

Order: every screen of the toolkits and the dev corpus (few, small), then HTML pages in the order of a hash of their id
(a uniform sample of the kits) until the size budget is spent. Encoding by webp.mjs (sharp's libwebp, already a product dependency).
"""
import argparse, hashlib, json, os, shutil, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from common import FOLDS, read_index, split_of  # noqa: E402



def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.path.join(ROOT, "training", "data"))
    ap.add_argument("--manifest", default=os.path.join(ROOT, "training", "data-manifest.json"))
    ap.add_argument("--fold", default="C", choices=sorted(FOLDS))
    ap.add_argument("--out", default=os.path.join(ROOT, ".pack"))
    ap.add_argument("--max-mb", type=float, default=38.0, help="size budget of the packed images (MiB)")
    ap.add_argument("--png-ratio", type=float, default=0.36, help="expected WebP / PNG size, to choose screens before encoding")
    a = ap.parse_args()
    with open(a.manifest) as f:
        listed = {r["id"]: r for r in json.load(f)["files"]}
    metas = [m for m in read_index(a.data) if m["id"] in listed and split_of(m, a.fold) in ("train", "trainval")]
    key = lambda m: (m["family"] == "html", hashlib.sha256(m["id"].encode()).hexdigest())
    metas.sort(key=key)
    budget, chosen, est = a.max_mb * 1048576, [], 0.0
    for m in metas:
        s = os.path.getsize(os.path.join(m["_dir"], m["image"])) * a.png_ratio
        if est + s > budget:
            break
        est += s
        chosen.append(m)
    if os.path.isdir(a.out):
        shutil.rmtree(a.out)
    jobs = []
    for m in chosen:
        d = os.path.join(a.out, os.path.basename(m["_dir"]))
        os.makedirs(d, exist_ok=True)
        jobs.append([os.path.join(m["_dir"], m["image"]), os.path.join(d, m["id"] + ".webp")])
    lst = os.path.join(a.out, "jobs.json")
    with open(lst, "w") as f:
        json.dump(jobs, f)
    print(f"fold {a.fold}: {len(chosen)} of {len(metas)} train-family screens, about {est / 1048576:.1f} MiB", flush=True)
    subprocess.run(["node", os.path.join(HERE, "webp.mjs"), lst], check=True, cwd=ROOT)
    os.remove(lst)
    rows = []
    for m, (src, dst) in zip(chosen, jobs):
        meta = {k: v for k, v in m.items() if k != "_dir"}
        meta["image"] = os.path.basename(dst)
        with open(dst[:-5] + ".json", "w") as f:
            json.dump(meta, f, ensure_ascii=False)
        r = dict(listed[m["id"]])
        r["image_sha256"] = sha(dst)
        rows.append(r)
    body = {"schema": "rpav_training_manifest_v1", "packed_from": {"manifest_sha256": sha(a.manifest), "fold": a.fold, "max_mb": a.max_mb},
            "screens": len(rows), "elements": sum(r["elements"] for r in rows), "files": rows}
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump(body, f, indent=0)
    total = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(a.out) for f in fs)
    print(f"packed {len(rows)} screens, {body['elements']} elements: {total / 1048576:.1f} MiB in {a.out}", flush=True)


if __name__ == "__main__":
    main()
