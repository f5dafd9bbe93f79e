#!/bin/sh
# Trains the detector on a machine with a GPU, on the packed training screens (pack.py), continuing the committed model:
#   sh training/detector/train-gpu.sh RUN_DIR [MINUTES]
# then, back on a Debian machine with the full data: calibrate, evaluate and export from RUN_DIR's best.pt with
#   npm run train -- detector --fold C --run-dir RUN_DIR --finish
# The GPU machine's own python3 (PyTorch with CUDA, Pillow, onnx) runs it; nothing is downloaded.
set -eu
RUN=${1:?usage: train-gpu.sh RUN_DIR [MINUTES]}
MIN=${2:-6.3}
HOURS=$(python3 -c "print(round($MIN / 60, 4))")
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
WORKERS=${WORKERS:-$(( $(nproc) - 1 ))}
python3 -c "import torch, PIL, onnx; assert torch.cuda.is_available(), 'no CUDA device'; print('torch', torch.__version__, torch.cuda.get_device_name(0))"
exec python3 training/detector/train.py --data .pack --manifest .pack/manifest.json --fold C --run-dir "$RUN" \
  --init-onnx models/ui-detector/ui-detector.onnx --device cuda --workers "$WORKERS" --threads 4 \
  --batch 128 --lr 3e-3 --warmup 300 --steps 1000000 --hours "$HOURS" --val-every 250 --val-crops 96 --train-only
