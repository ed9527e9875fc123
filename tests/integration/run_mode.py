#!/usr/bin/env python3
"""Runs one integration program under the preloaded library in one mode and
checks the statistics it writes at exit, so that a mode that silently does
nothing, or that keeps memory it should not, fails.

usage: run_mode.py [--device-usage-unchecked] LIBRARY MODE STATS_JSON EXTRA_CONF --
                   PROGRAM [ARGS...]

The program runs with LIBRARY preloaded (only the program: not this script)
and CACHEMALLOC_CONF set to the mode's (default: nothing; expandable:
expandable_segments:True; host: free_fence:host), EXTRA_CONF (may be empty)
and stats:exit-json:STATS_JSON. The program's exit status is passed on when
it is not 0; else every check below must hold:
- the cache served the program (alloc_calls > 0);
- the books balance: reserved_bytes >= allocated_bytes, stitch_free_bytes <=
  reserved_bytes, no segment without reserved memory and none of it
  without a segment (kept chunks and memory the driver did not take back
  aside);
- expandable_segments:True really used the driver's VMM calls (vmm_maps > 0,
  no plain segment: raw_alloc_calls == 0);
- free_fence:host never ordered a reuse on the device (no fence, stream wait
  or lazy wait), and the default mode (gpu) never mapped a VMM chunk;
- on the fake driver (FAKECUDA_USAGE_AT_EXIT), the device memory the process
  holds at exit is exactly the cache's reserved_bytes: nothing leaked past
  the cache's books.
"""
import json
import os
import subprocess
import sys


def fail(msg):
    print(f"FAIL run_mode: {msg}")
    sys.exit(1)


MODES = {"default": "", "expandable": "expandable_segments:True", "host": "free_fence:host"}


def main():
    # The device-usage check off for a run (meson.build says which and why).
    usage_checked = sys.argv[1:2] != ["--device-usage-unchecked"]
    if not usage_checked:
        del sys.argv[1]
    if len(sys.argv) < 7 or sys.argv[5] != "--" or sys.argv[2] not in MODES:
        fail("usage: run_mode.py LIBRARY default|expandable|host STATS_JSON EXTRA_CONF -- "
             "PROGRAM [ARGS...]")
    lib, mode, path, extra, cmd = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[6:]
    env = dict(os.environ)
    conf = [c for c in (MODES[mode], extra, f"stats:exit-json:{path}") if c]
    env["CACHEMALLOC_CONF"] = ",".join(conf)
    env["LD_PRELOAD"] = lib
    usage = path + ".device"
    env["FAKECUDA_USAGE_AT_EXIT"] = usage
    for p in (path, usage):
        if os.path.exists(p):
            os.unlink(p)
    rc = subprocess.call(cmd, env=env)
    if rc != 0:
        sys.exit(rc)
    try:
        with open(path) as f:
            st = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{mode}: no statistics at exit in {path}: {e}")
    checks = [
        (st["alloc_calls"] > 0, "the cache served no allocation (alloc_calls 0)"),
        (st["reserved_bytes"] >= st["allocated_bytes"], "reserved_bytes below allocated_bytes"),
        (st["stitch_free_bytes"] <= st["reserved_bytes"], "kept chunks not in reserved_bytes"),
        ((st["segments"] == 0) == (st["reserved_bytes"] == st["stitch_free_bytes"] +
                                   st.get("unreleased_bytes", 0)),
         f"segments {st['segments']} with reserved_bytes {st['reserved_bytes']}"),
    ]
    if mode == "expandable":
        checks += [(st["vmm_maps"] > 0, "expandable_segments:True mapped no VMM chunk "
                    "(vmm_maps 0): plain segments were used"),
                   (st["raw_alloc_calls"] == 0,
                    f"expandable_segments:True made {st['raw_alloc_calls']} plain segments")]
    if mode == "host":
        n = st["fences"] + st["stream_waits"] + st["lazy_waits"]
        checks.append((n == 0, f"free_fence:host ordered {n} reuses on the device"))
    if mode == "default":
        checks.append((st["vmm_maps"] == 0, "the default mode mapped VMM chunks"))
    try:  # the fake driver's count (not on a GPU)
        with open(usage) as f:
            dev = json.load(f)
    except (OSError, ValueError):
        dev = None
    if usage_checked and dev is not None and not dev["pending_frees"]:
        checks.append((dev["used_bytes"] == st["reserved_bytes"],
                       f"the device holds {dev['used_bytes']} bytes for this process at exit, "
                       f"the cache accounts for {st['reserved_bytes']} (reserved_bytes)"))
    bad = [msg for ok, msg in checks if not ok]
    for msg in bad:
        print(f"FAIL run_mode: {mode}: {msg}")
    if not bad:
        print(f"run_mode: {mode}: statistics ok (alloc_calls {st['alloc_calls']}, "
              f"vmm_maps {st['vmm_maps']}, reserved_bytes {st['reserved_bytes']})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
