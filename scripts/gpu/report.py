#!/usr/bin/env python3
"""scripts/gpu/report.py - the comparisons and tables of scripts/gpu-check.

    report.py active STATS.json           exit 0 when the library counted allocations
    report.py torch WORK SCRIPT           compare SCRIPT's runs (torch_SCRIPT_*.json in WORK);
                                          exit 0 when every library run equals the no-caching
                                          run bitwise, 1 when one differs, 2 when data is missing
    report.py targets WORK                docs/design.md "Performance targets" from bench_lib.json
    report.py final WORK OUT              write OUT/results.json, print the result tables

Standard library only: it runs beside or without torch.
"""
import glob
import json
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.loads(f.read().strip() or "null")
    except (OSError, ValueError):
        return None


def active(path):
    st = load(path)
    if not isinstance(st, dict):
        print(f"library stats: no file or not JSON ({path}): the library was NOT active "
              "(or did not reach exit)")
        return 1
    keys = ("alloc_calls", "free_calls", "cache_hits", "thread_cache_hits", "raw_alloc_calls",
            "raw_free_calls", "fences", "collects", "stream_waits", "host_syncs",
            "peak_reserved_bytes", "peak_allocated_bytes")
    print("library stats: " + ", ".join(f"{k}={st[k]}" for k in keys if k in st))
    if st.get("alloc_calls", 0) > 0:
        print("library ACTIVE: it served %d allocations" % st["alloc_calls"])
        return 0
    print("library NOT ACTIVE: alloc_calls is 0: LD_PRELOAD did not intercept the "
          "program's cudaMalloc")
    return 1


# ---- torch ----

# configuration label -> what it is; the order of the tables
TORCH_CONFIGS = [
    ("caching", "PyTorch's own caching allocator"),
    ("nocache", "PYTORCH_NO_CUDA_MEMORY_CACHING=1"),
    ("lib", "no caching + libcachemalloc (default conf)"),
    ("lib_stats", "no caching + libcachemalloc, stats:exit-json"),
    ("lib_host", "no caching + libcachemalloc, free_fence:host"),
    ("lib_none", "no caching + libcachemalloc, free_fence:none (unsafe)"),
    ("caching_exp", "PyTorch's allocator, expandable_segments:True"),
    ("lib_exp", "no caching + libcachemalloc, expandable_segments:True"),
]
MUST_EQUAL = ("lib", "lib_stats", "lib_host", "lib_exp")


def torch_runs(work, script):
    runs = {}
    for label, _ in TORCH_CONFIGS:
        r = load(os.path.join(work, f"torch_{script}_{label}.json"))
        if isinstance(r, dict):
            runs[label] = r
    return runs


def fingerprint(r):
    """Everything that must be bitwise equal between two runs."""
    keys = ("param_sha256", "param_sum_hex", "out_sha256", "out_sums_hex", "loss_sha256",
            "last_loss_hex")
    return tuple(json.dumps(r.get(k)) for k in keys)


def reference(runs, what):
    """The no-caching run, which the others must equal; None (said) without one."""
    ref = runs.get("nocache")
    if ref is None:
        print(f"{what}: no result of the no-caching run: nothing to compare")
    return ref


