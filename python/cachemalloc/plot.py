#!/usr/bin/env python3
"""Draws replay timelines (cachemalloc replay TRACE --timeline FILE):
reserved and live memory and fragmentation (1 - live / reserved) over the
trace's operations, one line per mode.

usage: plot.py OUT.png LABEL=TIMELINE.csv [LABEL=TIMELINE.csv ...]
A TIMELINE without LABEL= is labelled with its file name. Needs matplotlib
(Debian: python3-matplotlib). `cachemalloc plot` replays and draws in one go.
"""
import csv
import os
import sys


def read(path):
    ops, live, reserved = [], [], []
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows, None)
        if header != ["op", "live_bytes", "reserved_bytes"]:
            sys.exit(f"plot_timeline: {path}: not a replay timeline (header {header})")
        for row in rows:
            ops.append(int(row[0]))
            live.append(int(row[1]) / 2**20)
            reserved.append(int(row[2]) / 2**20)
    return ops, live, reserved


def have_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 2:
        sys.exit(__doc__.strip())
    out, series = argv[0], []
    for arg in argv[1:]:
        label, sep, path = arg.partition("=")
        if not sep:
            label, path = os.path.basename(arg), arg
        series.append((label, read(path)))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(10, 7))
    for i, (label, (ops, live, reserved)) in enumerate(series):
        color = f"C{i}"
        top.plot(ops, reserved, color=color, label=f"{label}: reserved (peak {max(reserved, default=0):.0f} MiB)")
        frag = [1 - l / r if r else 0.0 for l, r in zip(live, reserved)]
        bottom.plot(ops, frag, color=color, label=label)
    ops, live, _ = series[0][1]
    top.plot(ops, live, color="black", linewidth=0.8, label=f"live (peak {max(live, default=0):.0f} MiB)")
    top.set_ylabel("MiB")
    top.legend(loc="lower right", fontsize="small")
    top.set_title("reserved and live memory")
    bottom.set_ylabel("1 - live / reserved")
    bottom.set_xlabel("operation")
    bottom.set_title("fragmentation")
    bottom.legend(loc="upper left", fontsize="small")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"plot_timeline: wrote {out} ({len(series)} modes)", file=sys.stderr)


if __name__ == "__main__":
    main()
