#!/usr/bin/env python3
"""scripts/gpu/torch_streams.py - two models on two side streams, joined on the main stream.

The program docs/design.md ("The collect path") names: two MLPs of different widths (6 layers
each, 2048 and 1536 wide, bf16 autocast, AdamW) run forward and backward on two
side streams (torch.cuda.Stream(): non-blocking; PyTorch creates its stream
pools then), the main stream waits on both, then the optimizers step on the
main stream. The batch size changes every step, so freed blocks come back at
other sizes. Inputs come from a seeded CUDA generator on the main stream.

Under PYTORCH_NO_CUDA_MEMORY_CACHING=1 every tensor is a cudaMalloc and a
cudaFree, and cudaFree waits for the whole device. Preloaded, the cache keeps
the freed block while side-stream kernels may still use it: reusing it
without the fence protocol gives wrong numbers. The output checksum (sum of
every step's outputs and losses) and the parameters must be bitwise equal
with and without the library.

Prints one line "RESULT_JSON {...}" like torch_train.py, with host_ms_median: the median
time a step takes on the host before its closing synchronization. Under
scripts/gpu/lockstep.py it takes turns with other configurations (torch_common.Lockstep)
and measures no memory: NVML's device figure would count the other processes.
"""
import warnings

from torch_common import (DEVICE, TINY, Lockstep, MemSampler, NoStream, args, checksum,
                          deterministic, environment, finish, max_reserved_mib, result_of,
                          run_steps, step_stats)

DIN, DOUT, LAYERS = (64, 64, 3) if TINY else (1024, 1024, 6)
WIDTHS = (96, 80) if TINY else (2048, 1536)
BATCHES = (1024, 4096, 512, 2048, 3072, 256, 1536, 4096, 768, 2560)
if TINY:
    BATCHES = tuple(b // 64 for b in BATCHES)


def main():
    a = args(__doc__.splitlines()[0])
    steps = a.steps or 60
    lock = Lockstep()
    sampler = None if lock.active else MemSampler()  # before the first CUDA call: the baseline
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    def mlp(width):
        layers, d = [], DIN
        for _ in range(LAYERS - 1):
            layers += [nn.Linear(d, width), nn.GELU()]
            d = width
        layers.append(nn.Linear(d, DOUT))
        return nn.Sequential(*layers)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        deterministic(torch)
        cuda = DEVICE == "cuda"
        dev = torch.device(DEVICE, 0) if cuda else torch.device(DEVICE)
        models = [mlp(w).to(dev) for w in WIDTHS]
        opts = [torch.optim.AdamW(m.parameters(), lr=1e-4, weight_decay=0.01) for m in models]
        gen = torch.Generator(device=dev)
        gen.manual_seed(1234)
        main_stream = torch.cuda.current_stream(dev) if cuda else NoStream()
        side = [torch.cuda.Stream(dev) if cuda else NoStream() for _ in models]
        on_stream = torch.cuda.stream if cuda else (lambda s: s)
        out_acc = torch.zeros(len(models), dtype=torch.float64, device=dev)
        loss_acc = torch.zeros(len(models), dtype=torch.float64, device=dev)

        def step(i):
            bs = BATCHES[i % len(BATCHES)]
            x = torch.randn(bs, DIN, device=dev, generator=gen)
            tgt = torch.randn(bs, DOUT, device=dev, generator=gen)
            outs, losses = [], []
            for m, s in zip(models, side):
                s.wait_stream(main_stream)
                with on_stream(s):
                    with torch.autocast(dev.type, dtype=torch.bfloat16):
                        y = m(x)
                    loss = F.mse_loss(y.float(), tgt)
                    loss.backward()
                # x and tgt were made on the main stream and are read here:
                # PyTorch's own allocator needs to know.
                if cuda:
                    x.record_stream(s)
                    tgt.record_stream(s)
                outs.append(y)
                losses.append(loss)
            for s in side:
                main_stream.wait_stream(s)
            for k, (y, loss) in enumerate(zip(outs, losses)):
                out_acc[k] += y.detach().double().sum()
                loss_acc[k] += loss.detach().double()
            for o in opts:
                o.step()
                o.zero_grad(set_to_none=True)

        _, times, host = run_steps(torch, step, a.warmup, steps, lock)
        params = checksum(torch, [p for m in models for p in m.parameters()])
        outs = checksum(torch, [out_acc, loss_acc])
        out_values = [float(v) for v in out_acc.tolist()]
        reserved = max_reserved_mib(torch, dev)
    mem = sampler.stop() if sampler else {}
    own = {"out_sha256": outs["sha256"], "out_sums_hex": [v.hex() for v in out_values],
           "out_sums": out_values}
    result = result_of("torch_streams", a, steps, params, own, reserved, caught)
    result.update(step_stats(times))
    # The host's part: the step's calls until the closing synchronization.
    # Where it is close to the step, the host bounds the step.
    result["host_ms_median"] = step_stats(host)["step_ms_median"]
    result.update(mem)
    result.update(environment(torch))
    finish(result, a.out)


if __name__ == "__main__":
    main()
