"""scripts/gpu/cupy_loop.py - CuPy with its memory pool or without it.

    python3 cupy_loop.py pool|nopool

nopool: cupy.cuda.set_allocator(None), so every array is a cudaMalloc /
cudaFree pair through the driver (CuPy's runtime module links no
libcudart). Prints ms per iteration (median of 5 runs of 300) and a
checksum that must not depend on the allocator: "CUPY_JSON {...}".
"""
import json
import sys
import time

import cupy as cp

mode = sys.argv[1] if len(sys.argv) > 1 else "pool"
if mode == "nopool":
    cp.cuda.set_allocator(None)
rng = cp.random.RandomState(7)
x = rng.rand(1 << 20, dtype=cp.float32)


def run(iters):
    total = 0.0
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for i in range(iters):
        y = x * (i % 5 + 1) + 1.0
        z = cp.sqrt(y) * y[::2].sum()
        total += float(z[:1000].sum())
    cp.cuda.Device().synchronize()
    return (time.perf_counter() - t0) * 1e3 / iters, total


run(30)
res = sorted(run(300) for _ in range(5))
ms, checksum = res[2]
print("cupy %s: %.4f ms per iteration, checksum %.6e" % (mode, ms, checksum))
print("CUPY_JSON " + json.dumps({"mode": mode, "ms_per_iter": ms, "checksum": checksum}))
