"""scripts/pytorch_expandable.py against PyTorch itself: on every trace of
tests/traces recorded with PyTorch's own allocator whose JSON holds the
expandable-segments run's max reserved, the model gives that figure to the
byte. Traces whose PyTorch figures came from another run under a blocker
(`recorded_with_free_bytes`: trace_fit_h100_b32, the library's log of its
own run) are left out: their requests are not the ones PyTorch served.

usage: test_pytorch_expandable.py TRACES_DIR"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import pytorch_expandable  # noqa: E402


def main(folder):
    failures = checked = 0
    for name in sorted(n[: -len(".csv.gz")] for n in os.listdir(folder) if n.endswith(".csv.gz")):
        fig = json.load(open(os.path.join(folder, name + ".json")))
        want = fig.get("expandable_max_reserved")
        if not want or "recorded_with_free_bytes" in fig:
            continue
        got = pytorch_expandable.peak_reserved(os.path.join(folder, name + ".csv.gz"))
        checked += 1
        print(f"{name}: model {got} bytes, PyTorch {want}")
        if got != want:
            print(f"FAIL: {name}: the model reserves {got} bytes where PyTorch reserved {want}")
            failures += 1
    if checked < 3:
        print(f"FAIL: only {checked} traces with PyTorch's expandable figure; expected 3 or more")
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
