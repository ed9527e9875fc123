#!/usr/bin/env python3
"""scripts/gpu/share_pair.py - two PyTorch processes whose peaks alternate
on one device (issue 33): does one process's idle cache reach the other?

A blocker (fit.py's) holds all of the device but --free-gib GiB. Two
processes, A and B, take turns: in its turn a process allocates --peak-frac
of that free amount, writes it, synchronizes and frees it (the memory stays
in its allocator's cache), then the other takes its turn; --rounds turns
each. Per configuration (PyTorch's allocator in both, or both under the
library with its cache off), one line per process: out-of-memory count, the
median and the longest turn (ms: the allocation, the write, the free; under
the library a turn that needed the neighbour's memory includes the wait for
it), then `share-pair CONFIG oom=N max_turn_ms=M`.

usage: share_pair.py --lib build-gpu/interpose/libcachemalloc.so
                     [--free-gib 8] [--peak-frac 0.6] [--rounds 10] [--out DIR]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def child(peak):
    import torch
    torch.ones(1, device="cuda")  # context and library up before the first turn
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() != "go":
            break
        t = time.perf_counter()
        try:
            x = torch.empty(peak, dtype=torch.uint8, device="cuda")
            x.fill_(1)
            torch.cuda.synchronize()
            del x
            res = "ok"
        except torch.OutOfMemoryError:
            res = "oom"
        print(f"{res} {1e3 * (time.perf_counter() - t):.2f}", flush=True)


def spawn(a, config, name):
    env = dict(os.environ)
    for k in ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_NO_CUDA_MEMORY_CACHING", "LD_PRELOAD",
              "CACHEMALLOC_CONF"):
        env.pop(k, None)
    if config == "lib":
        env["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1"
        env["LD_PRELOAD"] = os.path.abspath(a.lib)
        if a.out:
            env["CACHEMALLOC_CONF"] = f"stats:exit-json:{a.out}/share_pair_{name}.json"
    peak = int(a.peak_frac * a.free_gib * 2**30)
    p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child", str(peak)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert p.stdout.readline().strip() == "ready"
    return p


def run(a, config):
    procs = {n: spawn(a, config, f"{config}_{n}") for n in ("A", "B")}
    turns = {n: [] for n in procs}
    ooms = {n: 0 for n in procs}
    for _ in range(a.rounds):
        for n, p in procs.items():
            p.stdin.write("go\n")
            p.stdin.flush()
            res, ms = p.stdout.readline().split()
            turns[n].append(float(ms))
            ooms[n] += res == "oom"
    for p in procs.values():
        p.stdin.close()
        p.wait(timeout=60)
    for n in procs:
        print(f"share-pair {config} {n}: oom {ooms[n]}/{a.rounds}, turn median "
              f"{statistics.median(turns[n]):.1f} ms, longest {max(turns[n]):.1f} ms", flush=True)
    worst = max(max(t) for t in turns.values())
    print(f"share-pair {config} oom={sum(ooms.values())} max_turn_ms={worst:.1f}", flush=True)
    return {"config": config, "oom": ooms, "turns_ms": turns}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lib", default="build-gpu/interpose/libcachemalloc.so")
    ap.add_argument("--free-gib", type=float, default=8.0)
    ap.add_argument("--peak-frac", type=float, default=0.6)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--configs", default="caching,lib")
    ap.add_argument("--out")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child is not None:
        return child(a.child)
    env = dict(os.environ)
    for k in ("LD_PRELOAD", "PYTORCH_NO_CUDA_MEMORY_CACHING", "CACHEMALLOC_CONF"):
        env.pop(k, None)
    blk = subprocess.Popen([sys.executable, os.path.join(HERE, "fit.py"), "--blocker",
                            "--free-gib", str(a.free_gib)], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True, env=env)
    print("blocker", blk.stdout.readline().strip(), flush=True)
    try:
        results = [run(a, c) for c in a.configs.split(",")]
    finally:
        blk.stdin.close()
        blk.wait(timeout=30)
    if a.out:
        with open(os.path.join(a.out, "share_pair.json"), "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
