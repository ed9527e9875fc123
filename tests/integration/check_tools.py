"""Runs prog_tools under the library and checks the user's tools
(docs/design.md section 8): %p, %h and %r in the output paths (two runs,
two sets of files), the metrics textfile (parsed by a strict parser of
Prometheus' text format, and by prometheus_client's where it is installed;
once while blocks are live, once at exit), RMM's event log (its header,
actions, hexadecimal pointers) and its round trip through the replayer,
and exit_summary's line.
The snapshots are checked by tests/check_snapshot.py (the integer widths
MemoryViz.js reads): the one written at the refused allocation (with its
oom entry), one written by SIGUSR1 while a block waits on its fence
(active_pending_free), one of expandable segments (segment_map).
usage: check_tools.py PROG_TOOLS LIBCACHEMALLOC CACHEMALLOC_REPLAY"""
import json
import os
import pickle
import re
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from checks import check, finish  # noqa: E402
from prom_text import parse_prometheus  # noqa: E402

PROG, LIB, REPLAY = sys.argv[1:4]


def run(conf, args=(), extra_env=None):
    env = dict(os.environ, LD_PRELOAD=LIB, CACHEMALLOC_CONF=conf,
               ASAN_OPTIONS="verify_asan_link_order=0")
    for v in ("RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"):
        env.pop(v, None)
    env.update(extra_env or {})
    p = subprocess.run([PROG, *args], capture_output=True, text=True, env=env, timeout=60)
    check(p.returncode == 0 and "tools: ok" in p.stdout, f"prog_tools under {conf}", p.stdout + p.stderr)
    m = re.search(r"^pid (\d+)$", p.stdout, re.M)
    return p, int(m.group(1)) if m else -1


# The strict parser refuses what breaks the format (so that its passing means something).
for bad in ("cachemalloc_x{device=\"0\"} 1",                 # no final newline
            "cachemalloc_x{device=0} 1\n",                     # unquoted label value
            "# TYPE a counter\n# TYPE a counter\na 1\n",        # TYPE twice
            "a 1\nb 2\na 3\n",                                  # family not contiguous
            "a one\n"):                                         # not a number
    try:
        parse_prometheus(bad)
        check(False, f"the strict parser refuses {bad!r}")
    except ValueError:
        pass


def check_metrics(path, what, want):
    try:
        text = open(path).read()
        samples, types = parse_prometheus(text)
    except (OSError, ValueError) as e:
        check(False, f"{what}: {path} parses as Prometheus text", str(e))
        return {}
    check(all(n.startswith("cachemalloc_") for n, _ in samples), f"{what}: names prefixed cachemalloc_")
    check(all(dict(l).get("device") == "0" for n, l in samples if n != "cachemalloc_info"),
          f"{what}: every sample has device=\"0\"")
    # One file per process: the pid label keeps their series apart (issue 33).
    pids = {dict(l).get("pid") for _, l in samples}
    check(len(pids) == 1 and None not in pids and all(dict(l).get("host") for _, l in samples),
          f"{what}: every sample has the same pid label and a host label", str(pids))
    check(samples.get(next((k for k in samples if k[0] == "cachemalloc_info"), None)) == 1,
          f"{what}: an info series with value 1")
    for fam, t in types.items():
        check((t == "counter") == fam.endswith("_total"), f"{what}: {fam} is a {t}; counters end _total")
    got = {n: v for (n, l), v in samples.items()}
    for name, value in want.items():
        check(got.get(name) == value, f"{what}: {name} is {got.get(name)}, expected {value}")
    try:
        from prometheus_client.parser import text_string_to_metric_families
    except ImportError:
        print(f"{what}: prometheus_client is not installed; the strict parser alone")
    else:
        fams = list(text_string_to_metric_families(text))
        n = sum(len(f.samples) for f in fams)
        check(n == len(samples), f"{what}: prometheus_client reads {n} samples, expected {len(samples)}")
        print(f"{what}: prometheus_client parsed {len(fams)} families")
    return got


def check_log(path, what):
    """The RMM event log: returns the number of rows, or -1."""
    try:
        lines = open(path).read().split("\n")
    except OSError as e:
        check(False, f"{what}: {path}", str(e))
        return -1
    check(lines[0] == "Thread,Time,Action,Pointer,Size,Stream,Device", f"{what}: RMM's header and Device",
          lines[0])
    check(lines[-1] == "", f"{what}: ends in a newline")
    rows = [l.split(",") for l in lines[1:-1]]
    check(all(len(r) == 7 and r[6] == "0" for r in rows), f"{what}: seven fields a row, device 0")
    actions = [r[2] for r in rows]
    check(actions.count("allocate") == 6 and actions.count("free") == 6 and
          actions.count("allocate failure") == 1, f"{what}: 6 allocate, 6 free, 1 allocate failure",
          str(actions))
    check(all(re.fullmatch(r"0x[0-9a-f]+", r[3]) and re.fullmatch(r"0x[0-9a-f]+", r[5]) for r in rows),
          f"{what}: pointers and streams in hexadecimal")
    check(all(re.fullmatch(r"\d+", r[0]) and re.fullmatch(r"\d\d:\d\d:\d\d\.\d{6}", r[1]) for r in rows),
          f"{what}: thread ids and HH:MM:SS.ffffff times")
    live = set()
    for r in rows:
        if r[2] == "allocate":
            live.add(r[3])
        elif r[2] == "free":
            check(r[3] in live, f"{what}: free of {r[3]} follows its allocate")
            live.discard(r[3])
    check(any(r[2] == "allocate" and r[5] != "0x0" for r in rows), f"{what}: the stream's allocation names it")
    return len(rows)


