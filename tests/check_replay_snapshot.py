"""A trace replayed (cachemalloc-replay --snapshot) on a 64 GiB simulated
device, its snapshot checked by check_snapshot.py: shape, integer widths and
every position of its history as PyTorch's memory viewer draws it.

usage: check_replay_snapshot.py REPLAY CHECK_SNAPSHOT TRACE default|expandable|malloc
"""
import os
import subprocess
import sys
import tempfile

replay, check, trace, mode = sys.argv[1:5]
env = dict(os.environ, CACHEMALLOC_SIM_MEMORY="64G",
           CACHEMALLOC_CONF="expandable_segments:True" if mode == "expandable" else "")
with tempfile.TemporaryDirectory() as d:
    snap = os.path.join(d, "s.pickle")
    api = ["--api", "malloc"] if mode == "malloc" else []
    r = subprocess.run([replay, trace, "--snapshot", snap, "--json", *api], env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"replay failed ({r.returncode}): {r.stderr.strip()[-400:]}")
    r = subprocess.run([sys.executable, check, snap], capture_output=True, text=True)
    print(r.stdout.strip(), r.stderr.strip())
    sys.exit(r.returncode)
