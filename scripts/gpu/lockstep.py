#!/usr/bin/env python3
"""scripts/gpu/lockstep.py - configurations of one script compared in turns, not in runs.

usage: lockstep.py [--rounds R] [--block B] [--cpus LIST] [--out DIR] [--end-timeout S]
                   SCRIPT NAME=ENV ...

Starts one process of SCRIPT per configuration (NAME=ENV: a label, then the
variables that make it, as "A=1 B=2"; the first one is the baseline), all at
once, pinned to the same CPUs (taskset -c LIST, default 2,3), and lets them
run their timed steps in turns: R rounds, in each round every process runs a
block of B steps while the others wait (torch_common.Lockstep), the order
rotated from round to round. Between two runs of a script the host's speed
changed by up to 1.2x on an H200's host (docs/gpu.md, "Comparing step
times"); within a round the configurations meet the same speed. Prints, per
configuration, the median of its blocks' median step times, and against the
baseline the rounds' ratios: median, geometric mean with its 95% interval
(Student's t over the rounds' log ratios), range; then each configuration's
output checksum (out_sha256, else param_sha256), which must be equal where
the program is deterministic. Every block's median goes to DIR/lockstep.json.
A benchmark: the exit status says only whether every process ran to its end.
"""
import argparse
import json
import math
import os
import shlex
import statistics
import subprocess
import sys

# Student's t, two-sided 95%, by degrees of freedom (then 1.96).
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
       10: 2.23, 12: 2.18, 15: 2.13, 20: 2.09, 25: 2.06, 30: 2.04, 40: 2.02, 60: 2.00}


def t95(df):
    return next((T95[k] for k in sorted(T95) if k >= df), 1.96)


def interval(ratios):
    """The geometric mean of ratios and its 95% interval."""
    logs = [math.log(r) for r in ratios]
    mean = statistics.fmean(logs)
    if len(logs) < 2:
        return math.exp(mean), None, None
    half = t95(len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half)


class Proc:
    def __init__(self, name, env_words, a):
        self.name = name
        go_r, go_w = os.pipe()
        done_r, done_w = os.pipe()
        env = dict(os.environ, GPU_LOCKSTEP_FDS=f"{go_r},{done_w}", GPU_LOCKSTEP_BLOCK=str(a.block))
        for word in env_words:
            k, _, v = word.partition("=")
            env[k] = v
        self.out = os.path.join(a.out, f"lockstep_{name}.json")
        cmd = [sys.executable, a.script, "--label", name, "--out", self.out,
               "--steps", str(a.rounds * a.block)]
        if a.cpus:
            cmd = ["taskset", "-c", a.cpus] + cmd
        self.p = subprocess.Popen(cmd, env=env, pass_fds=(go_r, done_w),
                                  stdout=subprocess.DEVNULL)
        os.close(go_r)
        os.close(done_w)
        self.go = os.fdopen(go_w, "w")
        self.done = os.fdopen(done_r, "r")
        self.blocks = []

    def expect(self, word):
        line = self.done.readline().split()
        if not line or line[0] != word:
            raise RuntimeError(f"{self.name}: expected '{word}', got {line or 'the end'}")
        return line[1:]

    def turn(self):
        self.go.write("go\n")
        self.go.flush()
        self.blocks.append(float(self.expect("block")[0]))

    def finish(self, timeout):
        """Its exit status; a process that does not end within timeout s is killed and FAILs."""
        self.go.close()
        try:
            return self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            print(f"lockstep: FAIL: {self.name} did not end within {timeout} s of its last turn; killed")
            self.p.kill()
            return self.p.wait()


def checksum(path):
    """The run's output checksum (torch_streams.py's outputs, torch_train.py's parameters)."""
    try:
        with open(path) as f:
            r = json.load(f)
        return r.get("out_sha256") or r.get("param_sha256")
    except (OSError, ValueError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--block", type=int, default=10)
    ap.add_argument("--cpus", default="2,3", help="taskset's CPU list; empty: not pinned")
    ap.add_argument("--out", default=".")
    ap.add_argument("--end-timeout", type=float, default=120,
                    help="seconds a process may take to end after its last turn")
    ap.add_argument("script")
    ap.add_argument("configs", nargs="+", help="NAME=ENV, the first the baseline")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    confs = [c.partition("=") for c in a.configs]
    procs = [Proc(name, shlex.split(env), a) for name, _, env in confs]
    try:
        for p in procs:
            p.expect("ready")
        for r in range(a.rounds):
            for k in range(len(procs)):
                procs[(r + k) % len(procs)].turn()
    except (RuntimeError, BrokenPipeError, ValueError) as e:
        print(f"lockstep: FAIL: {e}")
        for p in procs:
            p.p.kill()
        return 1
    rcs = [p.finish(a.end_timeout) for p in procs]
    base = procs[0]
    print(f"lockstep {os.path.basename(a.script)}: {a.rounds} rounds of {a.block} steps, "
          f"CPUs {a.cpus or 'any'}")
    for p, rc in zip(procs, rcs):
        line = f"lockstep {p.name}: median {statistics.median(p.blocks):.3f} ms, exit {rc}"
        if p is not base:
            ratios = [x / b for x, b in zip(p.blocks, base.blocks)]
            geo, lo, hi = interval(ratios)
            ci = f", 95% interval {lo:.3f}-{hi:.3f}x" if lo else ""
            line += (f"; rounds' ratio to {base.name}: median {statistics.median(ratios):.3f}x, "
                     f"geometric mean {geo:.3f}x{ci}, range {min(ratios):.3f}-{max(ratios):.3f}x, "
                     f"faster in {sum(x < 1 for x in ratios)} of {len(ratios)}")
        print(line)
    with open(os.path.join(a.out, "lockstep.json"), "w") as f:
        json.dump({"script": a.script, "block": a.block, "cpus": a.cpus,
                   "blocks_ms": {p.name: p.blocks for p in procs}}, f)
    sums = {p.name: checksum(p.out) for p in procs}
    equal = len(set(sums.values())) == 1 and None not in sums.values()
    listed = ", ".join(f"{k} {(v or 'none')[:12]}" for k, v in sums.items())
    print(f"lockstep outputs: {listed}; all equal: {'YES' if equal else 'NO'}")
    return 0 if all(rc == 0 for rc in rcs) else 1


if __name__ == "__main__":
    sys.exit(main())
