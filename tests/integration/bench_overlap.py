"""The two-stream overlap benchmark (prog_overlap) under the library with
free_fence:gpu beside free_fence:none (which trusts stream order: the
streams' ideal overlap) and beside free_fence:gpu with max_pending_mb:0
(every reuse ordered at once, the streams waiting for each other), in the
same run, the configurations alternated; prints the median wall times and
the ratios (target: gpu within 1.15x of none). A benchmark: only the
program's own checks decide the exit status, not the figures.
usage: bench_overlap.py PROG_OVERLAP LIBCACHEMALLOC [STEPS [RUNS]]"""
import os
import re
import subprocess
import sys

PROG, LIB = sys.argv[1], sys.argv[2]
STEPS = sys.argv[3] if len(sys.argv) > 3 else "200"
RUNS = int(sys.argv[4]) if len(sys.argv) > 4 else 5
CONFS = {"none": "free_fence:none", "gpu": "free_fence:gpu",
         "gpu, max_pending_mb:0": "free_fence:gpu,max_pending_mb:0"}
runs = {name: [] for name in CONFS}
for _ in range(RUNS):
    for name, conf in CONFS.items():
        env = dict(os.environ, LD_PRELOAD=LIB, CACHEMALLOC_CONF=conf,
                   ASAN_OPTIONS="verify_asan_link_order=0")
        args = [PROG, STEPS] + (["nocheck"] if name == "none" else [])
        p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
        m = re.search(r": ([0-9.]+) ms", p.stdout)
        if p.returncode != 0 or not m:
            print(f"FAIL: prog_overlap under {conf} exited {p.returncode}\n{p.stdout}{p.stderr}")
            sys.exit(1)
        runs[name].append(float(m.group(1)))
ms = {}
for name, r in runs.items():
    ms[name] = sorted(r)[len(r) // 2]
    print(f"{name}: median of {len(r)}: {ms[name]:.1f} ms ({', '.join(f'{x:.1f}' for x in r)})")
print(f"overlap: gpu / none = {ms['gpu'] / ms['none']:.2f}x (target <= 1.15x); "
      f"ordered at once / none = {ms['gpu, max_pending_mb:0'] / ms['none']:.2f}x")
