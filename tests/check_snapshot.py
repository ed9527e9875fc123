"""Checks a cachemalloc memory snapshot: a protocol 2-4 pickle holding only
plain Python values, shaped like torch.cuda.memory._snapshot(), that
PyTorch's browser viewer reads: only opcodes MemoryViz.js's unpickler
knows, every integer in the shortest encoding CPython's pickle writes
(BININT1, BININT2, BININT, LONG1 of (bit length / 8) + 1 bytes), so that
MemoryViz.js, which turns a LONG1 of more than 8 bytes into a BigInt,
gets a Number for every address and size.

A PATH gzipped is read decompressed (tests/snapshots/: snapshots PyTorch's
own allocator wrote on a GPU, scripts/gpu/record_torch_snapshot.py, which
this check must accept as the viewer does).

usage: check_snapshot.py PATH [--stitched] [--pending] [--device-free] [--frames N] [ACTION ...]   (actions the trace must
contain; --stitched: some segment lists stitched ranges, each inside it; --pending: some block
is active_pending_free; --device-free: an oom entry has device_free above 0; --frames N: N
blocks or more have a call stack, and only live blocks have one)
"""
import gzip
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


class History:
    """PyTorch's memory viewer draws the state at any position of a device's
    trace by undoing, from the snapshot's final state, every later action
    (its MemoryView.simulate_memory): a block freed comes back, an allocation
    goes, a segment freed or unmapped comes back (an unmapped range merged
    with an adjacent one of its stream), a segment allocated or mapped goes
    (a mapped range cut out of the segment holding it). The viewer throws,
    or draws a block inside no segment, where a trace does not undo to a
    consistent state; this replays the undoing and names the first position
    where it would."""

    def __init__(self, snap, device):
        self.segs = sorted([s["address"], s["total_size"], s["stream"]]
                           for s in snap["segments"] if s["device"] == device)
        self.blocks = {}
        for s in snap["segments"]:
            if s["device"] != device:
                continue
            for b in s["blocks"]:
                if b["state"] != "inactive":
                    self.blocks[b["address"]] = b["size"]

    def holder(self, addr, size):
        return next((s for s in self.segs if s[0] <= addr and addr + size <= s[0] + s[1]), None)

    def no_block_in(self, addr, size, where):
        inside = [a for a, n in self.blocks.items() if a < addr + size and addr < a + n]
        expect(not inside, inside and f"{where}: live block {inside[0]:#x} left inside no segment")

    def map(self, addr, size, stream, merge, where):
        expect(all(a + n <= addr or addr + size <= a for a, n, _ in self.segs),
               f"{where}: range {addr:#x}+{size} overlaps a segment")
        self.segs.append([addr, size, stream])
        self.segs.sort()
        if merge:
            merged = []
            for s in self.segs:
                if merged and merged[-1][0] + merged[-1][1] == s[0] and merged[-1][2] == s[2]:
                    merged[-1][1] += s[1]
                else:
                    merged.append(s)
            self.segs = merged

    def unmap(self, addr, size, merge, where):
        if not merge:
            seg = next((s for s in self.segs if s[0] == addr), None)
            expect(seg is not None, f"{where}: no segment at {addr:#x} to take away")
            self.segs.remove(seg)
            self.no_block_in(seg[0], seg[1], where)
            return
        seg = self.holder(addr, size)
        expect(seg is not None, f"{where}: no segment holds the mapped range {addr:#x}+{size}")
        self.segs.remove(seg)
        if seg[0] < addr:
            self.segs.append([seg[0], addr - seg[0], seg[2]])
        if addr + size < seg[0] + seg[1]:
            self.segs.append([addr + size, seg[0] + seg[1] - addr - size, seg[2]])
        self.segs.sort()
        self.no_block_in(addr, size, where)

    def undo(self, e, where):
        a, n, act = e["addr"], e["size"], e["action"]
        if act in ("free", "free_completed"):
            expect(self.holder(a, n) is not None, f"{where}: block {a:#x}+{n} comes back inside no segment")
            self.blocks[a] = n
        elif act == "free_requested":
            expect(a in self.blocks, f"{where}: free_requested of {a:#x}, not live after it")
        elif act == "alloc":
            expect(a in self.blocks, f"{where}: alloc of {a:#x}, not live after it")
            del self.blocks[a]
        elif act in ("segment_free", "segment_unmap"):
            self.map(a, n, e["stream"], act == "segment_unmap", where)
        elif act in ("segment_alloc", "segment_map"):
            self.unmap(a, n, act == "segment_map", where)


def check_history(snap):
    """Every position of every device's trace as the viewer draws it;
    returns how many positions were checked."""
    positions = 0
    for device, trace in enumerate(snap["device_traces"]):
        events = []
        for e in trace:  # the viewer shows a free_requested + free_completed pair as one free
            if (e["action"] == "free_completed" and events and events[-1]["action"] == "free_requested"
                    and events[-1]["addr"] == e["addr"]):
                events[-1] = dict(events[-1], action="free")
            else:
                events.append(e)
        h = History(snap, device)
        for k in range(len(events) - 1, -1, -1):
            h.undo(events[k], f"device {device} trace position {k} ({events[k]['action']})")
        positions += len(events)
    return positions


HOST_KEYS = ("host_alloc_calls", "host_cache_hits", "host_reserved_bytes",
             "peak_host_reserved_bytes", "host_cached_bytes")


def main():
    data = open(sys.argv[1], "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    expect(data[:1] == b"\x80" and 2 <= data[1] <= 4, "not a protocol 2-4 pickle")
    snap = PlainOnly(io.BytesIO(data)).load()
    expect(isinstance(snap, dict), "top level is not a dict")
    check_types(snap, {"segments": list, "device_traces": list}, "snapshot")
    check_types(snap["allocator_settings"], {"PYTORCH_CUDA_ALLOC_CONF": str, "max_split_size": int,
                                             "garbage_collection_threshold": float,
                                             "expandable_segments": bool}, "allocator_settings")
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
    positions = check_history(snap)
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
          f"{sum(len(d) for d in snap['device_traces'])} trace entries ({positions} viewer positions "
          f"consistent), {ints} integers in the "
          f"shortest encoding, {pending} blocks pending a fence, {with_frames} with frames")


main()
