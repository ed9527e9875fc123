"""Runs prog_pinned under the library in the pinned host memory modes and
checks what the statistics (stats:exit-json) say of them: the host cache
served requests (host_alloc_calls, host_cache_hits, host_reserved_bytes and
its peak, under those names), pinned_max_cached_mb held its bound, and
pinned_use_cuda_host_register served from registered memory.
usage: check_pinned.py PROG_PINNED LIBCACHEMALLOC"""
import json
import os
import subprocess
import sys
import tempfile

PROG, LIB = sys.argv[1], sys.argv[2]
KEYS = ("host_alloc_calls", "host_cache_hits", "host_reserved_bytes", "peak_host_reserved_bytes",
        "host_cached_bytes", "peak_host_cached_bytes", "host_releases")
failures = 0


def check(cond, what, p=None):
    global failures
    if not cond:
        failures += 1
        print(f"FAIL: {what}" + (f"\n--- stdout:\n{p.stdout}\n--- stderr:\n{p.stderr}" if p else ""))


def run(conf, *args):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "stats.json")
        env = dict(os.environ, LD_PRELOAD=LIB, CACHEMALLOC_CONF=f"{conf},stats:exit-json:{path}"
                   if conf else f"stats:exit-json:{path}")
        env["ASAN_OPTIONS"] = "verify_asan_link_order=0"
        p = subprocess.run([PROG, *args], capture_output=True, text=True, env=env, timeout=100)
        check(p.returncode == 0 and "pinned: ok" in p.stdout, f"prog_pinned under '{conf}'", p)
        st = json.load(open(path)) if os.path.exists(path) else {}
        missing = [k for k in KEYS if k not in st]
        check(not missing, f"'{conf}': the JSON has every host key (missing {missing})")
        return st


st = run("")
check(st.get("host_alloc_calls", 0) > 2000 and st.get("host_cache_hits", 0) > 1000,
      f"default: the host cache served the program: {st}")
check(st.get("peak_host_reserved_bytes", 0) >= st.get("host_reserved_bytes", 1),
      "default: the peak is at least the current level")

st = run("pinned_max_cached_mb:1")
check(st.get("peak_host_cached_bytes", 1 << 40) <= 1 << 20,
      f"pinned_max_cached_mb:1: at most 1 MiB cached at any time: {st}")
check(st.get("host_releases", 0) > 0, "pinned_max_cached_mb:1: blocks were given back")

st = run("pinned_max_cached_mb:0")
check(st.get("host_cache_hits", 1) == 0 and st.get("peak_host_cached_bytes", 1) == 0,
      f"pinned_max_cached_mb:0: nothing cached: {st}")

st = run("pinned_use_cuda_host_register:true", "register")
check(st.get("host_cache_hits", 0) > 1000, f"pinned_use_cuda_host_register: served: {st}")

print(f"{'ok' if not failures else 'FAILED'}: pinned modes, {failures} failure(s)")
sys.exit(1 if failures else 0)
