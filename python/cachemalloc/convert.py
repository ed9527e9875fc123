#!/usr/bin/env python3
"""Converts a PyTorch memory snapshot into an allocation trace for
`cachemalloc replay` (`cachemalloc convert`).

The snapshot is the pickle torch.cuda.memory._dump_snapshot() writes (record
the history from the start with torch.cuda.memory._record_memory_history()),
or one written by cachemalloc's oom_snapshot. The trace is the replayer's CSV:
the header `action,addr,size,stream`, then one line per alloc,
free_requested, free_completed, segment_alloc and segment_free of the device;
gzip'd when OUT ends in .gz.

Input rules (anything else: one line on stderr, exit 1, OUT untouched):
- a pickle of plain values only (dict, list, tuple, str, bytes, int, float,
  bool, None; sets as protocol 4 writes them), nested at most MAX_DEPTH
  levels, no recursive structure; no class or object (nothing in the file
  can run code);
- a dict with `device_traces`: a list with one list of entries per device;
- each entry a dict whose `action` is one of ACTIONS; for the kept ones `addr`
  an integer from 1 to 2**64-1, `size` and `stream` (0 when absent) integers
  from 0 to 2**64-1 (bool and float refused).
The trace is written to a temporary file beside OUT and renamed over OUT
only when complete. Exit status: 0 written, 1 bad input or a failure to
read or write, 2 usage.

usage: snapshot_to_trace.py SNAPSHOT OUT [--device N]
"""
import argparse
import gzip
import io
import os
import pickle
import pickletools
import sys
import tempfile

KEPT = ("alloc", "free_requested", "free_completed", "segment_alloc", "segment_free")
# The actions PyTorch's memory history records; the ones not kept are skipped.
ACTIONS = KEPT + ("segment_map", "segment_unmap", "snapshot", "oom", "user_defined")
MAX_DEPTH = 100  # a snapshot nests about 8 deep (dict, list, list, dict, frames...)
U64 = 1 << 64


class BadInput(Exception):
    """The snapshot breaks a rule: the message says which and what is accepted."""


# ---- Loading: a scan of the opcodes, then pickle's own C unpickler. ----
#
# The C unpickler builds objects without recursing, but hashing a tuple nested
# 200000 deep (a dict key, a set item) recurses in C until the stack
# overflows (SIGSEGV), and a memo index of 2**32 asks for gigabytes. The scan
# below follows the pickle machine's stack with the nesting height of every
# object and refuses, before anything is built, classes and objects, nesting
# deeper than MAX_DEPTH, recursive structures and memo indexes beyond the
# file's size. A container may be filled only before it is put into another
# one (as pickle.dump writes them); so heights never change once counted and
# no cycle can form.

_SCALARS = {
    "INT", "BININT", "BININT1", "BININT2", "LONG", "LONG1", "LONG4", "STRING", "BINSTRING",
    "SHORT_BINSTRING", "BINBYTES", "SHORT_BINBYTES", "BINBYTES8", "BYTEARRAY8", "UNICODE",
    "SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "NONE", "NEWTRUE", "NEWFALSE", "FLOAT",
    "BINFLOAT",
}
_EMPTY = {"EMPTY_LIST": True, "EMPTY_DICT": True, "EMPTY_SET": True, "EMPTY_TUPLE": False}
_FROM_MARK = {"LIST", "DICT", "TUPLE", "FROZENSET"}
_FILL_FROM_MARK = {"APPENDS", "SETITEMS", "ADDITEMS"}
_NO_EFFECT = {"PROTO", "FRAME"}
_PUT = {"PUT", "BINPUT", "LONG_BINPUT"}
_GET = {"GET", "BINGET", "LONG_BINGET"}


class _Obj:
    __slots__ = ("height", "mutable", "contained")

    def __init__(self, height, mutable):
        self.height, self.mutable, self.contained = height, mutable, False


_SCALAR = _Obj(0, False)
_MARK = object()


