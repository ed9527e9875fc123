"""Checks a cachemalloc memory snapshot: a protocol 2-4 pickle holding only
plain Python values, shaped like torch.cuda.memory._snapshot(), that
PyTorch's browser viewer reads: only opcodes MemoryViz.js's unpickler
knows, every integer in the shortest encoding CPython's pickle writes
(BININT1, BININT2, BININT, LONG1 of (bit length / 8) + 1 bytes), so that
MemoryViz.js, which turns a LONG1 of more than 8 bytes into a BigInt,
gets a Number for every address and size.

usage: check_snapshot.py PATH [--stitched] [--pending] [--device-free] [--frames N] [ACTION ...]   (actions the trace must
contain; --stitched: some segment lists stitched ranges, each inside it; --pending: some block
is active_pending_free; --device-free: an oom entry has device_free above 0; --frames N: N
blocks or more have a call stack, and only live blocks have one)
"""
import io
import pickle
import pickletools
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
FRAME = {"name": str, "filename": str, "line": int}
ENTRY = {"action": str, "addr": int, "size": int, "stream": int, "time_us": int}
ACTIONS = {"alloc", "free_requested", "free_completed", "segment_alloc", "segment_free", "oom",
           "segment_map", "segment_unmap"}
STATES = ("active_allocated", "active_pending_free", "inactive")
# The opcodes MemoryViz.js's unpickle() handles (torch/utils/viz/MemoryViz.js).
VIEWER_OPCODES = {"PROTO", "APPEND", "APPENDS", "LIST", "TUPLE", "NEWFALSE", "NEWTRUE", "NONE",
                  "BINGET", "BININT", "BININT1", "BININT2", "EMPTY_DICT", "EMPTY_LIST", "FRAME",
                  "LONG1", "LONG_BINGET", "MARK", "MEMOIZE", "BINPUT", "LONG_BINPUT", "SETITEMS",
                  "SETITEM", "DICT", "SHORT_BINUNICODE", "BINUNICODE", "STOP", "EMPTY_TUPLE",
                  "TUPLE1", "TUPLE2", "TUPLE3", "BINFLOAT"}


def shortest_int_opcode(v):
    """The opcode (and LONG1's byte count) CPython's pickle uses for v."""
    if 0 <= v <= 0xff:
        return "BININT1", None
    if 0 <= v <= 0xffff:
        return "BININT2", None
    if -0x80000000 <= v <= 0x7fffffff:
        return "BININT", None
    return "LONG1", len(pickle.encode_long(v))


def check_integer_widths(data):
    """Every integer as CPython would write it; as MemoryViz.js reads it
    (a LONG1 of up to 8 bytes is a Number, exact below 2^53). Returns how
    many integers were checked."""
    n = 0
    for op, arg, pos in pickletools.genops(data):
        expect(op.name in VIEWER_OPCODES, f"opcode {op.name} at byte {pos}: MemoryViz.js cannot read it")
        if op.name not in ("BININT1", "BININT2", "BININT", "LONG1"):
            continue
        n += 1
        want, nbytes = shortest_int_opcode(arg)
        expect(op.name == want, f"integer {arg} at byte {pos} written as {op.name}, CPython writes {want}")
        if op.name == "LONG1":
            expect(data[pos + 1] == nbytes, f"integer {arg:#x} at byte {pos} in {data[pos + 1]} bytes, "
                   f"CPython writes {nbytes}")
            expect(data[pos + 1] <= 8 and abs(arg) < 2**53,
                   f"integer {arg:#x} at byte {pos}: MemoryViz.js reads it as a BigInt or inexactly")
    return n


HOST_KEYS = ("host_alloc_calls", "host_cache_hits", "host_reserved_bytes",
             "peak_host_reserved_bytes", "host_cached_bytes")


def main():
    data = open(sys.argv[1], "rb").read()
    expect(data[:1] == b"\x80" and 2 <= data[1] <= 4, "not a protocol 2-4 pickle")
    snap = PlainOnly(io.BytesIO(data)).load()
    expect(isinstance(snap, dict), "top level is not a dict")
    check_types(snap, {"segments": list, "device_traces": list}, "snapshot")
    if "host_stats" in snap:  # pinned host memory (core/host/host.c)
        check_types(snap["host_stats"], {k: int for k in HOST_KEYS}, "host_stats")
    stitched = pending = with_frames = device_free = 0
    ints = check_integer_widths(data)
    for i, seg in enumerate(snap["segments"]):
        check_types(seg, SEGMENT, f"segment {i}")
        expect(seg["segment_type"] in ("small", "large"), f"segment {i} type")
        at, used = seg["address"], 0
        for j, b in enumerate(seg["blocks"]):
            check_types(b, BLOCK, f"segment {i} block {j}")
            expect(b["address"] == at, f"segment {i} block {j} not contiguous")
            expect(b["state"] in STATES, f"block state {b['state']}")
            at += b["size"]
            used += b["size"] if b["state"] == "active_allocated" else 0
            pending += b["state"] == "active_pending_free"
            for fr in b["frames"]:
                check_types(fr, FRAME, f"segment {i} block {j} frame")
            expect(not b["frames"] or b["state"] == "active_allocated", f"segment {i} block {j}: a "
                   f"{b['state']} block with frames")
            with_frames += bool(b["frames"])
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
            if e["action"] == "oom":
                expect(isinstance(e.get("device_free"), int), "an oom entry without device_free")
                device_free += e["device_free"] > 0
    args = sys.argv[2:]
    if "--frames" in args:
        k = args.index("--frames")
        want = int(args[k + 1])
        del args[k:k + 2]
        expect(with_frames >= want, f"{with_frames} blocks have frames, expected {want} or more")
    if "--device-free" in args:
        args.remove("--device-free")
        expect(device_free > 0, "no oom entry has device_free above 0")
    if "--pending" in args:
        args.remove("--pending")
        expect(pending > 0, "no block is active_pending_free")
    if "--stitched" in args:
        args.remove("--stitched")
        expect(stitched > 0, "no segment marks a stitched range")
    missing = set(args) - seen
    expect(not missing, f"trace lacks {sorted(missing)}")
    print(f"snapshot ok: {len(snap['segments'])} segments, "
          f"{sum(len(d) for d in snap['device_traces'])} trace entries, {ints} integers in the "
          f"shortest encoding, {pending} blocks pending a fence, {with_frames} with frames")


main()
