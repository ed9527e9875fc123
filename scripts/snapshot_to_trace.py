#!/usr/bin/env python3
"""Converts a PyTorch memory snapshot into an allocation trace for
`scripts/cachemalloc replay`.

The snapshot is the pickle torch.cuda.memory._dump_snapshot() writes (record
the history from the start with torch.cuda.memory._record_memory_history()),
or one written by cachemalloc's oom_snapshot. The trace is the CSV of
../shared/traces/README.md: `action,addr,size,stream`, gzip'd when OUT ends
in .gz. Only plain Python values are read from the pickle: it is loaded with
an unpickler that refuses every class, so a hostile file cannot run code.

usage: snapshot_to_trace.py SNAPSHOT OUT [--device N]
"""
import argparse
import gzip
import io
import pickle
import sys

KEPT = ("alloc", "free_requested", "free_completed", "segment_alloc", "segment_free")


class PlainUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refusing {module}.{name}: a snapshot holds plain values only")


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    snap = PlainUnpickler(io.BytesIO(data)).load()
    if not isinstance(snap, dict) or not isinstance(snap.get("device_traces"), list):
        raise ValueError("no device_traces: record the memory history before dumping the snapshot")
    return snap


def convert(snap, device, out):
    traces = snap["device_traces"]
    if device >= len(traces):
        raise ValueError(f"device {device} not in the snapshot (it has {len(traces)})")
    out.write("action,addr,size,stream\n")
    kept = skipped = 0
    for entry in traces[device]:
        action = entry.get("action") if isinstance(entry, dict) else None
        if action not in KEPT:
            skipped += 1
            continue
        out.write(f"{action},{int(entry['addr'])},{int(entry['size'])},{int(entry.get('stream', 0))}\n")
        kept += 1
    return kept, skipped


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("snapshot")
    ap.add_argument("out")
    ap.add_argument("--device", type=int, default=0)
    args = ap.parse_args()
    try:
        snap = load(args.snapshot)
        opener = gzip.open if args.out.endswith(".gz") else open
        with opener(args.out, "wt") as out:
            kept, skipped = convert(snap, args.device, out)
    except (OSError, ValueError, KeyError, TypeError, pickle.UnpicklingError, EOFError) as e:
        sys.exit(f"snapshot_to_trace: {args.snapshot}: {e}")
    print(f"snapshot_to_trace: {kept} events written to {args.out}, {skipped} other entries skipped")


if __name__ == "__main__":
    main()
