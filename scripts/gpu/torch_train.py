#!/usr/bin/env python3
"""scripts/gpu/torch_train.py - a small transformer training loop, deterministic.

6 pre-norm blocks, d_model 1024, 16 heads, sequence 512, batch 8, bf16
autocast, AdamW; inputs are random features and targets from a seeded CUDA
generator, so every run sees the same data. The attention is written out
(matmul, mask, softmax, matmul) rather than left to scaled_dot_product_attention,
whose fused backward kernels are not all deterministic.

Prints one line "RESULT_JSON {...}": mean and median step time (synchronize +
perf_counter around each timed step), the float64 sum and SHA-256 of every
final parameter, the last loss, and the peak device memory in use (NVML,
sampled every 1 ms by a side process, minus the baseline before CUDA init; none
under scripts/gpu/lockstep.py, whose other processes NVML would count too).

Run it as it is (PyTorch's allocator), with PYTORCH_NO_CUDA_MEMORY_CACHING=1
(cudaMalloc/cudaFree on every tensor), and with that plus
LD_PRELOAD=libcachemalloc.so: the parameters must be bitwise equal.
"""
import math
import warnings

from torch_common import (DEVICE, TINY, Lockstep, MemSampler, args, checksum, deterministic,
                          environment, finish, max_reserved_mib, result_of, run_steps,
                          step_stats)

LAYERS, D, HEADS, SEQ, BATCH, VOCAB = (2, 128, 4, 64, 2, 512) if TINY else (6, 1024, 16, 512, 8, 8192)


def main():
    a = args(__doc__.splitlines()[0])
    steps = a.steps or 30
    lock = Lockstep()
    sampler = None if lock.active else MemSampler()  # before the first CUDA call: the baseline
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1 = nn.LayerNorm(D)
            self.qkv = nn.Linear(D, 3 * D)
            self.proj = nn.Linear(D, D)
            self.ln2 = nn.LayerNorm(D)
            self.fc1 = nn.Linear(D, 4 * D)
            self.fc2 = nn.Linear(4 * D, D)

        def forward(self, x, mask):
            b, s, d = x.shape
            q, k, v = self.qkv(self.ln1(x)).view(b, s, 3, HEADS, d // HEADS).permute(2, 0, 3, 1, 4)
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(d // HEADS))
            att = att.masked_fill(mask, float("-inf")).softmax(dim=-1)
            y = (att.to(v.dtype) @ v).transpose(1, 2).reshape(b, s, d)
            x = x + self.proj(y)
            return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
            self.ln = nn.LayerNorm(D)
            self.head = nn.Linear(D, VOCAB)

        def forward(self, x, mask):
            for blk in self.blocks:
                x = blk(x, mask)
            return self.head(self.ln(x))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        deterministic(torch)
        dev = torch.device(DEVICE, 0) if DEVICE == "cuda" else torch.device(DEVICE)
        model = Model().to(dev)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.01)
        mask = torch.triu(torch.ones(SEQ, SEQ, dtype=torch.bool, device=dev), diagonal=1)
        gen = torch.Generator(device=dev)
        gen.manual_seed(1234)

        def step():
            x = torch.randn(BATCH, SEQ, D, device=dev, generator=gen)
            tgt = torch.randint(0, VOCAB, (BATCH, SEQ), device=dev, generator=gen)
            with torch.autocast(dev.type, dtype=torch.bfloat16):
                logits = model(x, mask)
            loss = F.cross_entropy(logits.float().view(-1, VOCAB), tgt.view(-1))
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
            return loss.detach()

        losses, times, _ = run_steps(torch, lambda i: step(), a.warmup, steps, lock)
        losses = torch.stack(losses)
        params = checksum(torch, list(model.parameters()))
        loss_sum = checksum(torch, [losses])
        last_loss = float(losses[-1].item())
        reserved = max_reserved_mib(torch, dev)
    mem = sampler.stop() if sampler else {}
    own = {"loss_sha256": loss_sum["sha256"], "last_loss": last_loss,
           "last_loss_hex": last_loss.hex()}
    result = result_of("torch_train", a, steps, params, own, reserved, caught)
    result.update(step_stats(times))
    result.update(mem)
    result.update(environment(torch))
    finish(result, a.out)


if __name__ == "__main__":
    main()
