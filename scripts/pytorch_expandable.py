#!/usr/bin/env python3
"""scripts/pytorch_expandable.py - what PyTorch's caching allocator with
expandable segments reserves for a trace: a model, to put beside the replay.

usage: pytorch_expandable.py [--json] TRACE...

TRACE is the replayer's CSV (tests/traces/README.md). Prints, per trace, the
peak of mapped memory of PyTorch's rules as PyTorch 2.11 applies them
(c10/cuda/CUDACachingAllocator.cpp), written from those rules, not from its
code:
- requests round up to 512 bytes; up to 1 MiB they are small, else large;
- each stream has a small and a large pool, each one expandable segment,
  mapped from its start in pages of 2 MiB (small) or 20 MiB (large);
- best fit among the pool's mapped free blocks (size, then address), except
  that the free block at the mapped end counts as large as the unmapped rest
  behind it, so that another block that fits is taken first;
- none fits: pages are mapped at the end for what the free block there (if
  any) lacks, rounded up to the page;
- a block splits whenever 512 bytes or more remain; a freed block merges with
  its free neighbours and goes back to its stream's pool when its free is
  complete (`free_completed`; `free_requested` alone on a trace without it).
Nothing is unmapped: without memory pressure PyTorch releases nothing.
On the traces recorded with PyTorch's own allocator and expandable segments
(`expandable_max_reserved` in the JSON beside them) it gives their figure
to the byte (tests/test_pytorch_expandable.py).
"""
import argparse
import bisect
import gzip
import json
import sys

MiB = 1 << 20
SMALL_REQUEST = MiB
PAGE = {True: 2 * MiB, False: 20 * MiB}


class Block:
    __slots__ = ("addr", "size", "free", "mapped", "prev", "next")

    def __init__(self, addr, size, mapped, free=True):
        self.addr, self.size, self.mapped, self.free = addr, size, mapped, free
        self.prev = self.next = None


class Pool:
    """One stream's small or large pool: one expandable segment."""

    def __init__(self, small):
        self.page = PAGE[small]
        self.free_blocks = []  # (size, addr, block) of the mapped free blocks
        self.tail = Block(0, 1 << 50, mapped=False)  # the unmapped rest, always last
        self.mapped = 0

    def add(self, b):
        bisect.insort(self.free_blocks, (b.size, b.addr, b))

    def remove(self, b):
        del self.free_blocks[bisect.bisect_left(self.free_blocks, (b.size, b.addr))]

    def best_fit(self, size):
        i = bisect.bisect_left(self.free_blocks, (size, -1))
        if i == len(self.free_blocks):
            return None
        b = self.free_blocks[i][2]
        if b.next is self.tail and i + 1 < len(self.free_blocks):
            b = self.free_blocks[i + 1][2]  # the end block counts as unbounded
        return b

    def grow(self, size):
        """Maps pages at the end; the free block there, grown to fit size."""
        last = self.tail.prev
        have = last.size if last and last.free else 0
        n = -(-(size - have) // self.page) * self.page
        new = Block(self.tail.addr, n, mapped=True)
        self.link_before(new, self.tail)
        self.tail.addr += n
        self.tail.size -= n
        self.mapped += n
        return self.merge(new)

    @staticmethod
    def link_before(b, at):
        b.prev, b.next = at.prev, at
        if at.prev:
            at.prev.next = b
        at.prev = b

    def merge(self, b):
        """b free and mapped, in no list: merged with its free neighbours."""
        for nb in (b.prev, b.next):
            if nb is None or not nb.free or not nb.mapped:
                continue
            self.remove(nb)
            lo, hi = (nb, b) if nb is b.prev else (b, nb)
            lo.size += hi.size
            lo.next = hi.next
            if hi.next:
                hi.next.prev = lo
            b = lo
        self.add(b)
        return b

    def alloc(self, size):
        b = self.best_fit(size) or self.grow(size)
        self.remove(b)
        if b.size - size >= 512:
            rest = Block(b.addr + size, b.size - size, mapped=True)
            self.link_before(rest, b.next)
            b.size = size
            self.add(rest)
        b.free = False
        return b

    def release(self, b):
        b.free = True
        self.merge(b)


def round_size(n):
    return max(512, -(-n // 512) * 512)


def peak_reserved(path):
    pools, live, peak = {}, {}, 0
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        lines = [line.rstrip("\n").split(",") for line in f][1:]
    completes = any(row[0] == "free_completed" for row in lines)
    for action, addr, size, stream in lines:
        if action == "alloc":
            n = round_size(int(size))
            key = (stream, n <= SMALL_REQUEST)
            pool = pools.get(key) or pools.setdefault(key, Pool(key[1]))
            live[addr] = (pool, pool.alloc(n))
            peak = max(peak, sum(p.mapped for p in pools.values()))
        elif action == ("free_completed" if completes else "free_requested") and addr in live:
            pool, b = live.pop(addr)
            pool.release(b)
    return peak


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="one JSON line per trace")
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    for t in a.traces:
        peak = peak_reserved(t)
        if a.json:
            print(json.dumps({"trace": t, "pytorch_expandable_peak_reserved": peak}))
        else:
            print(f"{t}: {peak / MiB:.0f} MiB ({peak} bytes)")


if __name__ == "__main__":
    sys.exit(main())
