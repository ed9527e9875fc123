#!/usr/bin/env python3
"""scripts/gpu/mem_peaks.py - whole-process GPU memory per workload and allocator (issue 31).

Each workload runs in a fresh process per allocator configuration (those of
fit.py: caching, caching_exp, lib, lib_exp by default; nocache when asked),
and NVML's per-process figure is sampled every ~2 ms from outside
(torch_common.ProcMemSampler): the whole process, its context and every
allocation, which the library does not intercept (it rewrites
cudaMemGetInfo, not NVML). Workloads:

  train      fit.py's transformer training, batch 8, sequence 128-1024 drawn per step
  infer      fit.py's dynamic-shape inference, batch 8
  streams    torch_streams.py: two MLPs on two side streams, varying batch
  cnn        a ResNet-like CNN (plain torch), batch 64 of 3x224x224, bf16 autocast, SGD
  generate   a GPT-2-like decoder (random weights, plain torch, KV cache), prompts of
             random length, 64 new tokens each

Prints `peak WORKLOAD CONFIG MIB ok|fail SECONDS` per run, then the table
(MiB; the library's row over PyTorch's in the same mode). Each run also
prints the allocator's own peak reserved: PyTorch's max_memory_reserved, or
the library's peak reserved, allocated and pending bytes (stats:exit-json).
--lib-conf adds to every library run's CACHEMALLOC_CONF; --out DIR keeps
peaks.json.

usage: mem_peaks.py --lib build-gpu/interpose/libcachemalloc.so
                    [--workloads train,infer,streams,cnn,generate] [--configs ...]
                    [--lib-conf CONF]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from fit import config_env  # noqa: E402

STEPS = 12


def cnn(torch):
    nn = torch.nn

    def block(cin, cout, stride):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                             nn.ReLU(), nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
                             nn.BatchNorm2d(cout), nn.ReLU())

    layers, c = [nn.Conv2d(3, 64, 7, 2, 3), nn.MaxPool2d(3, 2, 1)], 64
    for cout in (64, 128, 256, 512):
        layers += [block(c, cout, 1 if cout == 64 else 2), block(cout, cout, 1)]
        c = cout
    model = nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c, 1000)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for _ in range(STEPS):
        x = torch.randn(64, 3, 224, 224, device="cuda")
        y = torch.randint(0, 1000, (64,), device="cuda")
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        torch.cuda.synchronize()


def generate(torch, rng):
    nn, F = torch.nn, torch.nn.functional
    d, heads, layers, vocab = 1024, 16, 12, 32000

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.fc1, self.fc2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x, cache):
            b, s, _ = x.shape
            q, k, v = self.qkv(self.ln1(x)).view(b, s, 3, heads, d // heads).permute(2, 0, 3, 1, 4)
            if cache:
                k, v = torch.cat([cache[0], k], 2), torch.cat([cache[1], v], 2)
            y = F.scaled_dot_product_attention(q, k, v, is_causal=not cache)
            x = x + self.proj(y.transpose(1, 2).reshape(b, s, d))
            return x + self.fc2(F.gelu(self.fc1(self.ln2(x)))), (k, v)

    emb = nn.Embedding(vocab, d).cuda().half()
    stack = nn.ModuleList(Layer() for _ in range(layers)).cuda().half()
    with torch.no_grad():
        for _ in range(STEPS):
            ids = torch.randint(0, vocab, (8, rng.randint(16, 512)), device="cuda")
            caches = [None] * layers
            x = emb(ids)
            for _ in range(64):
                for i, layer in enumerate(stack):
                    x, caches[i] = layer(x, caches[i])
                ids = (x[:, -1] @ emb.weight.t()).argmax(-1, keepdim=True)
                x = emb(ids)
            torch.cuda.synchronize()


def child(workload):
    import random
    import torch
    torch.manual_seed(0)
    rng = random.Random(1234)
    if workload in ("train", "infer"):
        import fit
        for _ in getattr(fit, workload)(torch, 8, STEPS, rng):
            torch.cuda.synchronize()
    elif workload == "cnn":
        cnn(torch)
    elif workload == "generate":
        generate(torch, rng)
    print(f"torch_max_reserved_mib {torch.cuda.max_memory_reserved() / 2**20:.1f}")


def run(a, workload, config):
    from torch_common import ProcMemSampler
    stats = os.path.join(tempfile.gettempdir(), f"mem_peaks_{os.getpid()}.json")
    env = config_env(config, a.lib, a.lib_conf, stats)
    if workload == "streams":
        cmd = [sys.executable, os.path.join(HERE, "torch_streams.py"), "--steps", "20"]
    else:
        cmd = [sys.executable, os.path.abspath(__file__), "--child", workload]
    t = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sampler = ProcMemSampler(int(os.environ.get("GPU_CHECK_NVML_INDEX", "0")), pid=p.pid)
    out, err = p.communicate(timeout=a.timeout)
    mem = sampler.stop()
    secs = time.perf_counter() - t
    peak = mem.get("proc_peak_mib")
    own = {}  # the allocator's own peaks, MiB
    if os.path.exists(stats):
        with open(stats) as f:
            st = json.load(f)
        os.unlink(stats)
        own = {k: round(st[k] / 2**20, 1) for k in ("peak_reserved_bytes", "peak_allocated_bytes",
                                                     "peak_pending_bytes") if k in st}
    for line in out.splitlines():
        if line.startswith("torch_max_reserved_mib ") and not config.startswith("lib"):
            own = {"torch_max_reserved_mib": float(line.split()[1])}
    print(f"peak {workload} {config} {peak} {'ok' if p.returncode == 0 else 'fail'} {secs:.1f}"
          + (" " + json.dumps(own) if own else "")
          + ("" if p.returncode == 0 else " " + err.strip().splitlines()[-1][:200] if err.strip() else ""),
          flush=True)
    return {"workload": workload, "config": config, "peak_mib": peak, "rc": p.returncode,
            "seconds": round(secs, 1), "nvml": mem, "own_mib": own}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lib", default="build-gpu/interpose/libcachemalloc.so")
    ap.add_argument("--workloads", default="train,infer,streams,cnn,generate")
    ap.add_argument("--configs", default="caching,lib,caching_exp,lib_exp")
    ap.add_argument("--timeout", type=int, default=240)
    ap.add_argument("--lib-conf", default="", help="added to every library run's CACHEMALLOC_CONF")
    ap.add_argument("--out")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        return child(a.child)
    rows = [run(a, w, c) for w in a.workloads.split(",") for c in a.configs.split(",")]
    peaks = {(r["workload"], r["config"]): r["peak_mib"] for r in rows}
    configs = a.configs.split(",")
    print("\nNVML per-process peak (MiB)\n" + "workload".ljust(10) + "".join(c.rjust(13) for c in configs))
    for w in a.workloads.split(","):
        print(w.ljust(10) + "".join(str(peaks.get((w, c))).rjust(13) for c in configs))
    if a.out:
        with open(os.path.join(a.out, "peaks.json"), "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