def torch_compare(work, script):
    runs = torch_runs(work, script)
    ref = reference(runs, f"torch_{script}")
    if ref is None:
        return 2
    reserved = ref.get("torch_max_reserved_mib")
    if isinstance(reserved, (int, float)) and reserved > 0:
        print(f"torch_{script}: WARNING: the nocache run reserved {reserved} MiB through PyTorch's "
              "caching allocator: PYTORCH_NO_CUDA_MEMORY_CACHING was not honoured, so the "
              "library runs saw PyTorch's segments, not every tensor")
    rc = 0
    for label in MUST_EQUAL:
        if label not in runs:
            continue
        same = fingerprint(runs[label]) == fingerprint(ref)
        print(f"torch_{script}: {label} == nocache bitwise: {'YES' if same else 'NO'}")
        if not same:
            rc = 1
    if not any(label in runs for label in MUST_EQUAL):
        print(f"torch_{script}: no library run finished")
        rc = 2
    for label in ("caching", "lib_none"):
        if label in runs:
            same = fingerprint(runs[label]) == fingerprint(ref)
            print(f"torch_{script}: {label} == nocache bitwise (information): "
                  f"{'yes' if same else 'no'}")
    lib, base = runs.get("lib"), runs.get("caching")
    if lib and base:
        a, b = lib.get("step_ms_mean"), base.get("step_ms_mean")
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            print(f"step-time: lib {a:.2f} ms <= PyTorch's allocator {b:.2f} ms: "
                  f"{'MET' if a <= b else 'MISSED'}")
        a, b = lib.get("peak_used_mib"), base.get("peak_used_mib")
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            print(f"peak-memory: lib {a:.0f} MiB <= PyTorch's allocator {b:.0f} MiB: "
                  f"{'MET' if a <= b else 'MISSED'}")
    for label, r in runs.items():
        if label.startswith("lib") and not r.get("preloaded"):
            print(f"torch_{script}: WARNING: run {label} did not have libcachemalloc.so mapped")
        if r.get("n_nondeterministic_warnings"):
            print(f"torch_{script}: {label}: {r['n_nondeterministic_warnings']} "
                  f"non-determinism warnings, first: {r['nondeterministic_warnings'][:1]}")
    return rc


def fmt(v, spec):
    return format(v, spec) if isinstance(v, (int, float)) else "-"


def torch_table(work, script):
    runs = torch_runs(work, script)
    if not runs:
        return [f"torch_{script}: no results"]
    ref = runs.get("nocache")
    lines = [f"torch_{script}: step ms (mean / median), peak device MiB over baseline (NVML 1 ms)",
             f"  {'config':<10} {'mean':>9} {'median':>9} {'peak MiB':>9} {'vs torch':>8} "
             f"{'param sha256':<14} {'= nocache':<9}"]
    base_ms = runs.get("caching", {}).get("step_ms_mean")
    for label, _ in TORCH_CONFIGS:
        r = runs.get(label)
        if r is None:
            continue
        same = "-" if ref is None else ("yes" if fingerprint(r) == fingerprint(ref) else "NO")
        ratio = (r["step_ms_mean"] / base_ms
                 if base_ms and isinstance(r.get("step_ms_mean"), (int, float)) else None)
        lines.append(f"  {label:<10} {fmt(r.get('step_ms_mean'), '9.2f')} "
                     f"{fmt(r.get('step_ms_median'), '9.2f')} {fmt(r.get('peak_used_mib'), '9.0f')} "
                     f"{fmt(ratio, '7.2f') + 'x' if ratio else '       -'} "
                     f"{str(r.get('param_sha256', '-'))[:12]:<14} {same:<9}")
    st = load(os.path.join(work, f"stats_torch_{script}.json"))
    if isinstance(st, dict):
        lines.append("  library stats: " + ", ".join(
            f"{k}={st.get(k)}" for k in ("alloc_calls", "cache_hits", "thread_cache_hits",
                                        "raw_alloc_calls", "fences", "collects",
                                        "stream_waits", "host_syncs")))
        if "peak_reserved_bytes" in st:
            lines.append(f"  library peak reserved {st['peak_reserved_bytes'] / 2**20:.0f} MiB, "
                         f"peak allocated {st.get('peak_allocated_bytes', 0) / 2**20:.0f} MiB")
    return lines


# ---- bench ----

