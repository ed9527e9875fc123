#!/usr/bin/env python3
"""scripts/gpu/ddp_train.py - data-parallel training, one rank per GPU, deterministic.

    torchrun --standalone --nproc_per_node=2 scripts/gpu/ddp_train.py \\
        --model transformer|cnn --label LABEL --out RESULT.json

Each rank trains the same model under DistributedDataParallel (NCCL; gloo in
a CPU dry run) on data of its own from a seeded generator: a pre-norm
transformer (4 blocks, d_model 768, 12 heads, sequence 512, batch 8 per rank,
bf16 autocast, attention written out as in torch_train.py, whose fused
kernels are not all deterministic) or a CNN (4 stages of two 3x3
convolutions with batch norm, the second of stride 2, global mean pooling,
batch 64 of 3x64x64 per rank, fp32). AdamW. Strided convolutions and mean
pooling instead of pooling layers, whose backward on CUDA is not
deterministic.

Per rank: mean and median step time (synchronize + perf_counter around each
timed step), peak GPU memory of the process (NVML's per-process figure,
torch_common.ProcMemSampler; not cudaMemGetInfo, which the library changes),
PyTorch's max reserved, the SHA-256 and float64 sum of every final
parameter (equal on every rank), the SHA-256 of the buffers (batch norm's
running statistics, each rank's own) and of the losses. Rank 0 gathers
every rank's result and prints one line "RESULT_JSON {...}" ({"ranks":
[...], ...}), also written to --out.

Run it with PyTorch's allocator, with PYTORCH_NO_CUDA_MEMORY_CACHING=1, and
with that plus LD_PRELOAD=libcachemalloc.so for the ranks (not for torchrun
itself: scripts/gpu/rank_exec): the parameters must be bitwise equal.
"""
import argparse
import math
import os
import time
import warnings

from torch_common import (DEVICE, TINY, ProcMemSampler, checksum, deterministic, environment,
                          finish, max_reserved_mib, multicast_off, nvml_index, preloaded,
                          step_stats, sync)

TRANSFORMER = (2, 64, 4, 32, 2, 256) if TINY else (4, 768, 12, 512, 8, 8192)
CNN = ((8, 16), 16, 4, 10) if TINY else ((64, 128, 256, 512), 64, 64, 100)


def build_transformer(torch, nn, F):
    layers, d, heads, seq, batch, vocab = TRANSFORMER

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.fc1, self.fc2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x, mask):
            b, s, _ = x.shape
            q, k, v = self.qkv(self.ln1(x)).view(b, s, 3, heads, d // heads).permute(2, 0, 3, 1, 4)
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(d // heads))
            att = att.masked_fill(mask, float("-inf")).softmax(dim=-1)
            x = x + self.proj((att.to(v.dtype) @ v).transpose(1, 2).reshape(b, s, d))
            return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList(Block() for _ in range(layers))
            self.ln, self.head = nn.LayerNorm(d), nn.Linear(d, vocab)

        def forward(self, x, mask):
            for blk in self.blocks:
                x = blk(x, mask)
            return self.head(self.ln(x))

    def batch_fn(dev, gen):
        x = torch.randn(batch, seq, d, device=dev, generator=gen)
        y = torch.randint(0, vocab, (batch, seq), device=dev, generator=gen)
        return x, y

    def loss_fn(model, x, y, dev, mask):
        with torch.autocast(dev.type, dtype=torch.bfloat16):
            logits = model(x, mask)
        return F.cross_entropy(logits.float().view(-1, vocab), y.view(-1))

    def extra(dev):
        return torch.triu(torch.ones(seq, seq, dtype=torch.bool, device=dev), diagonal=1)

    return Model(), batch_fn, loss_fn, extra


def build_cnn(torch, nn, F):
    widths, size, batch, classes = CNN

    def stage(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                nn.Conv2d(cout, cout, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(cout),
                nn.ReLU()]

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            mods, cin = [], 3
            for w in widths:
                mods += stage(cin, w)
                cin = w
            self.features = nn.Sequential(*mods)
            self.head = nn.Linear(cin, classes)

        def forward(self, x, _extra):
            return self.head(self.features(x).mean(dim=(2, 3)))

    def batch_fn(dev, gen):
        x = torch.randn(batch, 3, size, size, device=dev, generator=gen)
        y = torch.randint(0, classes, (batch,), device=dev, generator=gen)
        return x, y

    def loss_fn(model, x, y, dev, extra):
        return F.cross_entropy(model(x, extra), y)

    return Model(), batch_fn, loss_fn, lambda dev: None


def parse():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=("transformer", "cnn"), required=True)
    ap.add_argument("--label", default="run", help="name of this configuration")
    ap.add_argument("--out", help="rank 0 also writes the JSON result here")
    ap.add_argument("--steps", type=int, default=30, help="timed steps")
    ap.add_argument("--warmup", type=int, default=5, help="untimed first steps")
    return ap.parse_args()


def main():
    multicast_off()
    a = parse()
    rank, world = int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1"))
    local = int(os.environ.get("LOCAL_RANK", "0"))
    sampler = ProcMemSampler(nvml_index(local))  # before the first CUDA call
    import torch
    import torch.distributed as dist
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.nn.parallel import DistributedDataParallel as DDP

    if DEVICE == "cuda":
        torch.cuda.set_device(local)
        dev = torch.device("cuda", local)
    else:
        dev = torch.device("cpu")
    dist.init_process_group("nccl" if DEVICE == "cuda" else "gloo")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        deterministic(torch)  # the same seed on every rank: the same initial model
        build = build_transformer if a.model == "transformer" else build_cnn
        model, batch_fn, loss_fn, extra_fn = build(torch, nn, F)
        model = DDP(model.to(dev), device_ids=[local] if DEVICE == "cuda" else None)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.01)
        extra = extra_fn(dev)
        gen = torch.Generator(device=dev)
        gen.manual_seed(1234 + rank)

        def step():
            x, y = batch_fn(dev, gen)
            loss = loss_fn(model, x, y, dev, extra)
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
            return loss.detach()

        losses, times = [], []
        for i in range(a.warmup + a.steps):
            sync(torch)
            t0 = time.perf_counter()
            loss = step()
            sync(torch)
            if i >= a.warmup:
                times.append(time.perf_counter() - t0)
            losses.append(loss)
        losses = torch.stack(losses)
        params = checksum(torch, list(model.module.parameters()))
        # Batch norm's running statistics: each rank's own last batch.
        buffers = checksum(torch, list(model.module.buffers()))
        loss_sum = checksum(torch, [losses])
        reserved = max_reserved_mib(torch, dev)
    mem = sampler.stop()
    nondet = [str(w.message).splitlines()[0] for w in caught
              if "determinis" in str(w.message).lower()]
    mine = {"rank": rank, "param_sha256": params["sha256"], "param_sum_hex": params["sum_hex"],
            "buffer_sha256": buffers["sha256"], "loss_sha256": loss_sum["sha256"],
            "last_loss": float(losses[-1].item()),
            "torch_max_reserved_mib": reserved, "n_nondeterministic_warnings": len(nondet),
            "nondeterministic_warnings": nondet[:3], "pid": os.getpid(),
            "preloaded": preloaded()}
    mine.update(step_stats(times))
    mine.update(mem)
    ranks = [None] * world
    dist.all_gather_object(ranks, mine)
    if rank == 0:
        env = environment(torch)
        env.pop("preloaded")
        result = {"script": "ddp_train", "model": a.model, "label": a.label, "world": world,
                  "steps": a.steps, "warmup": a.warmup, "ranks": ranks}
        result.update(env)
        finish(result, a.out)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
