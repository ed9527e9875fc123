#!/usr/bin/env python3
"""Runs one integration program many times under the preloaded library with
failures injected into the driver calls the library makes itself (the fake
driver's FAKECUDA_FAIL, tests/fakecuda/fakecu_fault.c; issue 36), each run
checked by run_mode.py: the program ends normally (no abort, no signal) with
every check of its own passed (its data patterns: no block handed out while
earlier work could still write it; every CUDA call it makes succeeds, so it
sees no error CUDA would not return), and at exit the device memory the
process holds is exactly the cache's reserved_bytes (nothing leaked past the
cache's books when a release failed).

usage: run_faults.py RUN_MODE_PY LIBRARY MODE EXTRA_CONF FUNCTIONS PROBABILITY
                     FIRST_SEED SEEDS STATS_DIR -- PROGRAM [ARGS...]

Prints one line per failed run (its seed and how to repeat it) and a summary:
runs, faults injected, failures. Fails when any run failed, or when no fault
was injected in all the runs (the injection would then test nothing).
"""
import json
import os
import subprocess
import sys


def main():
    a = sys.argv
    if len(a) < 12 or a[10] != "--":
        print("usage: run_faults.py RUN_MODE_PY LIBRARY MODE EXTRA_CONF FUNCTIONS "
              "PROBABILITY FIRST_SEED SEEDS STATS_DIR -- PROGRAM [ARGS...]")
        return 2
    run_mode, lib, mode, extra, funcs, prob = a[1:7]
    first, seeds, stats_dir, cmd = int(a[7]), int(a[8]), a[9], a[11:]
    os.makedirs(stats_dir, exist_ok=True)
    name = os.path.basename(cmd[0]) + "-" + mode
    injected = failed = 0
    for seed in range(first, first + seeds):
        fail = f"{funcs}:{prob}:{seed}"
        env = dict(os.environ, FAKECUDA_FAIL=fail)
        stats = os.path.join(stats_dir, f"{name}-{seed}.json")
        p = subprocess.run([sys.executable, run_mode, lib, mode, stats, extra, "--"] + cmd,
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            with open(stats + ".device") as f:
                injected += json.load(f).get("injected_faults", 0)
        except (OSError, ValueError):
            pass
        if p.returncode != 0:
            failed += 1
            tail = "\n    ".join(p.stdout.strip().splitlines()[-6:])
            print(f"FAIL {name} seed {seed} (exit {p.returncode}): FAKECUDA_FAIL={fail} "
                  f"mode {mode}, extra conf {',' + extra if extra else ''}\n    {tail}")
    print(f"run_faults: {name}: {seeds} runs (seeds {first}-{first + seeds - 1}), "
          f"{injected} faults injected into {funcs} at {prob}, {failed} failed")
    if injected == 0:
        print(f"FAIL run_faults: {name}: no fault was injected")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
