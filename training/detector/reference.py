"""The reference detections of the committed model on a fixture screen (what src/perception/learned-detector.test.ts checks
the TypeScript decoder against), down to a low floor so that the check does not depend on how far the model is trained:
  python3 reference.py SCREEN.png OUT.json [FLOOR]"""
import json, os, sys
import onnx  # noqa: F401  (the check that the ONNX file is what torch exported is done by onnxruntime-node in the test)
import torch
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import Detector, decode, load_rgb, pad_to  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
torch.set_num_threads(1)
meta = json.load(open(os.path.join(ROOT, "models", "ui-detector", "ui-detector.json")))
ck = torch.load(sys.argv[4] if len(sys.argv) > 4 else os.path.join(HERE, "runs", meta["fold"], "exported.pt"))
net = meta.get("training", {})
model = Detector(net.get("width", 1.0), net.get("arch", "v1"))
model.load_state_dict(ck["model"])
model.eval()
img = load_rgb(sys.argv[1])
H, W = img.shape[:2]
with torch.no_grad():
    hl, bx, sl = model(torch.from_numpy(pad_to(img)).permute(2, 0, 1)[None].float())
floor = float(sys.argv[3]) if len(sys.argv) > 3 else 0.003
dets = decode(hl[0].numpy(), bx[0].numpy(), sl[0].numpy(), temperature=meta["temperature"], calibration=meta.get("calibration"), floor=floor, top_k=400, width=W, height=H)
json.dump({"model_onnx_sha256": meta.get("onnx_sha256"), "floor": floor, "detections": [{"type": d["type"], "bbox": [round(v, 2) for v in d["bbox"]], "score": round(d["score"], 5)} for d in dets]}, open(sys.argv[2], "w"), indent=1)
print(f"{len(dets)} detections → {sys.argv[2]}")
