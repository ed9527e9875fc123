#!/usr/bin/env python3
"""scripts/gpu/record_dynamic.py - records dynamic-shape allocation traces
with PyTorch's own caching allocator, for `scripts/cachemalloc replay` and
tests/test_replay.py.

Two programs, each run twice with the same seed (so the same allocations):
with PyTorch's default caching allocator and with
PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, each in a fresh process
(the allocator reads its configuration once):
- transformer: a 6-layer encoder (d=1024, 16 heads, bf16 autocast, AdamW),
  training steps and inference steps interleaved, batch and sequence length
  drawn at random every step (batch 1-16, sequence 32-1024);
- moe: a mixture-of-experts layer stack (d=1024, 8 experts, top-2 routing,
  AdamW), the token count drawn at random every step (256-8192), so every
  expert gets a different, varying number of tokens.

The default run's memory history (torch.cuda.memory._record_memory_history
from process start, read back with torch.cuda.memory._snapshot()) becomes
OUT_DIR/trace_dyn_<program>.csv.gz in the format of the shared traces
(`action,addr,size,stream`: alloc, free_requested, free_completed,
segment_alloc, segment_free), and OUT_DIR/trace_dyn_<program>.json holds
PyTorch's figures: max_reserved and max_allocated of both runs (bytes), the
trace's peak live (sizes rounded to 512 B), steps and mean step times.
Prints one JSON line per program. Each run takes well under 60 s on an H200.

usage: record_dynamic.py [--out-dir tests/traces] [--program transformer|moe|all]
                         [--steps N] [--seed S]
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time

from fit import train_step

KEPT = ("alloc", "free_requested", "free_completed", "segment_alloc", "segment_free")
EXPANDABLE = "expandable_segments:True"


# ---- the programs (run in the child process) ----

def transformer_steps(torch, steps, rng):
    d, heads, layers = 1024, 16, 6
    layer = torch.nn.TransformerEncoderLayer(d, heads, dim_feedforward=4 * d, batch_first=True,
                                             dropout=0.0)
    model = torch.nn.TransformerEncoder(layer, layers, enable_nested_tensor=False).cuda()
    head = torch.nn.Linear(d, d).cuda()
    opt = torch.optim.AdamW(list(model.parameters()) + list(head.parameters()), lr=1e-4)
    for step in range(steps):
        batch, seq = rng.randint(1, 16), rng.randint(32, 1024)
        x = torch.randn(batch, seq, d, device="cuda")
        if step % 3 == 2:  # an inference step between two training steps
            with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
                head(model(x)).float().sum().item()
            continue
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = head(model(x)).float().pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        yield


def moe_steps(torch, steps, rng):
    d, experts, layers = 1024, 8, 4

    class Moe(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.router = torch.nn.Linear(d, experts)
            self.w1 = torch.nn.ModuleList(torch.nn.Linear(d, 4 * d) for _ in range(experts))
            self.w2 = torch.nn.ModuleList(torch.nn.Linear(4 * d, d) for _ in range(experts))

        def forward(self, x):
            weights, chosen = torch.topk(self.router(x).softmax(-1), 2, dim=-1)
            out = torch.zeros_like(x)
            for e in range(experts):
                rows, slot = torch.nonzero(chosen == e, as_tuple=True)
                if rows.numel() == 0:
                    continue
                h = self.w2[e](torch.nn.functional.gelu(self.w1[e](x[rows])))
                out = out.index_add(0, rows, (h * weights[rows, slot].unsqueeze(-1)).to(out.dtype))
            return x + out

    model = torch.nn.Sequential(*[Moe() for _ in range(layers)]).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(steps):
        tokens = rng.randint(256, 8192)
        # A skewed input so that the experts' loads differ from step to step.
        train_step(torch, model, opt, torch.randn(tokens, d, device="cuda") * rng.uniform(0.5, 2.0))
        yield


PROGRAMS = {"transformer": transformer_steps, "moe": moe_steps}


def child(args):
    import random
    import torch
    # No stacks: only the actions are needed, and stacks slow every call.
    # Without --trace, only the step times (runs under other allocators).
    if args.trace:
        torch.cuda.memory._record_memory_history(enabled="all", context=None, stacks="python",
                                                 max_entries=2_000_000)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    times = []
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in PROGRAMS[args.child](torch, args.steps, rng):
        torch.cuda.synchronize()
        now = time.perf_counter()
        times.append(now - t)
        t = now
    later = times[2:] or times  # the first steps warm up
    step_ms = round(1000 * sum(later) / len(later), 3) if later else None
    if not args.trace:
        with open(args.result, "w") as f:
            json.dump({"steps": len(times), "step_ms": step_ms,
                       "max_reserved": torch.cuda.max_memory_reserved()}, f)
        return
    snap = torch.cuda.memory._snapshot()
    torch.cuda.memory._record_memory_history(enabled=None)
    events = live = peak = 0
    sizes = {}
    with gzip.open(args.trace, "wt") as out:
        out.write("action,addr,size,stream\n")
        for e in snap["device_traces"][torch.cuda.current_device()]:
            if e["action"] not in KEPT:
                continue
            out.write(f"{e['action']},{int(e['addr'])},{int(e['size'])},{int(e.get('stream', 0))}\n")
            events += 1
            if e["action"] == "alloc":
                sizes[e["addr"]] = (int(e["size"]) + 511) // 512 * 512
                live += sizes[e["addr"]]
                peak = max(peak, live)
            elif e["action"] == "free_completed":
                live -= sizes.pop(e["addr"], 0)
    result = {
        "max_reserved": torch.cuda.max_memory_reserved(),
        "max_allocated": torch.cuda.max_memory_allocated(),
        "peak_live": peak,
        "events": events,
        "steps": len(times),
        "step_ms": step_ms,
        "truncated": events >= 2_000_000,
    }
    with open(args.result, "w") as f:
        json.dump(result, f)


# ---- the parent: one process per (program, allocator mode) ----

def run_child(program, conf, steps, seed, trace, result):
    env = dict(os.environ)
    env.pop("PYTORCH_CUDA_ALLOC_CONF", None)
    if conf:
        env["PYTORCH_CUDA_ALLOC_CONF"] = conf
    cmd = [sys.executable, os.path.abspath(__file__), "--child", program, "--steps", str(steps),
           "--seed", str(seed), "--trace", trace, "--result", result]
    t = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, timeout=300)
    with open(result) as f:
        out = json.load(f)
    out["wall_s"] = round(time.perf_counter() - t, 1)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out-dir", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                      "tests", "traces"))
    ap.add_argument("--program", choices=[*PROGRAMS, "all"], default="all")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--child", choices=list(PROGRAMS), help=argparse.SUPPRESS)
    ap.add_argument("--trace", help=argparse.SUPPRESS)
    ap.add_argument("--result", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args)
    os.makedirs(args.out_dir, exist_ok=True)
    programs = list(PROGRAMS) if args.program == "all" else [args.program]
    with tempfile.TemporaryDirectory() as tmp:
        for program in programs:
            trace = os.path.join(args.out_dir, f"trace_dyn_{program}.csv.gz")
            plain = run_child(program, "", args.steps, args.seed, trace,
                              os.path.join(tmp, "plain.json"))
            exp = run_child(program, EXPANDABLE, args.steps, args.seed,
                            os.path.join(tmp, "exp.csv.gz"), os.path.join(tmp, "exp.json"))
            figures = {
                "program": program, "steps": plain["steps"], "seed": args.seed,
                "events": plain["events"], "peak_live": plain["peak_live"],
                "max_reserved": plain["max_reserved"], "max_allocated": plain["max_allocated"],
                "expandable_max_reserved": exp["max_reserved"],
                "expandable_max_allocated": exp["max_allocated"],
                "expandable_peak_live": exp["peak_live"],
                "step_ms": plain["step_ms"], "expandable_step_ms": exp["step_ms"],
                "wall_s": [plain["wall_s"], exp["wall_s"]],
                "truncated": plain["truncated"] or exp["truncated"],
            }
            with open(os.path.join(args.out_dir, f"trace_dyn_{program}.json"), "w") as f:
                json.dump(figures, f, indent=1)
                f.write("\n")
            print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
