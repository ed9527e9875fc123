"""Checks a cachemalloc memory snapshot: a protocol 2-4 pickle holding only
plain Python values, shaped like torch.cuda.memory._snapshot().

usage: check_snapshot.py PATH [--stitched] [ACTION ...]   (actions the trace must contain;
--stitched: some segment lists stitched ranges, each inside it)
"""
import io
import pickle
import sys


class PlainOnly(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"snapshot refers to {module}.{name}")


def expect(cond, what):
    if not cond:
        sys.exit(f"check_snapshot: {what}")


def check_types(d, spec, where):
    for key, kind in spec.items():
        expect(key in d, f"{where} lacks {key!r}")
        expect(isinstance(d[key], kind) and not (kind is int and isinstance(d[key], bool)),
               f"{where}[{key!r}] is {type(d[key]).__name__}, not {kind.__name__}")


SEGMENT = {"device": int, "address": int, "total_size": int, "allocated_size": int,
           "active_size": int, "requested_size": int, "stream": int, "segment_type": str,
           "is_expandable": bool, "blocks": list}
BLOCK = {"address": int, "size": int, "requested_size": int, "state": str, "frames": list}
ENTRY = {"action": str, "addr": int, "size": int, "stream": int, "time_us": int}
HOST_KEYS = ("host_alloc_calls", "host_cache_hits", "host_reserved_bytes",
             "peak_host_reserved_bytes", "host_cached_bytes")
ACTIONS = {"alloc", "free_requested", "free_completed", "segment_alloc", "segment_free", "oom"}


def main():
    data = open(sys.argv[1], "rb").read()
    expect(data[:1] == b"\x80" and 2 <= data[1] <= 4, "not a protocol 2-4 pickle")
    snap = PlainOnly(io.BytesIO(data)).load()
    expect(isinstance(snap, dict), "top level is not a dict")
    check_types(snap, {"segments": list, "device_traces": list}, "snapshot")
    if "host_stats" in snap:  # pinned host memory (core/host.c)
        check_types(snap["host_stats"], {k: int for k in HOST_KEYS}, "host_stats")
    stitched = 0
    for i, seg in enumerate(snap["segments"]):
        check_types(seg, SEGMENT, f"segment {i}")
        expect(seg["segment_type"] in ("small", "large"), f"segment {i} type")
        at, used = seg["address"], 0
        for j, b in enumerate(seg["blocks"]):
            check_types(b, BLOCK, f"segment {i} block {j}")
            expect(b["address"] == at, f"segment {i} block {j} not contiguous")
            expect(b["state"] in ("active_allocated", "inactive"), f"block state {b['state']}")
            at += b["size"]
            used += b["size"] if b["state"] == "active_allocated" else 0
        expect(at == seg["address"] + seg["total_size"], f"segment {i} blocks do not cover it")
        expect(used <= seg["allocated_size"], f"segment {i} allocated_size too small")
        for lo, size in seg.get("stitched_ranges", []):
            expect(seg["is_expandable"] and size > 0 and seg["address"] <= lo and
                   lo + size <= seg["address"] + seg["total_size"],
                   f"segment {i} stitched range {lo:#x}+{size} outside it")
            stitched += size
    seen = set()
    for dev in snap["device_traces"]:
        expect(isinstance(dev, list), "device_traces holds a non-list")
        for k, e in enumerate(dev):
            check_types(e, ENTRY, f"trace entry {k}")
            expect(e["action"] in ACTIONS, f"unknown action {e['action']}")
            seen.add(e["action"])
    args = sys.argv[2:]
    if "--stitched" in args:
        args.remove("--stitched")
        expect(stitched > 0, "no segment marks a stitched range")
    missing = set(args) - seen
    expect(not missing, f"trace lacks {sorted(missing)}")
    print(f"snapshot ok: {len(snap['segments'])} segments, "
          f"{sum(len(d) for d in snap['device_traces'])} trace entries")


main()