def bench_targets(work):
    lib = load(os.path.join(work, "bench_lib.json"))
    if not isinstance(lib, dict):
        print("bench: no result of the library run")
        return 2
    if not lib.get("lib_active"):
        print("bench: WARNING: the library was not active in the lib run")
    ns0 = lib["pairs_ns"]["malloc_free_ns0"]
    worst = max(ns0)
    print(f"pair-no-fence: lib pair <= 40 ns with no non-blocking stream: worst size "
          f"{worst:.1f} ns: {'MET' if worst <= 40 else 'MISSED'}")
    lp = lib["loop_us"]
    ratio = lp["alloc"] / lp["ideal"] if lp.get("ideal") else float("inf")
    print(f"loop-vs-ideal: lib loop within 10% of the ideal free list: {lp['alloc']:.2f} vs "
          f"{lp['ideal']:.2f} us/iter, ratio {ratio:.3f}: {'MET' if ratio <= 1.10 else 'MISSED'}")
    return 0 if worst <= 40 and ratio <= 1.10 else 1


def bench_table(work):
    raw = load(os.path.join(work, "bench_raw.json"))
    lib = load(os.path.join(work, "bench_lib.json"))
    if not isinstance(raw, dict) and not isinstance(lib, dict):
        return ["bench: no results"]
    any_run = raw if isinstance(raw, dict) else lib
    sizes = any_run["sizes"]
    lines = ["alloc+free pair, median ns per pair (host clock)",
             f"  {'row':<24}" + "".join(f"{s:>9}" for s in sizes)]
    rows = [("raw", "malloc_free_ns0", "cudaMalloc+cudaFree"),
            ("raw", "async", "cudaMallocAsync pool"),
            ("lib", "malloc_free_ns0", "lib, no nb stream"),
            ("lib", "malloc_free_ns1", "lib, 1 nb stream"),
            ("lib", "malloc_free_ns4", "lib, 4 nb streams"),
            ("lib", "async", "lib, MallocAsync")]
    for which, key, name in rows:
        r = raw if which == "raw" else lib
        if not isinstance(r, dict):
            continue
        lines.append(f"  {name:<24}" + "".join(f"{v:9.1f}" for v in r["pairs_ns"][key]))
    lines.append("alloc/launch/free loop (8 buffers, 4 KiB..16 MiB), us per iteration")
    if isinstance(raw, dict):
        lines.append(f"  cudaMalloc/cudaFree {raw['loop_us']['alloc']:9.2f}   "
                     f"ideal free list {raw['loop_us']['ideal']:9.2f}")
    if isinstance(lib, dict):
        lines.append(f"  library             {lib['loop_us']['alloc']:9.2f}   "
                     f"ideal free list {lib['loop_us']['ideal']:9.2f}   ratio "
                     f"{lib['loop_us']['alloc'] / lib['loop_us']['ideal']:.3f}")
    return lines


# ---- final ----

def final(work, out):
    steps = []
    try:
        with open(os.path.join(work, "steps.tsv")) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 4:
                    steps.append({"step": parts[0], "status": parts[1],
                                  "seconds": float(parts[2]), "note": parts[3]})
    except OSError:
        pass
    results = {"steps": steps,
               "env": load(os.path.join(work, "env.json")),
               "bench": {"raw": load(os.path.join(work, "bench_raw.json")),
                         "lib": load(os.path.join(work, "bench_lib.json"))},
               "torch": {},
               "stats": {}}
    for script in ("train", "streams"):
        results["torch"][script] = torch_runs(work, script)
    for p in sorted(glob.glob(os.path.join(work, "stats_*.json"))):
        results["stats"][os.path.basename(p)[len("stats_"):-len(".json")]] = load(p)
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
        f.write("\n")
    lines = bench_table(work) + [""] + torch_table(work, "train") + [""] + \
        torch_table(work, "streams")
    print("\n".join(lines))
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "active":
        return active(argv[1])
    if len(argv) >= 3 and argv[0] == "torch":
        return torch_compare(argv[1], argv[2])
    if len(argv) >= 2 and argv[0] == "targets":
        return bench_targets(argv[1])
    if len(argv) >= 3 and argv[0] == "final":
        return final(argv[1], argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
