"""Runs prog_overlap (two non-blocking streams whose reuses need the fence
protocol) under the library built with the driver-call timer (option
driver_call_timer) and checks its exit report: one well-formed
"backend_timer OP ..." line per operation called, the segment allocations
and the events the protocol records and queries among them; and that the
plain library prints none.
usage: check_driver_timer.py PROG LIBCACHEMALLOC LIBCACHEMALLOC_TIMER"""
import os
import re
import subprocess
import sys

PROG, LIB, TIMED = sys.argv[1:4]
LINE = re.compile(r"^backend_timer (\w+) calls (\d+) ns (\d+) slow (\d+) slow_ns (\d+) max_ns (\d+)$")
failures = []


def run(lib):
    env = dict(os.environ, LD_PRELOAD=lib, ASAN_OPTIONS="verify_asan_link_order=0")
    env.pop("CACHEMALLOC_CONF", None)
    p = subprocess.run([PROG, "20"], capture_output=True, text=True, env=env, timeout=60)
    if p.returncode != 0:
        failures.append(f"{lib}: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    return [l for l in p.stderr.splitlines() if l.startswith("backend_timer")]


ops = {}
for line in run(TIMED):
    m = LINE.match(line)
    if not m:
        failures.append(f"malformed: {line!r}")
        continue
    calls, ns, slow, slow_ns, max_ns = map(int, m.groups()[1:])
    if calls < 1 or slow > calls or slow_ns > ns or max_ns > ns or (slow and max_ns < 5000):
        failures.append(f"inconsistent: {line!r}")
    ops[m.group(1)] = calls
print("timed:", ops)
for op in ("mem_alloc", "event_record", "event_query"):
    if ops.get(op, 0) < 1:
        failures.append(f"no {op} calls reported")
plain = run(LIB)
if plain:
    failures.append(f"the plain library reported: {plain[:2]}")
for f in failures:
    print("FAIL:", f)
print("ok" if not failures else "FAILED", ": driver-call timer")
sys.exit(1 if failures else 0)
