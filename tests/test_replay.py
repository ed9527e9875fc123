"""The trace replayer and the snapshot converter, end to end: good traces
(plain and gzip'd), every kind of malformed input, and a converted
snapshot. usage: test_replay.py REPLAY_BINARY CONVERTER"""
import gzip
import json
import os
import pickle
import subprocess
import sys
import tempfile

REPLAY, CONVERT = sys.argv[1], sys.argv[2]
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print(f"FAIL: {what}")


def replay(path, *args, conf=""):
    env = dict(os.environ, CACHEMALLOC_CONF=conf, CACHEMALLOC_SIM_MEMORY="4G")
    p = subprocess.run([REPLAY, path, "--json", *args], capture_output=True, text=True, env=env)
    last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else "{}"
    return p.returncode, json.loads(last) if last.startswith("{") else {}, p.stderr


def write(dir, name, text, gz=False):
    path = os.path.join(dir, name)
    data = text.encode()
    with open(path, "wb") as f:
        f.write(gzip.compress(data) if gz else data)
    return path


GOOD = """action,addr,size,stream
segment_alloc,1000000,2097152,0
alloc,1000000,4096,0
alloc,1004096,8192,7
free_requested,1000000,4096,0
free_completed,1000000,4096,0
alloc,1000000,100000000,0
free_completed,1004096,8192,7
free_completed,1000000,100000000,0
"""

with tempfile.TemporaryDirectory() as d:
    for gz in (False, True):
        rc, j, err = replay(write(d, "good.csv" + (".gz" if gz else ""), GOOD, gz))
        check(rc == 0, f"good trace (gz={gz}) exits 0: {rc} {err}")
        check(j.get("ops") == 6, f"6 ops replayed: {j}")
        check(j.get("peak_allocated_bytes") == 100000256 + 8192, f"peak allocated: {j}")
        check(j.get("peak_reserved_bytes", 0) >= j.get("peak_allocated_bytes", 1), "reserved >= allocated")
        for key in ("raw_alloc_calls", "raw_free_calls", "ns_per_op"):
            check(key in j, f"json has {key}")

    bad = GOOD.replace("alloc,1004096,8192,7", "alloc,1004096,eight,7") + "bogus_action,1,2,0\n"
    bad += "free_completed,424242,512,0\nfree_completed,1000000,512,99\nalloc,1000000,4096,0\nfree_completed,1000000,4096,99\n"
    rc, j, err = replay(write(d, "bad.csv", bad))
    check(rc == 0, f"a trace with bad lines still completes: {rc}")
    check("line 4:" in err and "not action,addr,size,stream" in err, f"bad line reported: {err}")
    check("free of an unknown address" in err, f"unknown address reported: {err}")
    check("unknown stream" in err, f"unknown stream reported: {err}")
    check(j.get("unknown_actions") == 1, f"unknown action counted: {j}")

    whole = gzip.compress(("".join(GOOD.splitlines(True)[:1]) + "alloc,1000000,4096,0\n" * 20000).encode())
    path = os.path.join(d, "truncated.csv.gz")
    with open(path, "wb") as f:
        f.write(whole[: len(whole) // 2])
    rc, j, err = replay(path)
    check(rc != 0 and "ends early or is damaged" in err, f"truncated gzip stops clearly: {rc} {err}")

    rc, j, err = replay(write(d, "noheader.csv", "alloc,1,2,0\n"))
    check(rc != 0 and "header" in err, f"missing header reported: {err}")
    rc, j, err = replay(os.path.join(d, "missing.csv"))
    check(rc != 0 and "cannot open" in err, f"missing file reported: {err}")

    snap = {"segments": [], "device_traces": [[
        {"action": "segment_alloc", "addr": 1 << 40, "size": 2 << 20, "stream": 0, "frames": []},
        {"action": "alloc", "addr": 1 << 40, "size": 4096, "stream": 0, "frames": []},
        {"action": "snapshot", "addr": 0, "size": 0, "stream": 0, "frames": []},
        {"action": "free_requested", "addr": 1 << 40, "size": 4096, "stream": 0, "frames": []},
        {"action": "free_completed", "addr": 1 << 40, "size": 4096, "stream": 0, "frames": []},
    ]]}
    sp = os.path.join(d, "snap.pickle")
    with open(sp, "wb") as f:
        pickle.dump(snap, f, protocol=4)
    out = os.path.join(d, "converted.csv.gz")
    p = subprocess.run([sys.executable, CONVERT, sp, out], capture_output=True, text=True)
    check(p.returncode == 0 and "4 events" in p.stdout, f"converter: {p.stdout} {p.stderr}")
    rc, j, err = replay(out)
    check(rc == 0 and j.get("ops") == 2, f"converted trace replays: {j} {err}")

    class Evil:
        def __reduce__(self):
            return (os.system, ("true",))
    with open(sp, "wb") as f:
        pickle.dump({"device_traces": [Evil()]}, f)
    p = subprocess.run([sys.executable, CONVERT, sp, out], capture_output=True, text=True)
    check(p.returncode != 0 and "refusing" in p.stderr, f"converter refuses code in pickles: {p.stderr}")

print(f"{'ok' if not failures else 'FAILED'}: replay and converter, {failures} failure(s)")
sys.exit(1 if failures else 0)
