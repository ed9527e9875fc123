#!/usr/bin/env python3
"""scripts/gpu/fit.py - the largest batch that trains, per allocator (issue 31).

A blocker process holds all of the device but --free-gib GiB; then, for each
allocator configuration, the largest batch with which a workload runs all of
its steps is bisected, a fresh process per try:

  caching      PyTorch's caching allocator
  caching_exp  the same with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
  lib          PYTORCH_NO_CUDA_MEMORY_CACHING=1 under libcachemalloc.so
  lib_exp      the same with CACHEMALLOC_CONF=expandable_segments:True
  nocache      PYTORCH_NO_CUDA_MEMORY_CACHING=1 alone: every request a cudaMalloc
               and cudaFree (which waits for the device), the floor of memory

Workloads (the same seeded draws for every allocator):
  train  a 12-layer transformer encoder (d=1024, 16 heads, ff 4096), bf16
         autocast, AdamW; each step draws its sequence length from 128-1024
  infer  the same model without gradients, batch scaled by 4, sequence
         length and batch fraction drawn each step (dynamic-shape inference)

Each try prints one line `fit CONFIG WORKLOAD B ok|fail SECONDS NOTE` (the
note: the error's first line, or the library's counters); the end, one
line `fit-result {...}` per configuration and the table. With --out DIR,
fit.json and each failed try's stderr go there.

usage: fit.py --lib build-gpu/interpose/libcachemalloc.so [--free-gib 16]
              [--configs caching,caching_exp,lib,lib_exp] [--workload train]
              [--lo 8] [--hi 40] [--steps 16] [--out DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import time

D, HEADS, FF, LAYERS = 1024, 16, 4096, 12


def model_and_opt(torch):
    layer = torch.nn.TransformerEncoderLayer(D, HEADS, dim_feedforward=FF, batch_first=True,
                                             dropout=0.0)
    model = torch.nn.TransformerEncoder(layer, LAYERS, enable_nested_tensor=False).cuda()
    return model, torch.optim.AdamW(model.parameters(), lr=1e-4)


def train(torch, batch, steps, rng):
    model, opt = model_and_opt(torch)
    for _ in range(steps):
        seq = rng.randint(128, 1024)
        x = torch.randn(batch, seq, D, device="cuda")
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(x).float().pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        yield


def infer(torch, batch, steps, rng):
    model, _ = model_and_opt(torch)
    model.eval()
    for _ in range(steps):
        seq, b = rng.randint(128, 1024), max(1, int(4 * batch * rng.uniform(0.25, 1.0)))
        with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
            model(torch.randn(b, seq, D, device="cuda")).float().sum().item()
        yield


WORKLOADS = {"train": train, "infer": infer}


def child(a):
    import random
    import torch
    torch.manual_seed(0)
    rng = random.Random(1234)
    done, err = 0, None
    try:
        for _ in WORKLOADS[a.child](torch, a.batch, a.steps, rng):
            torch.cuda.synchronize()
            done += 1
    except Exception as e:  # noqa: BLE001 - the try's answer, not a crash
        err = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
    res = {"ok": err is None and done == a.steps, "steps": done, "error": err,
           "max_reserved": torch.cuda.max_memory_reserved()}
    with open(a.result, "w") as f:
        json.dump(res, f)


def blocker(a):
    import torch
    free, total = torch.cuda.mem_get_info()
    hold = free - int(a.free_gib * 2**30)
    keep = torch.empty(max(hold, 0), dtype=torch.uint8, device="cuda") if hold > 0 else None
    torch.cuda.synchronize()
    free_after, _ = torch.cuda.mem_get_info()
    print(f"READY held={hold} free={free_after} total={total}", flush=True)
    sys.stdin.read()
    del keep


CONFIGS = {
    "caching": ({}, ""),
    "caching_exp": ({"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}, ""),
    "lib": ({"PYTORCH_NO_CUDA_MEMORY_CACHING": "1"}, ""),
    "lib_exp": ({"PYTORCH_NO_CUDA_MEMORY_CACHING": "1"}, "expandable_segments:True"),
    "nocache": ({"PYTORCH_NO_CUDA_MEMORY_CACHING": "1"}, ""),
}


def config_env(config, lib, lib_conf, stats):
    """The environment of one run of config: the library's runs preloaded with
    lib, lib_conf added to their CACHEMALLOC_CONF and their statistics written
    to the file stats at exit."""
    env = dict(os.environ)
    for k in ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_NO_CUDA_MEMORY_CACHING", "LD_PRELOAD",
              "CACHEMALLOC_CONF"):
        env.pop(k, None)
    extra, conf = CONFIGS[config]
    env.update(extra)
    if config.startswith("lib"):
        env["LD_PRELOAD"] = os.path.abspath(lib)
        env["CACHEMALLOC_CONF"] = ",".join(x for x in (conf, lib_conf, f"stats:exit-json:{stats}") if x)
    return env


def one_try(a, config, batch, tmp):
    stats = os.path.join(tmp, f"stats_{config}_{a.workload}_{batch}.json")
    env = config_env(config, a.lib, a.lib_conf, stats)
    result = os.path.join(tmp, "try.json")
    if os.path.exists(result):
        os.unlink(result)
    cmd = [sys.executable, os.path.abspath(__file__), "--child", a.workload, "--batch", str(batch),
           "--steps", str(a.steps), "--result", result]
    t = time.perf_counter()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=a.try_timeout)
    secs = time.perf_counter() - t
    try:
        with open(result) as f:
            res = json.load(f)
    except (OSError, ValueError):
        res = {"ok": False, "steps": 0, "error": f"exit {p.returncode}"}
    res["seconds"] = round(secs, 1)
    if os.path.exists(stats):
        with open(stats) as f:
            st = json.load(f)
        keys = ("peak_reserved_bytes", "peak_allocated_bytes", "oom_count", "alloc_retries",
                "peak_pending_bytes", "raw_alloc_calls", "raw_free_calls", "cache_hits",
                "fences", "covered_streams", "collects", "lazy_waits", "host_syncs", "stitches",
                "vmm_maps", "vmm_unmaps")
        res["lib"] = {k: st.get(k) for k in keys if k in st}
    if not res["ok"] and a.out:
        with open(os.path.join(a.out, f"stderr_{config}_{a.workload}_{batch}.txt"), "w") as f:
            f.write(p.stderr[-20000:])
    note = res.get("error") or ""
    if "lib" in res:
        note += " " + json.dumps(res["lib"])
    print(f"fit {config} {a.workload} {batch} {'ok' if res['ok'] else 'fail'} {secs:.1f} "
          f"{note.strip()[:400]}", flush=True)
    return res


def bisect(a, config, tmp):
    """The largest batch in [lo, hi) that runs, assuming lo runs and hi fails
    (both checked when --check-ends)."""
    lo, hi, tries = a.lo, a.hi, {}
    while hi - lo > 1:
        mid = (lo + hi) // 2
        tries[mid] = one_try(a, config, mid, tmp)
        if tries[mid]["ok"]:
            lo = mid
        else:
            hi = mid
    ok = lo if (lo in tries and tries[lo]["ok"]) or lo == a.lo else None
    return {"config": config, "workload": a.workload, "largest_batch": ok,
            "tries": {str(k): v for k, v in sorted(tries.items())}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lib", default="build-gpu/interpose/libcachemalloc.so")
    ap.add_argument("--lib-conf", default="", help="added to every library run's CACHEMALLOC_CONF")
    ap.add_argument("--free-gib", type=float, default=16.0)
    ap.add_argument("--configs", default="caching,caching_exp,lib,lib_exp")
    ap.add_argument("--workload", choices=list(WORKLOADS), default="train")
    ap.add_argument("--lo", type=int, default=8)
    ap.add_argument("--hi", type=int, default=40)
    ap.add_argument("--steps", type=int, default=16)
    ap.add_argument("--batches", default="", help="instead of a bisection: these batches, each once")
    ap.add_argument("--try-timeout", type=int, default=180)
    ap.add_argument("--out")
    ap.add_argument("--child", choices=list(WORKLOADS), help=argparse.SUPPRESS)
    ap.add_argument("--blocker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--batch", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--result", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        return child(a)
    if a.blocker:
        return blocker(a)
    tmp = a.out or os.path.join("/tmp", f"fit-{os.getpid()}")
    os.makedirs(tmp, exist_ok=True)
    env = dict(os.environ)
    for k in ("LD_PRELOAD", "PYTORCH_NO_CUDA_MEMORY_CACHING", "CACHEMALLOC_CONF"):
        env.pop(k, None)
    blk = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--blocker", "--free-gib",
                            str(a.free_gib)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True, env=env)
    ready = blk.stdout.readline().strip()
    print("blocker", ready, flush=True)
    results = []
    try:
        for config in a.configs.split(","):
            if a.batches:
                tries = {b: one_try(a, config, int(b), tmp) for b in a.batches.split(",")}
                ok = [int(b) for b, r in tries.items() if r["ok"]]
                results.append({"config": config, "workload": a.workload,
                                "largest_batch": max(ok) if ok else None, "tries": tries})
            else:
                results.append(bisect(a, config, tmp))
            r = results[-1]
            print("fit-result", json.dumps({k: r[k] for k in ("config", "workload",
                                                               "largest_batch")}), flush=True)
    finally:
        blk.stdin.close()
        blk.wait(timeout=30)
    print(f"\nlargest batch, {a.workload}, {a.free_gib:g} GiB free ({ready}):")
    for r in results:
        print(f"  {r['config']:<12} {r['largest_batch']}")
    if a.out:
        with open(os.path.join(a.out, "fit.json"), "w") as f:
            json.dump({"free_gib": a.free_gib, "blocker": ready, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
