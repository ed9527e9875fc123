"""scripts/gpu/torch_common.py - what torch_train.py and torch_streams.py share.

- MemSampler: peak device memory in use, read through NVML every 1 ms by a
  separate process (no GIL contention with the workload, no CUDA context of
  its own), minus what was in use before the workload touched CUDA. NVML, not
  cudaMemGetInfo: libcachemalloc.so changes what cudaMemGetInfo reports.
- deterministic(): fixed seeds and deterministic kernels, so that two runs of
  the same script give bitwise-equal parameters whatever the allocator.
- checksum(): float64 sum and SHA-256 of the bytes of a list of tensors.
- result_of(): the result's fields both scripts give, around their own.
- finish(): the result as one JSON line on stdout ("RESULT_JSON {...}") and,
  with --out, in a file.
- Lockstep: the turns a script takes beside other processes under
  scripts/gpu/lockstep.py (blocks of steps, one process at a time).
- ProcMemSampler: for the two-GPU runs (ddp_train.py), the peak GPU memory
  of one process on one device, from NVML's per-process figures;
  multicast_off(): NVLink multicast off for NCCL, PyTorch and NVSHMEM.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

# cuBLAS reads this when its first handle is created: set before torch runs.
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

# Both samplers' start: NVML's count before the workload, printed (or "ERR
# ..."); then sampling until stdin closes.
_SAMPLER_START = r"""
import sys, threading, time
try:
    import pynvml
    pynvml.nvmlInit()
    h = pynvml.nvmlDeviceGetHandleByIndex(int(sys.argv[1]))
    base = pynvml.nvmlDeviceGetMemoryInfo(h).used
except Exception as e:
    print("ERR", repr(e).replace("\n", " "), flush=True)
    sys.exit(0)
stop = threading.Event()
def wait_for_eof():
    sys.stdin.read()
    stop.set()
threading.Thread(target=wait_for_eof, daemon=True).start()
print(base, flush=True)
"""

_SAMPLER = _SAMPLER_START + r"""peak, n = base, 0
while not stop.is_set():
    u = pynvml.nvmlDeviceGetMemoryInfo(h).used
    if u > peak:
        peak = u
    n += 1
    time.sleep(0.001)
