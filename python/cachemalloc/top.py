"""`cachemalloc top` and `cachemalloc trim`: the user's processes on each GPU,
from the registries the library publishes (core/serve/share.h: one file per GPU
and user, /dev/shm/cachemalloc-UID-UUID, mode 0600).

The layout below is core/serve/share.h's (CM_SHARE_VERSION 1); change both
together. Reading needs no lock: the numbers are snapshots the library
writes at its slow-path events and whenever `top` asks (publish_seq).
"""
import ctypes
import glob
import json
import mmap
import os
import struct
import sys
import time

MAGIC = 0x31726873614D43
VERSION = 1
HEADER = 64
SLOT = 192
NSLOTS = 256
# Offsets in a slot (core/serve/share.h, cm_share_slot).
OFF_PID, OFF_WAKE, OFF_ASKS, OFF_DEVICE, OFF_START, OFF_COMMAND = 0, 4, 8, 12, 16, 24
OFF_NUMBERS = 56  # reserved allocated idle peak hits allocs ooms last_alloc_ns given_back received published_ns
NUMBERS = ("reserved_bytes", "allocated_bytes", "idle_bytes", "peak_bytes", "cache_hits",
           "allocations", "oom_count", "last_alloc_ns", "given_back_bytes", "received_bytes",
           "published_ns")
OFF_TRIM, OFF_PUBLISH, OFF_LISTENER = 144, 148, 152

SYS_FUTEX = {"x86_64": 202, "aarch64": 98}.get(os.uname().machine)
FUTEX_WAKE = 1


def registry_files():
    return sorted(glob.glob(f"/dev/shm/cachemalloc-{os.getuid()}-*"))


