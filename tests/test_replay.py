"""The trace replayer and the snapshot converter, end to end: good traces
(plain and gzip'd), every kind of malformed input, a converted snapshot,
the timeline (and its plot when matplotlib is there), and the recorded
traces against PyTorch's figures: tests/traces/*.csv.gz, each with a JSON
of PyTorch's figures beside it (scripts/gpu/record_dynamic.py writes both;
the project's shared traces are copied there, and tests/test_replay_fit.py
checks that they all are). --api malloc and --fit are checked here on small
traces, so that sanitizer builds, which leave out the replay-fit suite, still
run them.
usage: test_replay.py REPLAY_BINARY CONVERTER"""
import gzip
import json
import os
import pickle
import subprocess
import sys
import tempfile

from checks import check, finish

REPLAY, CONVERT = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


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

    # Events that do not fit the replay are warnings: the replay completes.
    odd = GOOD + "bogus_action,1,2,0\nfree_completed,424242,512,0\nfree_completed,1000000,512,99\n"
    odd += "alloc,1000000,4096,0\nfree_completed,1000000,4096,99\n"
    rc, j, err = replay(write(d, "odd.csv", odd))
    check(rc == 0, f"a trace with warnings still completes: {rc} {err}")
    check("line 11: warning: free of an unknown address" in err, f"unknown address reported: {err}")
    check("unknown stream" in err, f"unknown stream reported: {err}")
    check(j.get("unknown_actions") == 1, f"unknown action counted: {j}")

    # cachemalloc's event log of two devices (a Device column): one device replayed, the
    # other's events left out and said; one process's devices replayed as one would add up.
    two = "Thread,Time,Action,Pointer,Size,Stream,Device\n"
    for dev, size in ((0, 117440512), (1, 83886080)):
        two += f"1,00:00:00.000000,allocate,0x{0x7f0000000000 + dev * 0x10000000:x},{size},0x0,{dev}\n"
    two += "1,00:00:00.000001,free,0x7f0000000000,117440512,0x0,0\n"
    log = write(d, "two.csv", two)
    rc, j, err = replay(log)
    check(rc == 0 and j.get("peak_allocated_bytes") == 117440512 and "replayed device 0; 1 events" in err,
          f"a two-device log replays its first device: {rc} {j} {err}")
    rc, j, err = replay(log, "--device", "1")
    check(rc == 0 and j.get("peak_allocated_bytes") == 83886080, f"--device 1: {rc} {j} {err}")
    rc, j, err = replay(write(d, "dev.csv", two.replace(",0x0,1\n", ",0x0,x\n")))
    check(rc == 1 and "Device 'x' is not a device index" in err, f"a bad Device refused: {rc} {err}")

    # Input that breaks a rule: exit 1, one line naming the line, no report.
    def refused(name, data, line, words):
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(data)
        env = dict(os.environ, CACHEMALLOC_CONF="", CACHEMALLOC_SIM_MEMORY="4G")
        p = subprocess.run([REPLAY, path, "--json"], capture_output=True, env=env)
        err = p.stderr.decode(errors="replace")
        where = f"line {line}: " if line else ""
        check(p.returncode == 1, f"{name}: exit 1, not {p.returncode}: {err}")
        check(p.stdout == b"", f"{name}: no report on stdout: {p.stdout[:200]}")
        check(len(err.splitlines()) == 1 and where in err and words in err,
              f"{name}: one line with '{where}{words}': {err}")

    H = b"action,addr,size,stream\n"
    refused("bad_number.csv", H + b"alloc,1,2,0\nalloc,1004096,eight,7\n", 3,
            "size 'eight' is not a decimal integer")
    refused("empty_field.csv", H + b"alloc,,6,512,0\n", 2, "more than 4 fields")
    refused("empty_field2.csv", H + b"alloc,,6,512\n", 2, "addr is empty")
    refused("empty_action.csv", H + b",6,512,0\n", 2, "action is empty")
    refused("three_fields.csv", H + b"alloc,6,512\n", 2, "3 fields")
    refused("negative.csv", H + b"alloc,6,-512,0\n", 2, "size '-512'")
    refused("overflow.csv", H + b"alloc,18446744073709551616,512,0\n", 2, "addr '18446744073709551616'")
    refused("addr_zero.csv", H + b"alloc,0,512,0\n", 2, "addr is 0")
    refused("spaces.csv", H + b"alloc, 6,512,0\n", 2, "addr ' 6'")
    refused("nul.csv", H + b"alloc,6,512,0\0junk\n", 2, "NUL byte")
    # A long line with a NUL in it is refused whole, never split and replayed.
    refused("long_nul.csv", H + b"alloc,6,512,0" + b"\0" * 600 + b"alloc,7,512,0\n", 2, "NUL byte")
    refused("longer_nul.csv", H + b"alloc,6,512,0" + b"\0" * 5000 + b"alloc,7,512,0\n", 2, "longer than 4095 bytes")
    refused("long.csv", H + b"alloc,6,512," + b"0" * 5000 + b"\n", 2, "longer than 4095 bytes")
    refused("cr_only.csv", b"action,addr,size,stream\ralloc,6,512,0\r", 1, "carriage return not followed by a line feed")
    refused("cr_later.csv", H + b"alloc,6,512,0\rfree_completed,6,512,0\n", 2, "carriage return")
    refused("cr_at_end.csv", H + b"alloc,6,512,0\r", 2, "carriage return not followed by a line feed")
    refused("empty.csv", b"", 0, "empty; a trace starts with the header")
    refused("empty.csv.gz", gzip.compress(b""), 0, "empty")
    refused("header_extra.csv", b"action,addr,size,stream,extra\nalloc,6,512,0\n", 1, "expected exactly action,addr,size,stream")
    refused("header_case.csv", b"Action,addr,size,stream\nalloc,6,512,0\n", 1, "the header is 'Action")
    refused("header_nul.csv", b"action,addr,size,stream\0\nalloc,6,512,0\n", 1, "the header is")

    # Accepted: CRLF endings, a byte order mark, no ending on the last line,
    # a header-only trace.
    for name, data, ops in (("crlf.csv", GOOD.replace("\n", "\r\n"), 6),
                            ("bom.csv", "\ufeff" + GOOD, 6),
                            ("no_final_newline.csv", GOOD.rstrip("\n"), 6),
                            ("header_only.csv", "action,addr,size,stream\n", 0)):
        rc, j, err = replay(write(d, name, name.startswith("bom") and data or data))
        check(rc == 0 and j.get("ops") == ops, f"{name} replays {ops} ops: {rc} {j} {err}")

    env = dict(os.environ, CACHEMALLOC_CONF="")
    p = subprocess.run([REPLAY, "--help"], capture_output=True, text=True, env=env)
    check(p.returncode == 0 and "Exit status: 0" in p.stdout, f"--help: {p.returncode} {p.stdout}")
    for args in ([], ["--bogus", "x.csv"], ["a.csv", "b.csv"]):
        p = subprocess.run([REPLAY, *args], capture_output=True, text=True, env=env)
        check(p.returncode == 2 and len(p.stderr.splitlines()) == 1, f"usage {args}: {p.returncode} {p.stderr}")

    whole = gzip.compress(("".join(GOOD.splitlines(True)[:1]) + "alloc,1000000,4096,0\n" * 20000).encode())
    path = os.path.join(d, "truncated.csv.gz")
    with open(path, "wb") as f:
        f.write(whole[: len(whole) // 2])
    rc, j, err = replay(path)
    check(rc == 1 and "ends early or is damaged" in err and not j, f"truncated gzip stops clearly: {rc} {err}")

    rc, j, err = replay(write(d, "noheader.csv", "alloc,1,2,0\n"))
    check(rc == 1 and "header" in err, f"missing header reported: {err}")
    rc, j, err = replay(os.path.join(d, "missing.csv"))
    check(rc == 1 and "cannot open" in err, f"missing file reported: {err}")

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

    # The converter on bad input: exit 1, one line, OUT as it was, no
    # temporary file left beside it.
    def converts_badly(name, data, words):
        sp = os.path.join(d, name + ".pickle")
        with open(sp, "wb") as f:
            f.write(data)
        out_dir = os.path.join(d, "out-" + name)
        os.mkdir(out_dir)
        out = os.path.join(out_dir, "trace.csv")
        with open(out, "w") as f:
            f.write("old\n")
        p = subprocess.run([sys.executable, CONVERT, sp, out], capture_output=True, text=True)
        check(p.returncode == 1, f"{name}: converter exits 1, not {p.returncode}: {p.stderr}")
        check(len(p.stderr.splitlines()) == 1 and words in p.stderr and "Traceback" not in p.stderr,
              f"{name}: one line with '{words}': {p.stderr}")
        check(os.listdir(out_dir) == ["trace.csv"] and open(out).read() == "old\n",
              f"{name}: OUT untouched, nothing left beside it: {os.listdir(out_dir)}")

    def plain(obj):
        return pickle.dumps(obj, protocol=4)

    def entry(**kw):
        e = {"action": "alloc", "addr": 1 << 40, "size": 4096, "stream": 0}
        e.update(kw)
        return e

    deep = 200000
    converts_badly("deep_key", b"\x80\x02}" + b")" + b"\x85" * deep + b"K\x01s.", "nested more than 100 levels")
    converts_badly("deep_list", b"\x80\x02" + b"]" * deep + b"a" * (deep - 1) + b".", "nested more than 100 levels")
    converts_badly("deep_mark", b"\x80\x02" + b"(" * deep + b")" + b"t" * deep + b".", "nested more than 100 levels")
    converts_badly("huge_memo", b"\x80\x02]r\xff\xff\xff\xff.", "memo index 4294967295")
    recursive = []
    recursive.append(recursive)
    converts_badly("recursive", plain({"device_traces": [recursive]}), "recursive structure")
    converts_badly("empty", b"", "empty file")
    converts_badly("truncated", plain(snap)[:-7], "not a valid pickle")
    converts_badly("not_dict", plain([1, 2]), "the top level is list")
    converts_badly("no_traces", plain({"segments": []}), "no device_traces")
    converts_badly("traces_dict", plain({"device_traces": {}}), "device_traces is dict")
    converts_badly("no_device", plain({"device_traces": []}), "device 0 not in the snapshot")
    converts_badly("entry_list", plain({"device_traces": [[entry(), [1]]]}), "device_traces[0][1] is list")
    converts_badly("addr_inf", plain({"device_traces": [[entry(addr=float("inf"))]]}), "['addr'] is float inf")
    converts_badly("addr_zero", plain({"device_traces": [[entry(addr=0)]]}), "['addr'] is int 0; expected an integer from 1")
    converts_badly("size_neg", plain({"device_traces": [[entry(size=-1)]]}), "['size'] is int -1")
    converts_badly("size_big", plain({"device_traces": [[entry(size=1 << 64)]]}), "['size'] is int 18446744073709551616")
    converts_badly("size_bool", plain({"device_traces": [[entry(size=True)]]}), "['size'] is bool True")
    converts_badly("size_missing", plain({"device_traces": [[{"action": "alloc", "addr": 1}]]}), "has no 'size'")
    converts_badly("stream_str", plain({"device_traces": [[entry(stream="7")]]}), "['stream'] is str '7'")
    converts_badly("action_unknown", plain({"device_traces": [[entry(action="allok")]]}), "['action'] is str 'allok'; expected one of alloc")
    # A failure after many lines were written still leaves OUT untouched.
    converts_badly("late_error", plain({"device_traces": [[entry()] * 50000 + [entry(addr=-5)]]}),
                   "device_traces[0][50000]['addr'] is int -5")
    # --api malloc: cudaMalloc/cudaFree, the stream column ignored (no
    # warning for a stream never seen), the same operations.
    rc, j, err = replay(write(d, "api.csv", GOOD + "alloc,1000000,4096,0\nfree_completed,1000000,4096,99\n"),
                        "--api", "malloc")
    check(rc == 0 and j.get("api") == "malloc" and j.get("ops") == 8 and j.get("failed_allocs") == 0
          and "unknown stream" not in err, f"--api malloc replays the trace: {rc} {j} {err}")
    rc, j, err = replay(write(d, "api2.csv", GOOD))
    check(j.get("api") == "async", f"the default api is async: {j}")
    for args in (["--api"], ["--api", "cuda"], ["--pytorch-reserved", "lots"]):
        p = subprocess.run([REPLAY, os.path.join(d, "api2.csv"), *args], capture_output=True, text=True)
        check(p.returncode == 2 and len(p.stderr.splitlines()) == 1, f"usage {args}: {p.returncode} {p.stderr}")

    # --fit: the smallest device in MiB on which nothing fails; a MiB less
    # fails, and PyTorch's figure comes from the JSON beside the trace
    # (expandable_max_reserved under expandable segments) or the option.
    fitted = write(d, "fitted.csv.gz", GOOD, gz=True)
    with open(os.path.join(d, "fitted.json"), "w") as f:
        json.dump({"max_reserved": 200 << 20, "expandable_max_reserved": 100 << 20}, f)
    for conf, want in (("", 200 << 20), ("expandable_segments:True", 100 << 20)):
        rc, j, err = replay(fitted, "--fit", conf=conf)
        fit = j.get("fit_bytes") or 0
        check(rc == 0 and fit and fit % (1 << 20) == 0 and 100000256 <= fit <= j["peak_reserved_bytes"],
              f"--fit ({conf}) between peak live and peak reserved, whole MiB: {rc} {j} {err}")
        check(j.get("pytorch_max_reserved") == want and j.get("fit_ratio") == round(fit / want, 4),
              f"--fit ({conf}) compares with PyTorch's {want} from the JSON: {j}")
        check(j.get("fit_monotone") is True and j.get("fit_failing_above") == [], f"--fit ({conf}) monotone: {j}")
        env = dict(os.environ, CACHEMALLOC_CONF=conf, CACHEMALLOC_SIM_MEMORY=str(fit - (1 << 20)))
        p = subprocess.run([REPLAY, fitted, "--json"], capture_output=True, text=True, env=env)
        less = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else {}
        check(less.get("failed_allocs", 0) > 0, f"--fit ({conf}): a MiB less fails: {less} {p.stderr}")
    rc, j, err = replay(fitted, "--fit", "--pytorch-reserved", "1G", "--api", "malloc")
    check(j.get("pytorch_max_reserved") == 1 << 30 and j.get("pytorch_source") == "--pytorch-reserved"
          and j.get("api") == "malloc" and j.get("fit_bytes"), f"--pytorch-reserved: {j}")
    rc, j, err = replay(write(d, "nofig.csv", GOOD), "--fit")
    check(rc == 0 and j.get("fit_bytes") and j.get("pytorch_max_reserved") is None and j.get("fit_ratio") is None,
          f"--fit without PyTorch's figure: {j}")
    env = dict(os.environ, CACHEMALLOC_CONF="", CACHEMALLOC_SIM_MEMORY="64M")
    p = subprocess.run([REPLAY, fitted, "--fit", "--json"], capture_output=True, text=True, env=env)
    j = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else {}
    check(j.get("failed_allocs") == 1 and j.get("fit_bytes", 0) is None and "fit              none" in p.stdout,
          f"--fit on a device too small says none: {p.returncode} {j}")

    # The timeline: a line per operation, live and reserved as replayed.
    tl = os.path.join(d, "timeline.csv")
    rc, j, err = replay(write(d, "tl.csv", GOOD), "--timeline", tl, conf="expandable_segments:True")
    rows = open(tl).read().splitlines() if os.path.exists(tl) else []
    check(rc == 0 and rows[:1] == ["op,live_bytes,reserved_bytes"] and len(rows) == 7,
          f"timeline has a header and 6 lines: {rows} {err}")
    last = [int(x) for x in rows[-1].split(",")] if len(rows) > 1 else [0, 1, 0]
    check(last[0] == 6 and last[1] == 0 and max(int(r.split(",")[2]) for r in rows[1:]) ==
          j.get("peak_reserved_bytes"), f"timeline agrees with the summary: {rows} {j}")
    rc, _, err = replay(write(d, "tl2.csv", GOOD), "--timeline", os.path.join(d, "no", "t.csv"))
    check(rc != 0 and "cannot write" in err, f"unwritable timeline reported: {err}")
    plotter = os.path.join(ROOT, "python", "cachemalloc", "plot.py")
    for py in (sys.executable, "/usr/bin/python3"):
        if subprocess.run([py, "-c", "import matplotlib"], capture_output=True).returncode == 0:
            png = os.path.join(d, "t.png")
            p = subprocess.run([py, plotter, png, f"a={tl}", tl], capture_output=True, text=True)
            check(p.returncode == 0 and os.path.getsize(png) > 1000, f"plot smoke test: {p.stderr}")
            break


# Recorded traces: PyTorch's figures beside each in tests/traces/NAME.json
# ({"max_reserved": bytes, "max_allocated": bytes, "expandable_max_reserved":
# bytes or null, max_allocated may be null; "recorded_with_free_bytes"
# where a blocker left only that much of the device free}).
MiB = 1 << 20


def traces():
    found = []
    folder = os.path.join(HERE, "traces")
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if name.endswith(".csv.gz"):
            meta = os.path.join(folder, name[: -len(".csv.gz")] + ".json")
            check(os.path.exists(meta), f"{name} has PyTorch's figures beside it")
            if os.path.exists(meta):
                found.append((os.path.join(folder, name), json.load(open(meta))))
    return found


def replay_big(path, conf):
    env = dict(os.environ, CACHEMALLOC_CONF=conf, CACHEMALLOC_SIM_MEMORY="64G")
    p = subprocess.run([REPLAY, path, "--json"], capture_output=True, text=True, env=env)
    last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else "{}"
    return p.returncode, json.loads(last) if last.startswith("{") else {}


for path, fig in traces():
    name = os.path.basename(path)
    # PyTorch's default figure of a trace recorded with a fixed amount of the
    # device free is bounded by it: only the fit (test_replay_fit.py) compares.
    unbounded = not fig.get("recorded_with_free_bytes")
    rc, plain = replay_big(path, "")
    check(rc == 0 and plain.get("failed_allocs") == 0, f"{name} replays: {plain}")
    check(not unbounded or plain.get("peak_reserved_bytes", 1 << 62) <= fig["max_reserved"],
          f"{name}: default reserves at most PyTorch's {fig['max_reserved']}: {plain}")
    rc, exp = replay_big(path, "expandable_segments:True")
    check(rc == 0 and exp.get("failed_allocs") == 0, f"{name} replays expandable: {exp}")
    check(exp.get("ratio", 9) <= 1.05, f"{name}: expandable within 1.05 x peak live: {exp}")
    if fig.get("expandable_max_reserved"):
        check(exp.get("peak_reserved_bytes", 1 << 62) <= fig["expandable_max_reserved"],
              f"{name}: expandable reserves at most PyTorch's expandable segments: {exp}")
    print(f"{name}: default {plain.get('peak_reserved_bytes', 0) / MiB:.1f} MiB, "
          f"expandable {exp.get('peak_reserved_bytes', 0) / MiB:.1f} MiB "
          f"(ratio {exp.get('ratio')}, {exp.get('stitches')} stitches)")

finish("replay and converter")