print(peak, n, flush=True)
"""


def _sampler_start(program, *argv):
    """A sampler process, its first line and the error in it (None for a baseline)."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)  # the sampler never calls CUDA anyway
    try:
        p = subprocess.Popen([sys.executable, "-c", program, *map(str, argv)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        line = p.stdout.readline().strip()
    except OSError as e:
        p, line = None, "ERR " + repr(e)
    return p, line, (line or "sampler died") if not line or line.startswith("ERR") else None


def _sampler_stop(p, r):
    """The sampler's last line, split; None where there is none (r's nvml_error says why)."""
    if p is None:
        return None
    try:
        p.stdin.close()
        out = p.stdout.readline().split()
        p.wait(timeout=10)
    except Exception as e:  # noqa: BLE001 - report, never fail the run
        r["nvml_error"] = repr(e)
        return None
    return out


class MemSampler:
    """Start before the first CUDA call; stop() returns a dict."""

    def __init__(self, index=None):
        if index is None:
            index = int(os.environ.get("GPU_CHECK_NVML_INDEX", "0"))
        self.t0 = time.perf_counter()
        self.p, line, self.error = _sampler_start(_SAMPLER, index)
        self.baseline = None if self.error else int(line)

    def stop(self):
        r = {"nvml_error": self.error, "baseline_mib": None, "peak_used_mib": None,
             "nvml_samples": 0}
        out = _sampler_stop(self.p, r)
        if out is not None and self.baseline is not None and len(out) == 2:
            dt = time.perf_counter() - self.t0
            r.update(baseline_mib=round(self.baseline / 2**20, 1),
                     peak_used_mib=round((int(out[0]) - self.baseline) / 2**20, 1),
                     nvml_samples=int(out[1]),
                     nvml_sample_interval_ms=round(1e3 * dt / max(1, int(out[1])), 3))
        return r


_PROC_SAMPLER = _SAMPLER_START + r"""
pid = int(sys.argv[2])
mine = alls = dev = n = matched = 0
while not stop.is_set():
    try:
        procs = pynvml.nvmlDeviceGetComputeRunningProcesses(h)
    except pynvml.NVMLError:
        procs = []
    used = [p.usedGpuMemory or 0 for p in procs if p.pid == pid]
    if used:
        matched = 1
        mine = max(mine, used[0])
    alls = max(alls, sum(p.usedGpuMemory or 0 for p in procs))
    dev = max(dev, pynvml.nvmlDeviceGetMemoryInfo(h).used - base)
    n += 1
    time.sleep(0.002)
print(mine, alls, dev, n, matched, flush=True)
"""


# NVLink multicast (NVLS) stays off on the lent machines: set for every
# two-GPU program, whatever environment its launcher gave it.
MULTICAST_OFF = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
                 "NVSHMEM_DISABLE_NVLS": "1"}


def multicast_off():
    os.environ.update(MULTICAST_OFF)


def nvml_index(local_rank):
    """The NVML index of CUDA device local_rank (NVML ignores CUDA_VISIBLE_DEVICES)."""
    vis = [v for v in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if v.strip()]
    if local_rank < len(vis) and vis[local_rank].strip().isdigit():
        return int(vis[local_rank])
    return local_rank


class ProcMemSampler:
    """The peak GPU memory of process pid on NVML device index, sampled every
    ~2 ms by a side process: proc_peak_mib is NVML's figure for that process
    (the whole process: its context, NCCL's buffers, every allocation), or,
    where NVML reports other process ids (a container's pid namespace,
    pid_matched false), the sum over the device's compute processes, which
    with one rank per device is the same process. dev_peak_mib: the device's
    used memory over the baseline before the process touched CUDA. Start it
    before the first CUDA call; stop() returns a dict."""

    def __init__(self, index, pid=None):
        self.p, _, self.error = _sampler_start(_PROC_SAMPLER, index, pid or os.getpid())

    def stop(self):
        r = {"nvml_error": self.error, "proc_peak_mib": None, "dev_peak_mib": None,
             "pid_matched": None, "nvml_samples": 0}
        out = _sampler_stop(self.p, r)
        if out is not None and self.error is None and len(out) == 5:
            mine, alls, dev, n, matched = (int(v) for v in out)
            r.update(proc_peak_mib=round((mine if matched else alls) / 2**20, 1),
                     dev_peak_mib=round(dev / 2**20, 1), pid_matched=bool(matched),
                     nvml_samples=n)
        return r


# A dry run without a GPU (to check the scripts' logic on a CPU build of torch):
# GPU_CHECK_TORCH_DEVICE=cpu GPU_CHECK_TORCH_TINY=1. gpu-check never sets them.
DEVICE = os.environ.get("GPU_CHECK_TORCH_DEVICE", "cuda")
TINY = os.environ.get("GPU_CHECK_TORCH_TINY") == "1"


class NoStream:
    """CPU stand-in for a CUDA stream in a dry run."""

    def wait_stream(self, other):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def sync(torch):
    if DEVICE == "cuda":
        torch.cuda.synchronize()


def max_reserved_mib(torch, dev):
    return round(torch.cuda.max_memory_reserved(dev) / 2**20, 1) if DEVICE == "cuda" else None


def deterministic(torch, seed=0):
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False


def checksum(torch, tensors):
    """float64 sum (as float.hex, exact) and SHA-256 of the raw bytes."""
    h = hashlib.sha256()
    total = 0.0
    for t in tensors:
        t = t.detach()
        total += float(t.double().sum().item())
        h.update(t.contiguous().reshape(-1).view(torch.uint8).cpu().numpy().tobytes())
    return {"sum": total, "sum_hex": float(total).hex(), "sha256": h.hexdigest()}


def preloaded():
    """Whether libcachemalloc.so is mapped into this process."""
    try:
        with open("/proc/self/maps") as f:
            return "libcachemalloc" in f.read()
    except OSError:
        return False


def args(description):
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--label", default="run", help="name of this configuration")
    ap.add_argument("--out", help="also write the JSON result here")
    ap.add_argument("--steps", type=int, default=None, help="timed steps")
    ap.add_argument("--warmup", type=int, default=5, help="untimed first steps")
    return ap.parse_args()


class Lockstep:
    """Turns shared with the other configurations of scripts/gpu/lockstep.py.

    With GPU_LOCKSTEP_FDS=R,W (lockstep.py sets it), the script says "ready"
    on W after its warm-up, and then runs its timed steps in blocks of
    GPU_LOCKSTEP_BLOCK: each block starts when "go" arrives on R, and its end
    is told on W with the block's median step time. So the processes compared
    take turns of a fraction of a second on the same CPUs, one at a time, and
    a change in the host's speed falls on all of them alike. Unset: no turns."""

    def __init__(self):
        fds = os.environ.get("GPU_LOCKSTEP_FDS")
        self.block = int(os.environ.get("GPU_LOCKSTEP_BLOCK", "10"))
        self.r = self.w = None
        if fds:
            r, w = (int(x) for x in fds.split(","))
            self.r, self.w = os.fdopen(r, "r"), os.fdopen(w, "w")
        self.times = []

    @property
    def active(self):
        return self.r is not None

    def _say(self, line):
        self.w.write(line + "\n")
        self.w.flush()

    def ready(self):
        if self.active:
            self._say("ready")

    def begin(self, i):
        """Before timed step i: waits for the turn at a block's start."""
        if self.active and i % self.block == 0 and self.r.readline().strip() != "go":
            sys.exit("lockstep: the orchestrator went away")

    def end(self, i, seconds, last):
        """After timed step i, which took seconds: ends the turn at a block's end."""
        if not self.active:
            return
        self.times.append(seconds)
        if (i + 1) % self.block == 0 or last:
            self._say(f"block {step_stats(self.times)['step_ms_median']}")
            self.times = []


def run_steps(torch, step, warmup, steps, lock):
    """Calls step(i) for warmup + steps steps, each between two synchronizations,
    the timed ones in lock's turns (Lockstep); returns step's results, the timed
    steps' times and their host parts (until the closing synchronization), in
    seconds."""
    results, times, host = [], [], []
    for i in range(warmup + steps):
        k = i - warmup
        if k == 0:
            lock.ready()
        if k >= 0:
            lock.begin(k)
        sync(torch)
        t0 = time.perf_counter()
        results.append(step(i))
        t1 = time.perf_counter()
        sync(torch)
        if k >= 0:
            times.append(time.perf_counter() - t0)
            host.append(t1 - t0)
            lock.end(k, times[-1], k == steps - 1)
    return results, times, host


def step_stats(times_s):
    ts = sorted(times_s)
    n = len(ts)
    med = ts[n // 2] if n % 2 else 0.5 * (ts[n // 2 - 1] + ts[n // 2])
    return {"step_ms_mean": round(1e3 * sum(ts) / n, 3), "step_ms_median": round(1e3 * med, 3),
            "step_ms_min": round(1e3 * ts[0], 3), "step_ms_max": round(1e3 * ts[-1], 3)}


def environment(torch):
    return {
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "device": torch.cuda.get_device_name(0) if DEVICE == "cuda" else DEVICE,
        "no_caching_env": os.environ.get("PYTORCH_NO_CUDA_MEMORY_CACHING"),
        "cachemalloc_conf": os.environ.get("CACHEMALLOC_CONF"),
        "preloaded": preloaded(),
    }


def result_of(script, a, steps, params, own, reserved, caught):
    """The result's common fields, with own (the script's checksums) after the parameters'."""
    nondet = [str(w.message).splitlines()[0] for w in caught
              if "determinis" in str(w.message).lower()]
    return {"script": script, "label": a.label, "steps": steps, "warmup": a.warmup,
            "param_sum_hex": params["sum_hex"], "param_sum": params["sum"],
            "param_sha256": params["sha256"], **own,
            "torch_max_reserved_mib": reserved,
            "nondeterministic_warnings": nondet[:3], "n_nondeterministic_warnings": len(nondet)}


def finish(result, out_path):
    line = json.dumps(result, sort_keys=True)
    print("RESULT_JSON " + line, flush=True)
    if out_path:
        with open(out_path, "w") as f:
            f.write(line + "\n")