def _start_time(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return 0


def _alive(pid, start):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    now = _start_time(pid)
    return not (now and start and now != start)


class Registry:
    """One registry file, mapped read-write (trim and publish requests)."""

    def __init__(self, path):
        self.path = path
        self.uuid = path.rsplit("-", 1)[1]
        fd = os.open(path, os.O_RDWR)
        try:
            self.mm = mmap.mmap(fd, HEADER + SLOT * NSLOTS)
        finally:
            os.close(fd)
        magic, version = struct.unpack_from("<QI", self.mm, 0)
        if magic != MAGIC or version != VERSION:
            raise ValueError(f"{path}: not a version-{VERSION} registry")

    def close(self):
        self.mm.close()

    def _u32(self, off):
        return struct.unpack_from("<I", self.mm, off)[0]

    def _bump(self, off):
        struct.pack_into("<I", self.mm, off, (self._u32(off) + 1) & 0xFFFFFFFF)

    def _wake(self, slot_off):
        """Bumps the slot's futex word and wakes its listener."""
        self._bump(slot_off + OFF_WAKE)
        if SYS_FUTEX is None:
            return
        libc = ctypes.CDLL(None, use_errno=True)
        addr = ctypes.addressof(ctypes.c_char.from_buffer(self.mm, slot_off + OFF_WAKE))
        libc.syscall(ctypes.c_long(SYS_FUTEX), ctypes.c_void_p(addr), ctypes.c_int(FUTEX_WAKE),
                     ctypes.c_int(1), None, None, ctypes.c_int(0))

    def entries(self):
        out = []
        for i in range(NSLOTS):
            off = HEADER + i * SLOT
            pid, _, _, device, start = struct.unpack_from("<iIIIQ", self.mm, off)
            if pid <= 0 or not _alive(pid, start):
                continue
            command = bytes(self.mm[off + OFF_COMMAND:off + OFF_COMMAND + 32]).split(b"\0")[0]
            nums = struct.unpack_from("<11Q", self.mm, off + OFF_NUMBERS)
            e = {"pid": pid, "command": command.decode("utf-8", "replace"), "device": device,
                 "uuid": self.uuid, "slot": i}
            e.update(zip(NUMBERS, nums))
            e["listener"] = bool(struct.unpack_from("<Q", self.mm, off + OFF_LISTENER)[0])
            out.append(e)
        return out

    def ask(self, slot, field):
        off = HEADER + slot * SLOT
        self._bump(off + field)
        self._wake(off)


def snapshot(publish_wait=0.05):
    """Every live entry of every registry of the user; with publish_wait,
    asks each listener to publish first and waits that long."""
    regs = []
    for path in registry_files():
        try:
            regs.append(Registry(path))
        except (OSError, ValueError):
            continue
    if publish_wait:
        for r in regs:
            for e in r.entries():
                if e["listener"]:
                    r.ask(e["slot"], OFF_PUBLISH)
        time.sleep(publish_wait)
    out = []
    for r in regs:
        out.extend(r.entries())
        r.close()
    out.sort(key=lambda e: (e["uuid"], e["pid"]))
    return out


def _mib(n):
    return f"{n / 2**20:.0f}M"


def render(entries, out):
    out.write(f"{'PID':>7} {'DEV':>3} {'RESERVED':>9} {'ALLOC':>9} {'IDLE':>9} {'PEAK':>9} "
              f"{'HIT%':>5} {'OOMS':>4} {'GAVE':>8}  COMMAND\n")
    for e in entries:
        served = e["allocations"] + e["cache_hits"]
        hit = 100.0 * e["cache_hits"] / served if served else 0.0
        out.write(f"{e['pid']:>7} {e['device']:>3} {_mib(e['reserved_bytes']):>9} "
                  f"{_mib(e['allocated_bytes']):>9} {_mib(e['idle_bytes']):>9} "
                  f"{_mib(e['peak_bytes']):>9} {hit:>5.1f} {e['oom_count']:>4} "
                  f"{_mib(e['given_back_bytes']):>8}  {e['command']}\n")
    if not entries:
        out.write("(no process of this user uses the library on a GPU)\n")


def cmd_top(args):
    if args.once:
        entries = snapshot()
        if args.json:
            json.dump(entries, sys.stdout)
            sys.stdout.write("\n")
        else:
            render(entries, sys.stdout)
        return 0
    try:
        while True:
            entries = snapshot()
            sys.stdout.write("\x1b[H\x1b[2J")
            sys.stdout.write(f"cachemalloc top - {time.strftime('%H:%M:%S')} - "
                             f"{len(entries)} process(es)\n\n")
            render(entries, sys.stdout)
            sys.stdout.flush()
            time.sleep(args.interval)
    except KeyboardInterrupt:
        return 0


def cmd_trim(args):
    """Asks the process (or every process of the user) to give back its idle
    memory now: its listener releases it (core/serve/share.c)."""
    asked = 0
    for path in registry_files():
        try:
            r = Registry(path)
        except (OSError, ValueError):
            continue
        for e in r.entries():
            if args.pid in (None, "all") or str(e["pid"]) == str(args.pid):
                if e["listener"]:
                    r.ask(e["slot"], OFF_TRIM)
                    asked += 1
        r.close()
    if not asked:
        who = "of this user" if args.pid in (None, "all") else args.pid
        print(f"cachemalloc trim: no process {who} in a registry", file=sys.stderr)
        return 1
    print(f"cachemalloc trim: asked {asked} process(es)")
    return 0


def add_parsers(sub):
    p = sub.add_parser("top", help="live view of the user's processes on each GPU (the registry)",
                       description="live view of the user's processes under the library on each "
                                   "GPU: reserved, allocated, idle, peak, hit rate, OOMs, given "
                                   "back to neighbours")
    p.add_argument("--once", action="store_true", help="print once and exit")
    p.add_argument("--json", action="store_true", help="with --once: one JSON list of objects")
    p.add_argument("--interval", type=float, default=1.0, help="seconds between refreshes")
    p.set_defaults(fn=lambda a: sys.exit(cmd_top(a)))
    p = sub.add_parser("trim", help="ask a process (or all of the user's) to give back its idle "
                                    "GPU memory now",
                       description="ask a process (PID, or all of the user's) to give back its idle "
                                   "cached GPU memory now")
    p.add_argument("pid", nargs="?", default="all", help="a pid, or all (default)")
    p.set_defaults(fn=lambda a: sys.exit(cmd_trim(a)))


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(prog="top.py")
    add_parsers(ap.add_subparsers(dest="command"))
    a = ap.parse_args()
    a.fn(a)