def scan(data):
    """Refuses (BadInput) a pickle that is not plain values nested at most
    MAX_DEPTH deep; the C unpickler may then load it safely."""
    stack, marks, memo = [], [], {}

    def pop_to_mark(pos):
        if not marks:
            raise BadInput(f"not a valid pickle: no mark before byte {pos}")
        at = marks.pop()
        items = stack[at:]
        del stack[at:]
        return items

    def add(container, items, pos):
        for it in items:
            if it is _MARK:
                raise BadInput(f"not a valid pickle: a mark inside a container at byte {pos}")
            if it is container:
                raise BadInput(f"a recursive structure at byte {pos}: a snapshot holds none")
            if it is not _SCALAR:
                it.contained = True
            if it.height + 1 > container.height:
                container.height = it.height + 1
        if container.height > MAX_DEPTH:
            raise BadInput(f"nested more than {MAX_DEPTH} levels deep at byte {pos}; "
                           f"a snapshot nests about 8")

    def top(pos):
        if not stack or stack[-1] is _MARK:
            raise BadInput(f"not a valid pickle: empty stack at byte {pos}")
        return stack[-1]

    def fill(target, items, pos):
        if target is _SCALAR or not target.mutable:
            raise BadInput(f"not a valid pickle: filling a value that is not a list, dict or set "
                           f"at byte {pos}")
        if target.contained:
            raise BadInput(f"a container filled after it was put in another at byte {pos}: "
                           f"not a pickle of plain values as pickle.dump writes them")
        add(target, items, pos)

    try:
        for op, arg, pos in pickletools.genops(data):
            name = op.name
            if name in _SCALARS:
                stack.append(_SCALAR)
            elif name in _EMPTY:
                stack.append(_Obj(1, _EMPTY[name]))
            elif name == "MARK":
                marks.append(len(stack))
                stack.append(_MARK)
            elif name in _FROM_MARK:
                items = pop_to_mark(pos)[1:]
                obj = _Obj(1, name in ("LIST", "DICT"))
                add(obj, items, pos)
                stack.append(obj)
            elif name in ("TUPLE1", "TUPLE2", "TUPLE3"):
                n = int(name[-1])
                if len(stack) < n or any(x is _MARK for x in stack[-n:]):
                    raise BadInput(f"not a valid pickle: {name} without {n} values at byte {pos}")
                obj = _Obj(1, False)
                add(obj, stack[-n:], pos)
                del stack[-n:]
                stack.append(obj)
            elif name in _FILL_FROM_MARK:
                items = pop_to_mark(pos)[1:]
                fill(top(pos), items, pos)
            elif name in ("APPEND", "SETITEM"):
                n = 1 if name == "APPEND" else 2
                if len(stack) < n + 1 or any(x is _MARK for x in stack[-n - 1:]):
                    raise BadInput(f"not a valid pickle: {name} without its values at byte {pos}")
                items = stack[-n:]
                del stack[-n:]
                fill(stack[-1], items, pos)
            elif name == "POP":
                if not stack:
                    raise BadInput(f"not a valid pickle: POP on an empty stack at byte {pos}")
                if stack.pop() is _MARK:
                    marks.pop()
            elif name == "POP_MARK":
                pop_to_mark(pos)
            elif name == "DUP":
                stack.append(top(pos))
            elif name in _PUT or name == "MEMOIZE":
                idx = len(memo) if name == "MEMOIZE" else arg
                if not isinstance(idx, int) or idx < 0 or idx > len(data):
                    raise BadInput(f"memo index {idx!r} at byte {pos} is beyond the file's size")
                memo[idx] = top(pos)
            elif name in _GET:
                if arg not in memo:
                    raise BadInput(f"not a valid pickle: memo index {arg!r} read before it is "
                                   f"written, at byte {pos}")
                stack.append(memo[arg])
            elif name in _NO_EFFECT:
                pass
            elif name == "STOP":
                if len(stack) != 1 or marks:
                    raise BadInput(f"not a valid pickle: {len(stack)} values left at STOP "
                                   f"(byte {pos})")
                return
            else:
                raise BadInput(f"refusing opcode {name} at byte {pos}: a snapshot holds plain "
                               f"values only, no class or object")
    except BadInput:
        raise
    except (ValueError, IndexError, OverflowError, MemoryError) as e:
        raise BadInput(f"not a valid pickle: {_one_line(e)}") from None
    raise BadInput("not a valid pickle: it ends before its STOP opcode")


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refusing {module}.{name}: a snapshot holds plain values only")


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    if not data:
        raise BadInput("empty file; expected a pickle from torch.cuda.memory._dump_snapshot()")
    scan(data)
    try:
        return _PlainUnpickler(io.BytesIO(data)).load()
    except (pickle.UnpicklingError, ValueError, TypeError, EOFError, IndexError, KeyError,
            AttributeError, OverflowError, MemoryError, RecursionError) as e:
        raise BadInput(f"not a valid pickle: {_one_line(e)}") from None


# ---- Checking and writing. ----

def _one_line(e):
    text = " ".join(str(e).split()) or type(e).__name__
    return text[:200]


def _describe(v):
    """A value for a message: scalars shown (shortened), containers by type."""
    if isinstance(v, (bool, int, float)) and not (isinstance(v, int) and v.bit_length() > 128):
        return f"{type(v).__name__} {v!r}"
    if isinstance(v, str):
        return f"str {v[:40]!r}" + ("..." if len(v) > 40 else "")
    return type(v).__name__


