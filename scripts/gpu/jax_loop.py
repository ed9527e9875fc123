"""scripts/gpu/jax_loop.py - JAX with its own allocator or the platform's.

Run with XLA_PYTHON_CLIENT_ALLOCATOR=platform for XLA to allocate each
buffer through the driver (cuMemAlloc / cuMemFree), or without it for
XLA's BFC allocator. Prints ms per iteration (median of 5 runs of 200) and
a checksum that must not depend on the allocator: "JAX_JSON {...}".
"""
import json
import os
import time

import jax
import jax.numpy as jnp

x = jax.random.uniform(jax.random.PRNGKey(7), (1 << 20,), dtype=jnp.float32)


@jax.jit
def step(x, i):
    y = x * (i % 5 + 1) + 1.0
    return jnp.sqrt(y) * y[::2].sum()


def run(iters):
    total = 0.0
    t0 = time.perf_counter()
    for i in range(iters):
        z = step(x, i)
        total += float(z[:1000].sum())
    return (time.perf_counter() - t0) * 1e3 / iters, total


run(20)
res = sorted(run(200) for _ in range(5))
ms, checksum = res[2]
mode = os.environ.get("XLA_PYTHON_CLIENT_ALLOCATOR", "default")
print("jax %s: %.4f ms per iteration, checksum %.6e" % (mode, ms, checksum))
print("JAX_JSON " + json.dumps({"mode": mode, "ms_per_iter": ms, "checksum": checksum}))
