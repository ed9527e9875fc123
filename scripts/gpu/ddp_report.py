#!/usr/bin/env python3
"""scripts/gpu/ddp_report.py - the comparisons and tables of scripts/gpu/multi-gpu-check.

    ddp_report.py compare WORK MODEL   ddp_MODEL_*.json in WORK: every rank of a run holds the
                                       same parameters; the library runs equal the no-caching
                                       run bitwise on every rank (parameters, buffers, losses):
                                       exit 0, 1 when one differs, 2 when data is missing; the
                                       targets, as "name: ...: MET|MISSED" lines
    ddp_report.py table WORK           the DDP tables and the NCCL rows, for the summary

Targets (docs/gpu.md, "Two GPUs"): the library's step time (slowest rank) within 1.05 x
PyTorch's allocator's, its GPU memory per rank (NVML, the whole process) within 1.05 x.
Standard library only.
"""
import os
import sys

from report import load, reference

CONFIGS = [
    ("caching", "PyTorch's own caching allocator"),
    ("nocache", "PYTORCH_NO_CUDA_MEMORY_CACHING=1"),
    ("lib", "no caching + libcachemalloc (default conf)"),
    ("lib_exp", "no caching + libcachemalloc, expandable_segments:True"),
    ("lib_host", "no caching + libcachemalloc, free_fence:host"),
]
MUST_EQUAL = ("lib", "lib_exp", "lib_host")
NCCL_LABELS = ("caching", "nocache", "lib", "lib_exp", "lib_host")
TARGET = 1.05


def runs_of(work, model):
    runs = {}
    for label, _ in CONFIGS:
        r = load(os.path.join(work, f"ddp_{model}_{label}.json"))
        if isinstance(r, dict) and r.get("ranks"):
            runs[label] = r
    return runs


def fingerprint(run):
    keys = ("param_sha256", "param_sum_hex", "buffer_sha256", "loss_sha256")
    ranks = sorted(run["ranks"], key=lambda r: r["rank"])
    return tuple(tuple(r.get(k) for k in keys) for r in ranks)


def worst(run, key):
    vals = [r.get(key) for r in run["ranks"]]
    return max(vals) if vals and all(isinstance(v, (int, float)) for v in vals) else None


def compare(work, model):
    runs = runs_of(work, model)
    ref = reference(runs, f"ddp_{model}")
    if ref is None:
        return 2
    rc = 0
    for label, run in runs.items():
        hashes = {r["param_sha256"] for r in run["ranks"]}
        if len(hashes) != 1:
            print(f"ddp_{model}: {label}: the ranks hold different parameters: NO")
            rc = 1
        if label.startswith("lib") and not all(r.get("preloaded") for r in run["ranks"]):
            print(f"ddp_{model}: WARNING: run {label}: libcachemalloc.so not mapped on every rank")
        if any(r.get("n_nondeterministic_warnings") for r in run["ranks"]):
            print(f"ddp_{model}: {label}: non-determinism warnings, first: "
                  f"{run['ranks'][0].get('nondeterministic_warnings', [])[:1]}")
    for label in MUST_EQUAL:
        if label in runs:
            same = fingerprint(runs[label]) == fingerprint(ref)
            print(f"ddp_{model}: {label} == nocache bitwise on every rank: "
                  f"{'YES' if same else 'NO'}")
            rc = rc or (0 if same else 1)
    if "lib" not in runs:
        print(f"ddp_{model}: no library run finished")
        rc = rc or 2
    if "caching" in runs:
        same = fingerprint(runs["caching"]) == fingerprint(ref)
        print(f"ddp_{model}: caching == nocache bitwise (information): {'yes' if same else 'no'}")
    lib, base = runs.get("lib"), runs.get("caching")
    if lib and base:
        for key, name, unit in (("step_ms_mean", "step-time", "ms"),
                                ("proc_peak_mib", "memory-per-rank", "MiB")):
            a, b = worst(lib, key), worst(base, key)
            if a is None or not b:
                print(f"{name}: no figures ({key})")
                continue
            met = a <= TARGET * b
            print(f"{name}: lib {a:.2f} {unit} <= {TARGET} x PyTorch's allocator {b:.2f} {unit} "
                  f"(ratio {a / b:.3f}): {'MET' if met else 'MISSED'}")
    return rc


def fmt(v, spec):
    if isinstance(v, (int, float)):
        return format(v, spec)
    return "-".rjust(int(spec.split(".")[0]))


def table(work):
    lines = []
    for model in ("transformer", "cnn"):
        runs = runs_of(work, model)
        if not runs:
            lines.append(f"ddp_{model}: no results")
            continue
        ref, base = runs.get("nocache"), runs.get("caching")
        base_ms = worst(base, "step_ms_mean") if base else None
        lines.append(f"ddp_{model} (2 ranks): step ms (slowest rank), GPU MiB per rank "
                     "(NVML, whole process)")
        lines.append(f"  {'config':<9} {'mean':>8} {'median':>8} {'vs torch':>8} "
                     f"{'MiB r0':>8} {'MiB r1':>8} {'reserved':>9} {'= nocache':<9}")
        for label, _ in CONFIGS:
            run = runs.get(label)
            if run is None:
                continue
            ranks = sorted(run["ranks"], key=lambda r: r["rank"])
            mib = [r.get("proc_peak_mib") for r in ranks] + [None, None]
            mean = worst(run, "step_ms_mean")
            ratio = mean / base_ms if base_ms and isinstance(mean, (int, float)) else None
            same = "-" if ref is None else ("yes" if fingerprint(run) == fingerprint(ref) else "NO")
            median = worst(run, "step_ms_median")
            lines.append(f"  {label:<9} {fmt(mean, '8.2f')} {fmt(median, '8.2f')} "
                         f"{fmt(ratio, '7.3f') + 'x' if ratio else '       -'} "
                         f"{fmt(mib[0], '8.0f')} {fmt(mib[1], '8.0f')} "
                         f"{fmt(worst(run, 'torch_max_reserved_mib'), '9.0f')} {same:<9}")
        if any(r.get("pid_matched") is False for run in runs.values() for r in run["ranks"]):
            lines.append("  (NVML did not report this pid on some rank: MiB is the sum over the "
                         "device's processes)")
    lines.append("nccl_allreduce (2 ranks): checks and failures per configuration")
    for label in NCCL_LABELS:
        r = load(os.path.join(work, f"nccl_{label}.json"))
        if isinstance(r, dict):
            n = sum(x["checks"] for x in r["ranks"])
            bad = sum(len(x["failures"]) for x in r["ranks"])
            lines.append(f"  {label:<9} {n:6d} checks, {bad} failed, driver asked via "
                         f"{r['ranks'][0].get('driver_via')}")
    return lines


def main(argv):
    if len(argv) == 3 and argv[0] == "compare":
        return compare(argv[1], argv[2])
    if len(argv) == 2 and argv[0] == "table":
        print("\n".join(table(argv[1])))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
