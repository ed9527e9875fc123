"""Prints bench_pinned's raw and lib runs side by side (issue 17's table)
and the targets: with the library, a pinned pair (host, hostalloc) at most
1 us at every size, the staging loop within 1.05x of keep-one-buffer (two
buffers alternated, the best a cache can do, printed beside it), a
pitched pair within 2x of the library's cudaMalloc pair.
usage: pinned_report.py RAW_JSON LIB_JSON   (each the BENCH_JSON line's object)
Lines "target ...: MET" / "...: MISSED" are read by scripts/gpu-check."""
import json
import sys

SIZES = ("4KiB", "1MiB", "16MiB", "256MiB")
ROWS = (("host", "cudaMallocHost + cudaFreeHost"),
        ("hostalloc", "cudaHostAlloc(Mapped+Portable) + cudaFreeHost"),
        ("register", "malloc + cudaHostRegister / Unregister"),
        ("pitch", "cudaMallocPitch + cudaFree (4 KiB rows)"),
        ("malloc", "cudaMalloc + cudaFree"))


def fmt(us):
    return f"{us / 1000:.2f} ms" if us >= 1000 else f"{us:.2f} us"


def main(argv):
    raw, lib = (json.load(open(p)) for p in argv[:2])
    print("| call | " + " | ".join(SIZES) + " |")
    print("|---|" + "---|" * len(SIZES))
    for key, name in ROWS:
        cells = [f"{fmt(raw['pairs'][key][s])} / {fmt(lib['pairs'][key][s])}" for s in SIZES]
        print(f"| `{name}` plain / preloaded | " + " | ".join(cells) + " |")
    for s in ("1MiB", "8MiB"):
        r, l = raw["staging"][s], lib["staging"][s]
        print(f"staging {s}: plain {fmt(r['staging'])} (keep one buffer {fmt(r['keep'])}, "
              f"two {fmt(r['ring2'])}), preloaded {fmt(l['staging'])} (keep one buffer "
              f"{fmt(l['keep'])}, two {fmt(l['ring2'])})")
    if not lib.get("lib_active"):
        print("target lib-active: cudaMallocHost did not come from libcachemalloc.so: MISSED")
        return 0
    for key in ("host", "hostalloc"):
        for s in SIZES:
            us = lib["pairs"][key][s]
            print(f"target pinned-{key}-{s}: {us:.2f} us <= 1 us: {'MET' if us <= 1 else 'MISSED'}")
    for s in ("1MiB", "8MiB"):
        l = lib["staging"][s]
        ratio = l["staging"] / l["keep"]
        print(f"target staging-{s}: {ratio:.3f}x keep-one-buffer <= 1.05x: "
              f"{'MET' if ratio <= 1.05 else 'MISSED'}")
    for s in SIZES:
        ratio = lib["pairs"]["pitch"][s] / lib["pairs"]["malloc"][s]
        print(f"target pitch-{s}: {ratio:.2f}x the cudaMalloc pair <= 2x: "
              f"{'MET' if ratio <= 2 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
