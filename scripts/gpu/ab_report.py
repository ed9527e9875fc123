#!/usr/bin/env python3
"""scripts/gpu/ab_report.py - PyTorch's allocator beside the library, runs alternated.

usage: ab_report.py WORK SCRIPT N
Reads WORK/torch_SCRIPT_caching_abI.json and WORK/torch_SCRIPT_lib_abI.json for
I = 1..N (gpu-check's phase 5 with GPU_CHECK_TORCH_AB=N writes them, the two
configurations alternated so that drift of the machine falls on both), and
prints each pair's median step time, NVML peak and ratio, then the medians of both
and their ratios, and the median and geometric mean of the pairs' ratios, which
compare runs made on the same CPUs back to back (targets of issue 16: step <= 1.02x,
memory <= +2%).
"""
import json
import os
import statistics
import sys

from lockstep import interval


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def host(r):
    """The step's host part (torch_streams.py), where the script gives it."""
    return f" (host {r['host_ms_median']:.3f} ms)" if "host_ms_median" in r else ""


def main(work, script, n):
    rows = []
    for i in range(1, n + 1):
        c = load(os.path.join(work, f"torch_{script}_caching_ab{i}.json"))
        lib = load(os.path.join(work, f"torch_{script}_lib_ab{i}.json"))
        if not c or not lib:
            print(f"ab {script} pair {i}: missing result")
            continue
        rows.append((c["step_ms_median"], c.get("peak_used_mib"), lib["step_ms_median"],
                     lib.get("peak_used_mib")))
        print(f"ab {script} pair {i}: torch {c['step_ms_median']:.3f} ms {c.get('peak_used_mib')} MiB"
              f"{host(c)} | lib {lib['step_ms_median']:.3f} ms {lib.get('peak_used_mib')} MiB"
              f"{host(lib)}: {lib['step_ms_median'] / c['step_ms_median']:.3f}x")
    if not rows:
        return 1
    for i in range(1, n + 1):
        r = load(os.path.join(work, f"torch_{script}_libconf_ab{i}.json"))
        if r:
            print(f"ab {script} pair {i}: lib with {r.get('cachemalloc_conf')}: "
                  f"{r['step_ms_median']:.3f} ms {r.get('peak_used_mib')} MiB{host(r)}")
    med = [statistics.median(x for x in col if x is not None) for col in zip(*rows)]
    print(f"ab {script}: median of {len(rows)} pairs: torch {med[0]:.3f} ms {med[1]:.0f} MiB, "
          f"lib {med[2]:.3f} ms {med[3]:.0f} MiB: step {med[2] / med[0]:.3f}x (target <= 1.02x), "
          f"memory {med[3] / med[1]:.3f}x (target <= 1.02x)")
    ratios = [lib / torch for torch, _, lib, _ in rows]
    geo = interval(ratios)[0]
    print(f"ab {script}: pairs' step ratios: median {statistics.median(ratios):.3f}x, geometric "
          f"mean {geo:.3f}x, range {min(ratios):.3f}-{max(ratios):.3f}x, the library faster in "
          f"{sum(r < 1 for r in ratios)} of {len(ratios)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