def _integer(entry, key, where, low, default=None):
    if key not in entry:
        if default is not None:
            return default
        raise BadInput(f"{where} has no {key!r}; expected an integer from {low} to 2**64-1")
    v = entry[key]
    if type(v) is not int or not low <= v < U64:
        raise BadInput(f"{where}[{key!r}] is {_describe(v)}; expected an integer from {low} "
                       f"to 2**64-1")
    return v


def events(snap, device):
    """Yields (action, addr, size, stream) for the device; BadInput names the
    first value that breaks a rule."""
    if not isinstance(snap, dict):
        raise BadInput(f"the top level is {_describe(snap)}; expected a dict with device_traces")
    traces = snap.get("device_traces")
    if traces is None:
        raise BadInput("no device_traces: record the memory history "
                       "(torch.cuda.memory._record_memory_history()) before dumping the snapshot")
    if not isinstance(traces, list):
        raise BadInput(f"device_traces is {_describe(traces)}; expected a list (one per device)")
    if device >= len(traces):
        raise BadInput(f"device {device} not in the snapshot (it has {len(traces)}; "
                       f"--device 0 to {len(traces) - 1})")
    entries = traces[device]
    if not isinstance(entries, list):
        raise BadInput(f"device_traces[{device}] is {_describe(entries)}; expected a list of dicts")
    for i, entry in enumerate(entries):
        where = f"device_traces[{device}][{i}]"
        if not isinstance(entry, dict):
            raise BadInput(f"{where} is {_describe(entry)}; expected a dict")
        action = entry.get("action")
        if not isinstance(action, str) or action not in ACTIONS:
            raise BadInput(f"{where}['action'] is {_describe(action)}; expected one of "
                           f"{', '.join(ACTIONS)}")
        if action not in KEPT:
            yield action, None, None, None
            continue
        yield (action, _integer(entry, "addr", where, 1), _integer(entry, "size", where, 0),
               _integer(entry, "stream", where, 0, default=0))


def write_atomically(path, fill):
    """Writes through fill(text_file) to a temporary file beside path and
    renames it over path only when fill returns; removes it otherwise."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path) + ".",
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as raw:
            gz = gzip.GzipFile(fileobj=raw, mode="wb", filename="", mtime=0) \
                if path.endswith(".gz") else None
            out = io.TextIOWrapper(gz or raw, encoding="ascii", newline="\n")
            result = fill(out)
            out.detach()  # flushes; leaves gz and raw open
            if gz:
                gz.close()  # the gzip trailer; raw stays open
            raw.flush()
            os.fsync(raw.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
        return result
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def convert(snap, device, out):
    out.write("action,addr,size,stream\n")
    kept = skipped = 0
    for action, addr, size, stream in events(snap, device):
        if addr is None:
            skipped += 1
            continue
        out.write(f"{action},{addr},{size},{stream}\n")
        kept += 1
    return kept, skipped


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        sys.stderr.write(f"snapshot_to_trace: {message}; usage: snapshot_to_trace.py SNAPSHOT OUT "
                         f"[--device N]\n")
        sys.exit(2)


def _device(text):
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"--device {text!r}: expected an integer from 0")
    return n


def main(argv=None):
    ap = _Parser(description=__doc__.split("\n\n")[0],
                 epilog="Exit status: 0 written, 1 bad input or a failure to read or write "
                        "(one line on stderr, OUT untouched), 2 usage.")
    ap.add_argument("snapshot")
    ap.add_argument("out")
    ap.add_argument("--device", type=_device, default=0)
    args = ap.parse_args(argv)
    stage = "read"
    try:
        snap = load(args.snapshot)
        stage = "write"
        kept, skipped = write_atomically(args.out, lambda out: convert(snap, args.device, out))
    except BadInput as e:
        sys.stderr.write(f"snapshot_to_trace: {args.snapshot}: {e}\n")
        return 1
    except OSError as e:
        path = args.snapshot if stage == "read" else args.out
        sys.stderr.write(f"snapshot_to_trace: cannot {stage} {path}: {e.strerror or _one_line(e)}\n")
        return 1
    except MemoryError:
        sys.stderr.write(f"snapshot_to_trace: {args.snapshot}: out of memory\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("snapshot_to_trace: interrupted; nothing written\n")
        return 130
    except Exception as e:  # a case the rules above missed: still one line, no traceback
        sys.stderr.write(f"snapshot_to_trace: {args.snapshot}: internal error (please report "
                         f"it with the file): {type(e).__name__}: {_one_line(e)}\n")
        return 1
    print(f"snapshot_to_trace: {kept} events written to {args.out}, {skipped} other entries skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
