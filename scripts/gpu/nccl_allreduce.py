#!/usr/bin/env python3
"""scripts/gpu/nccl_allreduce.py - NCCL collectives on buffers from the allocator, checked.

    torchrun --standalone --nproc_per_node=2 scripts/gpu/nccl_allreduce.py --label L

On every rank, for sizes from 1 element to 64 Mi floats (256 MiB), each as a
tensor of its own and as a view one element into a larger one (a buffer that
does not start its block): all_reduce (sum), all_gather_into_tensor and
broadcast, with values that make every sum exact, compared with the expected
result on the device. Five rounds, the tensors freed between them, so a
cache hands the same blocks out again. Before each collective, the driver's
answer about the buffer (NCCL asks it too): cuMemGetAddressRange must give a
range holding the whole buffer and cuPointerGetAttribute the rank's device,
asked through the process's global symbols (the library's hooks when it is
preloaded). Exit 0 when every check held on every rank; rank 0 prints one line
"RESULT_JSON {...}". In a CPU dry run (GPU_CHECK_TORCH_DEVICE=cpu, gloo) the
driver checks are skipped.
"""
import argparse
import ctypes
import os
import sys

from torch_common import DEVICE, TINY, environment, finish, multicast_off, preloaded

SIZES = [1, 7, 1000] if TINY else [1, 7, 1024, 65537, 1 << 20, (1 << 24) + 3, 1 << 26]
ROUNDS = 5
CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9


class Driver:
    """cuMemGetAddressRange_v2 and cuPointerGetAttribute as the process sees them."""

    def __init__(self):
        self.via = None
        for via, lib in (("global", None), ("libcuda", "libcuda.so.1")):
            try:
                h = ctypes.CDLL(lib)
                self.range_fn, self.attr_fn = h.cuMemGetAddressRange_v2, h.cuPointerGetAttribute
            except (OSError, AttributeError):
                continue
            self.via = via
            break
        if self.via:
            self.range_fn.argtypes = [ctypes.POINTER(ctypes.c_uint64),
                                      ctypes.POINTER(ctypes.c_size_t), ctypes.c_uint64]
            self.attr_fn.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64]

    def check(self, t, device):
        """None, or what was wrong with tensor t's buffer."""
        if not self.via:
            return "no cuMemGetAddressRange_v2 / cuPointerGetAttribute"
        p, n = t.data_ptr(), t.numel() * t.element_size()
        base, size = ctypes.c_uint64(), ctypes.c_size_t()
        r = self.range_fn(ctypes.byref(base), ctypes.byref(size), p)
        if r != 0:
            return f"cuMemGetAddressRange({p:#x}) returned {r}"
        if not (base.value <= p and p + n <= base.value + size.value):
            return (f"cuMemGetAddressRange({p:#x}) gave [{base.value:#x}, +{size.value}), "
                    f"which does not hold the {n} bytes of the buffer")
        ordinal = ctypes.c_int(-1)
        r = self.attr_fn(ctypes.byref(ordinal), CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, p)
        if r != 0 or ordinal.value != device:
            return f"cuPointerGetAttribute(DEVICE_ORDINAL, {p:#x}): {r}, device {ordinal.value}"
        return None


def main():
    multicast_off()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--label", default="run")
    ap.add_argument("--out", help="rank 0 also writes the JSON result here")
    a = ap.parse_args()
    import torch
    import torch.distributed as dist

    rank, world = int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1"))
    local = int(os.environ.get("LOCAL_RANK", "0"))
    if DEVICE == "cuda":
        torch.cuda.set_device(local)
    dev = torch.device(DEVICE, local) if DEVICE == "cuda" else torch.device("cpu")
    dist.init_process_group("nccl" if DEVICE == "cuda" else "gloo")
    drv = Driver() if DEVICE == "cuda" else None
    failures, checks = [], 0

    def expect(ok, what):
        nonlocal checks
        checks += 1
        if not ok and len(failures) < 20:
            failures.append(what)

    def buffer(n, offset):
        """n floats, from a tensor of their own (offset 0) or a view into a larger one."""
        t = torch.empty(n + offset, dtype=torch.float32, device=dev)
        return t[offset:]

    def driver_check(t, what):
        if drv is not None:
            err = drv.check(t, local)
            expect(err is None, f"{what}: {err}")

    pattern = {}
    for n in SIZES:
        pattern[n] = (torch.arange(n, device=dev) % 1000).to(torch.float32)
    ranks_sum = float(sum(range(world)))
    for rnd in range(ROUNDS):
        for n in SIZES:
            for offset in (0, 1):
                what = f"round {rnd}, {n} floats, offset {offset}"
                x = buffer(n, offset)
                x.copy_(pattern[n] + 1000.0 * rank)
                driver_check(x, what)
                dist.all_reduce(x)
                want = pattern[n] * world + 1000.0 * ranks_sum
                expect(torch.equal(x, want), f"all_reduce {what}: wrong sum")
                out = buffer(n * world, offset)
                driver_check(out, what + " (gather output)")
                if DEVICE == "cuda":
                    dist.all_gather_into_tensor(out, x)
                else:  # gloo has no all_gather_into_tensor in every version
                    dist.all_gather(list(out.chunk(world)), x)
                expect(all(torch.equal(out[i * n:(i + 1) * n], want) for i in range(world)),
                       f"all_gather {what}: wrong data")
                b = buffer(n, offset)
                b.fill_(float(rank + 1))
                dist.broadcast(b, src=world - 1)
                expect(bool((b == float(world)).all()), f"broadcast {what}: wrong data")
                del x, out, b
        if DEVICE == "cuda":
            torch.cuda.synchronize()
    flags = [None] * world
    dist.all_gather_object(flags, {"rank": rank, "checks": checks, "failures": failures,
                                   "driver_via": drv.via if drv else None,
                                   "preloaded": preloaded()})
    bad = sum(len(f["failures"]) for f in flags)
    if rank == 0:
        for f in flags:
            for what in f["failures"]:
                print(f"FAIL rank {f['rank']}: {what}")
        result = {"script": "nccl_allreduce", "label": a.label, "world": world,
                  "ranks": flags, "ok": bad == 0}
        env = environment(torch)
        env.pop("preloaded")
        result.update(env)
        finish(result, a.out)
        print(f"nccl_allreduce: {sum(f['checks'] for f in flags)} checks on {world} ranks, "
              f"{bad} failed", flush=True)
    dist.destroy_process_group()
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
