"""The IPC refusal's advice applies (issue 35, item 10): run prog_ipc under
the library; the line it prints for a 4 KiB block that shares a segment
names a way out that can work for it (running the exporting process
without the library), never max_split_size_mb, which cannot give a 4 KiB
block a segment of its own.
usage: check_ipc_advice.py PROG_IPC LIBCACHEMALLOC"""
import os
import subprocess
import sys

prog, lib = sys.argv[1], sys.argv[2]
env = dict(os.environ, LD_PRELOAD=lib, ASAN_OPTIONS="verify_asan_link_order=0")
env.pop("CACHEMALLOC_CONF", None)
p = subprocess.run([prog, "expect-refusal"], capture_output=True, text=True, env=env, timeout=60)
line = next((l for l in p.stderr.splitlines() if "cuIpcGetMemHandle" in l), "")
ok = (p.returncode == 0 and "shares a cached segment" in line and "max_split_size" not in line
      and "without libcachemalloc.so" in line)
print(("ok" if ok else "FAIL") + f": IPC refusal advice: {line!r}")
sys.exit(0 if ok else 1)
