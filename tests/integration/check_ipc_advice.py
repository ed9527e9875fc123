"""The IPC refusal's advice applies (issue 35, item 10; issue 32): under
expandable_segments:True, whose VMM memory CUDA cannot share, prog_ipc's
handles are all refused and the line printed names the way out that works
(expandable_segments:false); any block of the default mode is shared
(prog_ipc's own runs), so no refusal line names max_split_size_mb or a
block's segment.
usage: check_ipc_advice.py PROG_IPC LIBCACHEMALLOC"""
import os
import subprocess
import sys

prog, lib = sys.argv[1], sys.argv[2]
env = dict(os.environ, LD_PRELOAD=lib, ASAN_OPTIONS="verify_asan_link_order=0",
           CACHEMALLOC_CONF="expandable_segments:True")
p = subprocess.run([prog, "expect-refusal-all"], capture_output=True, text=True, env=env,
                   timeout=60)
lines = [l for l in p.stderr.splitlines() if "cuIpcGetMemHandle" in l]
ok = (p.returncode == 0 and len(lines) == 4 and
      all("expandable_segments:false" in l and "max_split_size" not in l for l in lines))
print(("ok" if ok else "FAIL") + f": IPC refusal advice: {lines[:1]!r} ({len(lines)} lines)")
sys.exit(0 if ok else 1)
