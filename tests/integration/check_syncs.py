"""Runs prog_sync under the library with stats:exit-json and checks that
the core heard of every runtime-level synchronization exactly once
(syncs_seen equals the count the program prints): the runtime hooks tell
the core, and the driver hooks the runtime reaches pass it through.
usage: check_syncs.py PROG_SYNC LIBCACHEMALLOC"""
import json
import os
import re
import subprocess
import sys
import tempfile

PROG, LIB = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "stats.json")
    env = dict(os.environ, LD_PRELOAD=LIB, CACHEMALLOC_CONF=f"stats:exit-json:{path}",
               ASAN_OPTIONS="verify_asan_link_order=0")
    p = subprocess.run([PROG, "expect-hooked"], capture_output=True, text=True, env=env,
                       timeout=60)
    print(p.stdout, end="")
    m = re.search(r"^syncs: (\d+)$", p.stdout, re.M)
    if p.returncode != 0 or not m or not os.path.exists(path):
        print(f"FAIL: prog_sync exited {p.returncode}\n--- stderr:\n{p.stderr}")
        sys.exit(1)
    seen = json.load(open(path))["syncs_seen"]
    if seen != int(m.group(1)):
        print(f"FAIL: expected syncs_seen {m.group(1)} (once each), got {seen}")
        sys.exit(1)
    print(f"syncs_seen {seen}: ok")
