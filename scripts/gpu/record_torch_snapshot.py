"""scripts/gpu/record_torch_snapshot.py - a memory snapshot written by
PyTorch's own allocator, for tests/snapshots/ (issue 35): the history
check of tests/check_snapshot.py must accept what PyTorch itself writes.

Records the allocation history (torch.cuda.memory._record_memory_history)
of a few training steps of a small transformer, sequence lengths varying,
with a side stream copying, then takes torch.cuda.memory._snapshot(),
drops every call stack (frames: paths of the machine, and most of the
bytes) and writes it with pickle, as torch.cuda.memory._dump_snapshot
does. Run once plain and once with
PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.

usage: record_torch_snapshot.py OUT.pickle
"""
import pickle
import random
import sys

import torch


def strip(snap):
    for seg in snap["segments"]:
        for b in seg["blocks"]:
            b["frames"] = []
    for trace in snap["device_traces"]:
        for e in trace:
            e["frames"] = []
    return snap


def main():
    torch.cuda.memory._record_memory_history(max_entries=4000)
    rng = random.Random(7)
    layer = torch.nn.TransformerEncoderLayer(256, 4, dim_feedforward=1024, batch_first=True)
    model = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    side = torch.cuda.Stream()
    for _ in range(6):
        x = torch.randn(8, rng.randint(32, 256), 256, device="cuda")
        with torch.cuda.stream(side):
            y = x.detach().clone()  # freed on the main stream: cross-stream history
        torch.cuda.current_stream().wait_stream(side)
        y.record_stream(torch.cuda.current_stream())
        model(x + y).pow(2).mean().backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        del x, y
    torch.cuda.synchronize()
    snap = strip(torch.cuda.memory._snapshot())
    with open(sys.argv[1], "wb") as f:
        pickle.dump(snap, f)
    entries = sum(len(t) for t in snap["device_traces"])
    print(f"torch snapshot: {len(snap['segments'])} segments, {entries} trace entries, "
          f"settings {snap.get('allocator_settings')}")


if __name__ == "__main__":
    main()
