"""Runs cached_pairs under the library and checks that the thread's
cache served every pair after the first (thread_cache_hits,
stats:exit-json) at 4 KiB, 4 MiB and 256 MiB, with and without a
non-blocking stream alive (the reuse rules judge), at the runtime's and
the driver's level.
usage: check_cached_pairs.py PROG LIBCACHEMALLOC"""
import json
import os
import subprocess
import sys
import tempfile

PROG, LIB = sys.argv[1], sys.argv[2]
PAIRS = 1000
failures = 0

for size in (4096, 4 << 20, 256 << 20):
    for stream in ("none", "stream"):
        for level in ("runtime", "driver"):
            case = f"{size} bytes, {stream}, {level}"
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "stats.json")
                env = dict(os.environ, LD_PRELOAD=LIB, CACHEMALLOC_CONF=f"stats:exit-json:{path}")
                env["ASAN_OPTIONS"] = "verify_asan_link_order=0"
                p = subprocess.run([PROG, str(size), stream, level, str(PAIRS)], capture_output=True,
                                   text=True, env=env, timeout=60)
                st = json.load(open(path)) if os.path.exists(path) else {}
            hits = st.get("thread_cache_hits", -1)
            if p.returncode != 0 or hits < PAIRS:
                failures += 1
                print(f"FAIL: {case}: rc {p.returncode}, thread_cache_hits {hits}, want >= {PAIRS}"
                      f"\n--- stdout:\n{p.stdout}\n--- stderr:\n{p.stderr}")
            else:
                print(f"ok: {case}: thread_cache_hits {hits}")

print(f"{'ok' if not failures else 'FAILED'}: cached pairs, {failures} failure(s)")
sys.exit(1 if failures else 0)