host = socket.gethostname()
with tempfile.TemporaryDirectory() as d:
    outs = f"stats:exit-json:{d}/s.%p.json,metrics:{d}/m.%p.prom:1,log:{d}/l.%p.csv," \
           f"oom_snapshot:{d}/o.%r.%h.pickle"
    pa, pid_a = run(outs + ",exit_summary:true")
    # The second run's metrics file has a fixed name: prog_tools must know
    # it to wait for it. SLURM_PROCID gives its %r.
    env_b = {"SLURM_PROCID": "7"}
    pb_proc = subprocess.Popen([PROG, "wait", f"{d}/m.self.prom", f"{d}/mid.prom"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               env=dict(os.environ, LD_PRELOAD=LIB, ASAN_OPTIONS="verify_asan_link_order=0",
                                        CACHEMALLOC_CONF=outs.replace("m.%p.prom", "m.self.prom"), **env_b))
    out_b, err_b = pb_proc.communicate(timeout=60)
    check(pb_proc.returncode == 0 and "tools: ok" in out_b, "prog_tools wait run", out_b + err_b)
    pid_b = int(re.search(r"^pid (\d+)$", out_b, re.M).group(1)) if "pid " in out_b else -1

    files = sorted(os.listdir(d))
    for pid in (pid_a, pid_b):
        path = f"{d}/s.{pid}.json"
        if check(os.path.exists(path), f"%p: {path} written ({files})"):
            st = json.load(open(path))
            check(st.get("alloc_calls") == 7 and st.get("oom_count") == 1 and st.get("free_calls") == 6,
                  f"stats of pid {pid}: 7 allocation calls, 1 refused, 6 frees", str(st))
            check(st.get("loaded") is True and "runtime" in st.get("levels", []),
                  f"stats of pid {pid}: loaded, runtime level seen", str(st))
    check(os.path.exists(f"{d}/o.0.{host}.pickle"), f"%r (no launcher: 0) and %h in oom_snapshot ({files})")
    check(os.path.exists(f"{d}/o.7.{host}.pickle"), f"%r from SLURM_PROCID in oom_snapshot ({files})")
    summary = [l for l in pa.stderr.splitlines() if l.startswith(f"cachemalloc: pid {pid_a}: ")]
    check(len(summary) == 1 and "6 allocations served" in summary[0] and "levels: runtime" in summary[0],
          "exit_summary: one line", pa.stderr)

    check_metrics(f"{d}/m.{pid_a}.prom", "metrics at exit",
                  {"cachemalloc_alloc_calls_total": 7, "cachemalloc_free_calls_total": 6,
                   "cachemalloc_oom_count_total": 1, "cachemalloc_allocated_blocks": 0,
                   "cachemalloc_peak_allocated_blocks": 6})
    check_metrics(f"{d}/mid.prom", "metrics while three blocks are live (periodic write)",
                  {"cachemalloc_alloc_calls_total": 7, "cachemalloc_allocated_blocks": 3})

    rows = check_log(f"{d}/l.{pid_a}.csv", "event log")
    r = subprocess.run([REPLAY, f"{d}/l.{pid_a}.csv", "--json"], capture_output=True, text=True, timeout=60)
    try:
        rep = json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        rep = {}
    check(r.returncode == 0 and rep.get("complete") is True and rep.get("ops") == 12 and
          rep.get("failed_allocs") == 0, "the event log replays: 12 operations", r.stdout + r.stderr)
    print(f"event log: {rows} rows; replayed {rep.get('ops')} operations, peak reserved "
          f"{rep.get('peak_reserved_bytes')} bytes")

CHECK_SNAPSHOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "check_snapshot.py")


def check_snapshot(path, *want):
    p = subprocess.run([sys.executable, CHECK_SNAPSHOT, path, *want], capture_output=True, text=True)
    check(p.returncode == 0, f"snapshot {os.path.basename(path)} {' '.join(want)}", p.stdout + p.stderr)
    print(p.stdout.strip())


with tempfile.TemporaryDirectory() as d:
    p, _ = run(f"oom_snapshot:{d}/o.pickle")
    check_snapshot(f"{d}/o.pickle", "oom", "alloc", "--device-free")
    check("CUDA out of memory" in p.stderr, "the out-of-memory report on stderr", p.stderr)
    # log_level:quiet: no report, the snapshot asked for is written all the same.
    p, _ = run(f"oom_snapshot:{d}/q.pickle,log_level:quiet")
    check("out of memory" not in p.stderr and os.path.exists(f"{d}/q.pickle"),
          "log_level:quiet: no out-of-memory report, the snapshot written", p.stderr)
    run(f"oom_snapshot:{d}/p.pickle,report_signal:SIGUSR1", ["pending", f"{d}/p.pickle", f"{d}/pending.pickle"])
    check_snapshot(f"{d}/pending.pickle", "--pending")
    # snapshot_stacks: the live blocks' stacks, resolved at the write, start in the program.
    run(f"oom_snapshot:{d}/s.pickle,snapshot_stacks:true")
    check_snapshot(f"{d}/s.pickle", "--frames", "6")
    with open(f"{d}/s.pickle", "rb") as f:
        snap = pickle.load(f)
    frames = [b["frames"] for seg in snap["segments"] for b in seg["blocks"] if b["frames"]]
    check(frames and all(any(fr["filename"].endswith("prog_tools") for fr in fs) for fs in frames) and
          all(not fs[0]["filename"].endswith("libcachemalloc.so") for fs in frames),
          "stacks: the program's frames, the library's own left out", str(frames[:1]))

finish("tools")
