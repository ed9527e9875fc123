"""The two-stream overlap benchmark (prog_overlap) under the library with
free_fence:gpu beside free_fence:none (which trusts stream order: the
streams' ideal overlap), in the same run; prints both wall times and
their ratio (target: gpu within 1.15x of none). A benchmark: only the
program's own checks decide the exit status, not the figures.
usage: bench_overlap.py PROG_OVERLAP LIBCACHEMALLOC [STEPS]"""
import os
import re
import subprocess
import sys

PROG, LIB = sys.argv[1], sys.argv[2]
STEPS = sys.argv[3] if len(sys.argv) > 3 else "200"
ms = {}
for fence in ("none", "gpu"):
    runs = []
    for _ in range(3):
        env = dict(os.environ, LD_PRELOAD=LIB, CACHEMALLOC_CONF=f"free_fence:{fence}",
                   ASAN_OPTIONS="verify_asan_link_order=0")
        p = subprocess.run([PROG, STEPS] + (["nocheck"] if fence == "none" else []), capture_output=True, text=True, env=env, timeout=120)
        m = re.search(r": ([0-9.]+) ms", p.stdout)
        if p.returncode != 0 or not m:
            print(f"FAIL: prog_overlap under free_fence:{fence} exited {p.returncode}\n"
                  f"{p.stdout}{p.stderr}")
            sys.exit(1)
        runs.append(float(m.group(1)))
    ms[fence] = sorted(runs)[1]
    print(f"free_fence:{fence}: median of 3: {ms[fence]:.1f} ms ({', '.join(f'{r:.1f}' for r in runs)})")
print(f"overlap: gpu / none = {ms['gpu'] / ms['none']:.2f}x (target <= 1.15x)")
