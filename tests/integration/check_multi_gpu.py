#!/usr/bin/env python3
"""tests/integration/check_multi_gpu.py - prog_multi_gpu under the library, its
statistics checked.

    check_multi_gpu.py MODE PROGRAM [VAR=VALUE ...]

MODE is default, expandable or host; VAR=VALUE are set in the program's
environment (LD_PRELOAD=libcachemalloc.so, ...). The program runs with
CACHEMALLOC_CONF set for the mode plus stats:exit-json, on two fake devices,
and must exit 0. Its "N allocation calls" line must equal the library's
alloc_calls and free_calls (every cudaMalloc and cudaFree reached the
library), nothing may be allocated at exit or refused as an invalid free, and
the mode must have done its work: default fences or collects (free_fence:gpu:
a reuse after work on another stream is ordered or proven complete), host
synchronizes instead and never fences, expandable maps chunks (vmm_maps) and
makes no plain segment.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

MODES = {
    "default": "",
    "expandable": "expandable_segments:True",
    "host": "free_fence:host",
}


def mode_checks(mode, st):
    if mode == "default":
        return [("fences + collects > 0", st["fences"] + st["collects"] > 0)]
    if mode == "host":
        return [("host_syncs > 0", st["host_syncs"] > 0), ("fences == 0", st["fences"] == 0)]
    return [("vmm_maps > 0", st["vmm_maps"] > 0),
            ("raw_alloc_calls == 0", st["raw_alloc_calls"] == 0)]


def main(argv):
    if len(argv) < 2 or argv[0] not in MODES:
        print(__doc__, file=sys.stderr)
        return 2
    mode, prog = argv[0], argv[1]
    env = dict(os.environ)
    env.update(v.split("=", 1) for v in argv[2:])
    env["FAKECUDA_DEVICES"] = "2"
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        conf = ",".join(c for c in (MODES[mode], "stats:exit-json:" + stats) if c)
        env["CACHEMALLOC_CONF"] = conf
        p = subprocess.run([prog], env=env, capture_output=True, text=True, timeout=120)
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        if p.returncode != 0:
            print(f"FAIL: {prog} under CACHEMALLOC_CONF={conf}: exit {p.returncode}")
            return 1
        m = re.search(r"(\d+) allocation calls", p.stdout)
        try:
            with open(stats) as f:
                st = json.load(f)
        except (OSError, ValueError) as e:
            print(f"FAIL: no statistics from the library ({e}): was it preloaded?")
            return 1
    if not m:
        print("FAIL: the program printed no 'N allocation calls' line")
        return 1
    n = int(m.group(1))
    checks = [(f"alloc_calls == {n}", st["alloc_calls"] == n),
              (f"free_calls == {n}", st["free_calls"] == n),
              ("allocated_bytes == 0", st["allocated_bytes"] == 0),
              ("allocated_blocks == 0", st["allocated_blocks"] == 0),
              ("invalid_frees == 0", st["invalid_frees"] == 0)] + mode_checks(mode, st)
    failed = [what for what, ok in checks if not ok]
    keys = ("alloc_calls", "free_calls", "cache_hits", "raw_alloc_calls", "fences", "collects",
            "host_syncs",
            "vmm_maps", "allocated_bytes", "peak_reserved_bytes")
    print(f"{mode}: " + ", ".join(f"{k}={st[k]}" for k in keys))
    for what in failed:
        print(f"FAIL: {mode}: expected {what}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
