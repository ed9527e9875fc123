"""Runs prog_signal under the library and checks the reports a user asks
for: report_signal prints the statistics on demand, stats:exit prints them
at exit, stats:exit-json writes them as JSON with the documented keys, and
a JSON path that cannot be written is reported without failing the program.
usage: check_reports.py PROG_SIGNAL LIBCACHEMALLOC"""
import json
import os
import subprocess
import sys
import tempfile

PROG, LIB = sys.argv[1], sys.argv[2]
KEYS = ("alloc_calls", "free_calls", "cache_hits", "raw_alloc_calls", "raw_free_calls", "fences",
        "alloc_retries", "oom_count", "allocated_bytes", "reserved_bytes",
        "peak_allocated_bytes", "peak_reserved_bytes")
failures = 0


def run(conf, *args):
    env = dict(os.environ, LD_PRELOAD=LIB, CACHEMALLOC_CONF=conf)
    env.pop("ASAN_OPTIONS", None)
    env["ASAN_OPTIONS"] = "verify_asan_link_order=0"
    return subprocess.run([PROG, *args], capture_output=True, text=True, env=env, timeout=60)


def check(cond, what, p=None):
    global failures
    if not cond:
        failures += 1
        print(f"FAIL: {what}" + (f"\n--- stderr:\n{p.stderr}" if p else ""))


p = run("report_signal:SIGUSR1")
check(p.returncode == 0 and "signal: ok" in p.stdout, "program runs with report_signal", p)
check("cachemalloc statistics" in p.stderr and "alloc_calls" in p.stderr,
      "SIGUSR1 printed the statistics", p)

# issue 36: a handler the program installed before its first allocation
# is chained, not replaced; a signal before the first allocation does not
# kill the program.
p = run("report_signal:SIGUSR1", "own-handler")
check(p.returncode == 0 and "signal: ok" in p.stdout,
      f"report_signal chains the program's own handler: {p.stdout.strip()!r}", p)
check("cachemalloc statistics" in p.stderr, "SIGUSR1 printed the statistics beside it", p)
p = run("report_signal:SIGUSR1", "early")
check(p.returncode == 0 and "signal: ok" in p.stdout,
      f"SIGUSR1 before the first allocation does not kill the program (exit {p.returncode})", p)

p = run("stats:exit")
check(p.returncode == 0 and "cachemalloc statistics" in p.stderr, "stats:exit prints at exit", p)
line = next((l for l in p.stderr.splitlines() if l.split()[:1] == ["alloc_calls"]), "")
check(line.split()[1:2] == ["8"], f"stats:exit counts 8 allocations: {line!r}", p)

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "stats.json")
    p = run(f"stats:exit-json:{path}")
    check(p.returncode == 0 and os.path.exists(path), "stats:exit-json writes its file", p)
    if os.path.exists(path):
        st = json.load(open(path))
        missing = [k for k in KEYS if k not in st]
        check(not missing, f"JSON has every documented key (missing {missing})")
        check(st.get("alloc_calls") == 8 and st.get("free_calls") == 8, f"JSON counts: {st}")
    p = run("stats:exit-json:/nonexistent-dir/stats.json")
    check(p.returncode == 0 and "cannot write statistics to /nonexistent-dir/stats.json" in p.stderr,
          "an unwritable JSON path is reported, the program unharmed", p)

print(f"{'ok' if not failures else 'FAILED'}: reports, {failures} failure(s)")
sys.exit(1 if failures else 0)
