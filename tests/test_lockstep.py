"""scripts/gpu/lockstep.py, torch_common.Lockstep and run_steps, without a GPU:
stub workers whose steps sleep STUB_MS stand in for the torch scripts. Checks that
the turns never overlap (each worker logs its blocks' start and end), that
every worker ran every round, and that the rounds' ratios come out as the
sleeps make them (2x and 1x the baseline's), with the outputs compared; and
that a worker that dies, or does not end after its turns, is a FAIL.
usage: test_lockstep.py LOCKSTEP_PY  (run with --label, as lockstep.py runs it, it is the stub)"""
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def worker():
    """The stub: torch_common.run_steps with steps that sleep, on no device."""
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts", "gpu"))
    from torch_common import Lockstep, args, finish, run_steps
    a = args("lockstep stub")
    lock = Lockstep()
    ms = float(os.environ["STUB_MS"])

    def step(i):
        t0 = time.monotonic()
        time.sleep(ms / 1e3)
        return t0, time.monotonic()

    spans = run_steps(None, step, a.warmup, a.steps, lock)[0][a.warmup:]
    with open(os.environ["STUB_SPANS"], "w") as f:
        for k in range(0, len(spans), lock.block):
            f.write(f"{spans[k][0]} {spans[min(k + lock.block, len(spans)) - 1][1]}\n")
    finish({"out_sha256": os.environ.get("STUB_SHA", "same")}, a.out)
    time.sleep(float(os.environ.get("STUB_HANG_S", "0")))  # a worker that does not end


def main(lockstep):
    failures = []
    os.environ["GPU_CHECK_TORCH_DEVICE"] = "cpu"  # run_steps synchronizes no device
    with tempfile.TemporaryDirectory() as d:
        confs = [f"base=STUB_MS=10 STUB_SPANS={d}/base.spans",
                 f"slow=STUB_MS=20 STUB_SPANS={d}/slow.spans",
                 f"same=STUB_MS=10 STUB_SPANS={d}/same.spans"]
        p = subprocess.run([sys.executable, lockstep, "--rounds", "6", "--block", "4", "--cpus", "",
                            "--out", d, os.path.abspath(__file__), *confs],
                           capture_output=True, text=True, timeout=120)
        print(p.stdout, p.stderr, end="")
        if p.returncode != 0:
            failures.append(f"lockstep.py exited {p.returncode}")
        spans = []
        for name in ("base", "slow", "same"):
            try:
                with open(f"{d}/{name}.spans") as f:
                    mine = [tuple(map(float, line.split())) for line in f]
            except OSError:
                mine = []
            if len(mine) != 6:
                failures.append(f"{name} ran {len(mine)} blocks, not 6")
            spans += [(s, e, name) for s, e in mine]
        spans.sort()
        for (s0, e0, n0), (s1, _, n1) in zip(spans, spans[1:]):
            if s1 < e0:
                failures.append(f"turns overlap: {n0} until {e0:.4f}, {n1} from {s1:.4f}")
        for name, lo, hi in (("slow", 1.6, 2.4), ("same", 0.75, 1.33)):
            m = re.search(rf"lockstep {name}: .*geometric mean ([0-9.]+)x", p.stdout)
            if not m or not lo <= float(m.group(1)) <= hi:
                failures.append(f"{name}'s ratio not within {lo}-{hi}x")
        if "all equal: YES" not in p.stdout:
            failures.append("equal outputs not reported equal")
        # A worker that dies mid-run fails the comparison, never hangs it.
        p = subprocess.run([sys.executable, lockstep, "--rounds", "3", "--block", "2", "--cpus", "",
                            "--out", d, os.path.abspath(__file__),
                            f"base=STUB_MS=1 STUB_SPANS={d}/b2", "dies=STUB_MS=oops"],
                           capture_output=True, text=True, timeout=60)
        if p.returncode == 0 or "FAIL" not in p.stdout:
            failures.append(f"a dead worker went unreported (exit {p.returncode}): {p.stdout}")
        # So does one that runs its turns and then does not end.
        p = subprocess.run([sys.executable, lockstep, "--rounds", "2", "--block", "2", "--cpus", "",
                            "--end-timeout", "2", "--out", d, os.path.abspath(__file__),
                            f"base=STUB_MS=1 STUB_SPANS={d}/b3",
                            f"hangs=STUB_MS=1 STUB_SPANS={d}/h3 STUB_HANG_S=60"],
                           capture_output=True, text=True, timeout=60)
        if p.returncode == 0 or "hangs did not end" not in p.stdout:
            failures.append(f"a worker that did not end went unreported (exit {p.returncode}): {p.stdout}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    if "--label" in sys.argv:
        worker()
    else:
        sys.exit(main(sys.argv[1]))
