"""Opens a cachemalloc snapshot of a PyTorch program with PyTorch's own
viewer code (torch.cuda._memory_viz), on the GPU (scripts/gpu-check, step
7).

Run with PYTORCH_NO_CUDA_MEMORY_CACHING=1, LD_PRELOAD=libcachemalloc.so and
CACHEMALLOC_CONF=oom_snapshot:SNAP,report_signal:SIGUSR1,snapshot_stacks:true:
it allocates tensors of sizes up to 1 GiB (addresses above 2^31, the
integers the snapshot must write as MemoryViz.js reads them), frees some,
asks for the snapshot with SIGUSR1, waits for it, then loads it and draws
it with _memory_viz.segment_plot and trace_plot (the HTML pages that embed
MemoryViz.js), and prints one line: segments, blocks, trace entries, blocks
with frames, and each plot's size. Exit 1 when a step fails.

usage: torch_snapshot.py SNAP OUTDIR
"""
import os
import pickle
import signal
import sys
import time

import torch
from torch.cuda import _memory_viz

snap_path, outdir = sys.argv[1], sys.argv[2]
x = [torch.empty(n, dtype=torch.uint8, device="cuda") for n in (1 << 10, 3 << 20, 1 << 30, 40 << 20)]
for t in x:
    t.fill_(1)
del x[1]
torch.cuda.synchronize()
os.kill(os.getpid(), signal.SIGUSR1)
for _ in range(500):
    if os.path.exists(snap_path):
        break
    time.sleep(0.01)
else:
    sys.exit(f"torch_snapshot: no snapshot at {snap_path} 5 s after SIGUSR1 (report_signal set?)")
with open(snap_path, "rb") as f:
    snap = pickle.load(f)
blocks = [b for s in snap["segments"] for b in s["blocks"]]
framed = sum(1 for b in blocks if b["frames"])
ok = True
sizes = {}
for name in ("segment_plot", "trace_plot"):
    try:
        html = getattr(_memory_viz, name)(snap)
        sizes[name] = len(html)
        with open(os.path.join(outdir, f"snapshot_{name}.html"), "w") as f:
            f.write(html)
    except Exception as e:  # the point of the step: say what the viewer refused
        ok = False
        print(f"torch_snapshot: _memory_viz.{name} failed: {type(e).__name__}: {e}")
big = max((s["address"] for s in snap["segments"]), default=0)
print(f"torch_snapshot: {len(snap['segments'])} segments (highest address {big:#x}), {len(blocks)} blocks, "
      f"{sum(len(t) for t in snap['device_traces'])} trace entries, {framed} blocks with frames, "
      f"plots {sizes}")
sys.exit(0 if ok and framed > 0 else 1)
