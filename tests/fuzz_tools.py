#!/usr/bin/env python3
"""Mutation fuzzing of the trace replayer and the snapshot converter.

Each iteration takes a valid input (a trace, or a snapshot pickled with
protocol 0 to 5), mutates it (bit flips, interesting bytes and numbers, cut,
duplicated and inserted runs, deep nesting opcodes, splices) or generates a
snapshot with wrong values, runs the tool and checks:
- the exit status is 0 or 1 (no signal, no usage error);
- no Python traceback, no "internal error" (an exception the rules missed);
- on failure exactly one line on stderr (the replayer's warnings aside), and
  nothing half-written: no report on the replayer's stdout, no output file
  (nor temporary file) from the converter;
- the replayer's exit status is the one the input rules of its --help give,
  recomputed here from the bytes (plain text inputs);
- a trace the converter writes replays with exit status 0.

Iteration i uses random.Random(f"{seed}:{i}"), so a failure is replayed alone
with --start i --iterations 1; --save DIR keeps the failing inputs.

usage: fuzz_tools.py --replay BIN --converter SCRIPT [--iterations N]
                     [--seed S] [--start I] [--only replay|convert] [--save DIR]
"""
import argparse
import gzip
import importlib.util
import io
import json
import os
import pickle
import random
import subprocess
import sys
import tempfile

HEADER = b"action,addr,size,stream"
ACTIONS = ["alloc", "free_requested", "free_completed", "segment_alloc", "segment_free"]
NUMBERS = [b"0", b"1", b"512", b"18446744073709551615", b"18446744073709551616", b"-1", b"+5",
           b" 7", b"1e3", b"0x10", b"inf", b"nan", b"99999999999999999999999", b""]
BYTES = [b"\0", b"\r", b"\n", b"\r\n", b",", b",,", b"\xef\xbb\xbf", b"\xff", b"\x1f\x8b", b" "]


# ---- Seeds. ----

def trace_seed(rng):
    """A valid trace: allocations and frees over a few streams."""
    lines, live = [HEADER], []
    for _ in range(rng.randint(0, 40)):
        if live and rng.random() < 0.45:
            addr, size, stream = live.pop(rng.randrange(len(live)))
            lines.append(b"free_requested,%d,%d,%d" % (addr, size, stream))
            lines.append(b"free_completed,%d,%d,%d" % (addr, size, stream))
        else:
            addr = rng.randrange(1, 1 << 48) & ~511 or 512
            size = rng.choice([0, 1, 512, 4096, 1 << 20, rng.randrange(1, 1 << 26)])
            stream = rng.choice([0, 0, 7, 140000000000])
            lines.append(b"alloc,%d,%d,%d" % (addr, size, stream))
            live.append((addr, size, stream))
    end = rng.choice([b"\n", b"\r\n"])
    return end.join(lines) + end


def snapshot_seed(rng):
    entries = []
    for _ in range(rng.randint(0, 12)):
        e = {"action": rng.choice(ACTIONS + ["snapshot", "oom"]),
             "addr": rng.randrange(1, 1 << 48), "size": rng.randrange(0, 1 << 30),
             "stream": rng.choice([0, 7]), "time_us": rng.randrange(1 << 40)}
        if rng.random() < 0.5:
            e["frames"] = [{"filename": "model.py", "line": rng.randrange(1000), "name": "fwd"}]
        entries.append(e)
    snap = {"segments": [{"address": 1 << 40, "blocks": [{"size": 512, "state": "inactive"}]}],
            "device_traces": [entries] + ([[]] if rng.random() < 0.3 else [])}
    return snap


def wrong_value(rng):
    return rng.choice([float("inf"), float("nan"), -1, 0, 1 << 64, (1 << 64) - 1, True, None,
                       "12", b"12", 3.0, [1], {"a": 1}, (1,), 10 ** 100])


def snapshot_generated(rng):
    """A snapshot with a wrong value somewhere (or none), pickled."""
    snap = snapshot_seed(rng)
    roll = rng.random()
    entries = snap["device_traces"][0]
    if roll < 0.6 and entries:
        e = rng.choice(entries)
        key = rng.choice(["action", "addr", "size", "stream", "frames"])
        if rng.random() < 0.2:
            e.pop(key, None)
        else:
            e[key] = wrong_value(rng) if key != "action" else rng.choice(
                ["allocx", "", "ALLOC", 5, None])
    elif roll < 0.7:
        entries.append(wrong_value(rng))
    elif roll < 0.8:
        snap["device_traces"] = wrong_value(rng)
    elif roll < 0.85:
        snap = wrong_value(rng)
    return pickle.dumps(snap, protocol=rng.randint(0, 5))


# ---- Mutations. ----

def mutate_bytes(rng, data, pickle_ops=False):
    data = bytearray(data)
    for _ in range(rng.choice([1, 1, 2, 3, 5])):
        pos = rng.randint(0, len(data))
        kind = rng.randrange(9)
        if kind == 0 and data:
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        elif kind == 1 and data:
            i = rng.randrange(len(data))
            data[i] = rng.choice([0, 0xff, 0x0d, 0x0a, 0x2c, 0x2d, 0x39, 0x80, rng.randrange(256)])
        elif kind == 2:
            data[pos:pos] = rng.choice(BYTES)
        elif kind == 3 and data:
            end = min(len(data), pos + rng.randint(1, 32))
            del data[pos:end]
        elif kind == 4 and data:
            i = rng.randrange(len(data))
            chunk = data[i:i + rng.randint(1, 64)]
            data[pos:pos] = chunk * rng.randint(1, 100)
        elif kind == 5:
            run = rng.choice([b"A", b"9", b"\0", b",", b"(", b"]"])
            data[pos:pos] = run * rng.choice([10, 600, 4094, 4095, 4096, 5000])
        elif kind == 6:
            del data[pos:]
        elif kind == 7 and not pickle_ops:
            data[pos:pos] = rng.choice(NUMBERS)
        elif kind in (7, 8) and pickle_ops:
            data[pos:pos] = rng.choice(PICKLE_OPS)(rng)
        elif kind == 8:
            fields = rng.choice(ACTIONS).encode(), rng.choice(NUMBERS), rng.choice(NUMBERS), \
                rng.choice(NUMBERS)
            data[pos:pos] = b"\n" + b",".join(fields[:rng.randint(1, 4)] + ((b"x",) if
                                                                          rng.random() < 0.2 else ()))
    return bytes(data)


PICKLE_OPS = [
    lambda r: b"(" * r.choice([50, 101, 5000]) + b")" + b"t" * r.choice([50, 101, 5000]),
    lambda r: b")" + b"\x85" * r.choice([99, 100, 101, 200000]),
    lambda r: b"]" * r.choice([100, 101, 3000]) + b"a" * r.choice([99, 100, 3000]),
    lambda r: b"c__builtin__\neval\n", lambda r: b"\x93", lambda r: b"R", lambda r: b"b",
    lambda r: b"r\xff\xff\xff\xff", lambda r: b"h\x00", lambda r: b"j\x00\x00\x00\x10",
    lambda r: b"\x8d" + (1 << r.choice([20, 62])).to_bytes(8, "little"),
    lambda r: b"\x8b" + (1 << 30).to_bytes(4, "little"), lambda r: b"L" + b"9" * 5000 + b"L\n",
    lambda r: b"G\x7f\xf0\x00\x00\x00\x00\x00\x00", lambda r: b"0", lambda r: b"2",
    lambda r: b"s", lambda r: b"u", lambda r: b"e", lambda r: b"1", lambda r: b"\x94",
    lambda r: b"\x8f\x28\x91", lambda r: b"\x97", lambda r: b".", lambda r: b"P0\n",
]


# ---- The replayer's input rules, recomputed. ----

def replay_rules(data):
    """0 or 1, the replayer's exit status for plain input, or None when the
    input is not plain text (gzip magic)."""
    if data[:2] == b"\x1f\x8b":
        return None
    if not data:
        return 1
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    elif lines[-1].endswith(b"\r"):
        return 1  # a CR at the end of the input is not followed by a LF
    for n, line in enumerate(lines, 1):
        if line.endswith(b"\r"):
            line = line[:-1]
        if b"\r" in line:
            return 1
        if len(line) > 4095:
            return 1
        if n == 1:
            if line.startswith(b"\xef\xbb\xbf"):
                line = line[3:]
            if line != HEADER:
                return 1
            continue
        if b"\0" in line:
            return 1
        fields = line.split(b",")
        if len(fields) != 4 or not all(fields):
            return 1
        for i, f in enumerate(fields[1:], 1):
            if not f.isdigit() or not f.isascii() or int(f) >= 1 << 64 or (i == 1 and int(f) == 0):
                return 1
    return 0


# ---- Running the tools. ----

class Fuzz:
    def __init__(self, args):
        self.args = args
        self.tmp = tempfile.mkdtemp(prefix="fuzz_tools.")
        self.env = dict(os.environ, CACHEMALLOC_CONF="", CACHEMALLOC_SIM_MEMORY="4G")
        spec = importlib.util.spec_from_file_location("snapshot_to_trace", args.converter)
        self.converter = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.converter)
        self.failures = 0
        self.runs = {"replay": 0, "convert": 0}
        self.exits = {}

    def fail(self, i, tool, data, why):
        self.failures += 1
        print(f"FAIL iteration {i} ({tool}): {why}\n  input {data[:160]!r}{'...' if len(data) > 160 else ''}"
              f" ({len(data)} bytes); again: --seed {self.args.seed} --start {i} --iterations 1")
        if self.args.save:
            os.makedirs(self.args.save, exist_ok=True)
            with open(os.path.join(self.args.save, f"{tool}-{self.args.seed}-{i}"), "wb") as f:
                f.write(data)

    def replay(self, path):
        p = subprocess.run([self.args.replay, path, "--json"], capture_output=True, env=self.env)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    def check_replay(self, i, data, gz):
        path = os.path.join(self.tmp, "trace.csv.gz" if gz else "trace.csv")
        with open(path, "wb") as f:
            f.write(gzip.compress(data, mtime=0) if gz else data)
        rc, out, err = self.replay(path)
        self.runs["replay"] += 1
        self.exits[("replay", rc)] = self.exits.get(("replay", rc), 0) + 1
        # The core's out-of-memory report (an allocation the simulated device
        # refuses: a warning) is its own: "cachemalloc: ..." and indented lines.
        lines = [l for l in err.splitlines() if not l.startswith(("cachemalloc: ", "  "))]
        errors = [l for l in lines if ": warning: " not in l and "more warnings not shown" not in l]
        if rc not in (0, 1):
            return self.fail(i, "replay", data, f"exit status {rc} (a signal if negative): {err[-300:]}")
        if any(not l.startswith("replay: ") for l in lines):
            return self.fail(i, "replay", data, f"a stderr line not from the replayer: {err[-300:]}")
        if rc == 1 and (out or len(errors) != 1):
            return self.fail(i, "replay", data, f"exit 1 with {len(errors)} error lines and "
                             f"{len(out)} bytes of report: {err[-300:]}")
        if rc == 0:
            try:
                report = json.loads(out.strip().splitlines()[-1])
            except (ValueError, IndexError):
                return self.fail(i, "replay", data, f"exit 0 without a JSON report: {out[-300:]}")
            if report.get("complete") is not True or errors:
                return self.fail(i, "replay", data, f"exit 0 but {report} {errors}")
        expected = replay_rules(data)
        if expected is not None and rc != expected:
            return self.fail(i, "replay", data, f"exit {rc}, the input rules say {expected}: "
                             f"{err[-300:]}")

    def check_convert(self, i, data):
        snap = os.path.join(self.tmp, "snap.pickle")
        with open(snap, "wb") as f:
            f.write(data)
        out_dir = os.path.join(self.tmp, "out")
        os.makedirs(out_dir, exist_ok=True)
        for name in os.listdir(out_dir):
            os.unlink(os.path.join(out_dir, name))
        out = os.path.join(out_dir, "trace.csv" + (".gz" if i % 2 else ""))
        rc, err = self.run_converter(snap, out)
        self.runs["convert"] += 1
        self.exits[("convert", rc)] = self.exits.get(("convert", rc), 0) + 1
        left = sorted(os.listdir(out_dir))
        if rc not in (0, 1):
            return self.fail(i, "convert", data, f"exit status {rc} (a signal if negative): {err[-300:]}")
        if "Traceback" in err or "internal error" in err:
            return self.fail(i, "convert", data, f"a traceback or unexpected error: {err[-600:]}")
        if rc == 1:
            if len(err.splitlines()) != 1 or not err.startswith("snapshot_to_trace: "):
                return self.fail(i, "convert", data, f"exit 1 without exactly one line: {err!r}")
            if left:
                return self.fail(i, "convert", data, f"exit 1 but files left: {left}")
            return
        if err or left != [os.path.basename(out)]:
            return self.fail(i, "convert", data, f"exit 0 with stderr {err!r}, files {left}")
        rrc, _, rerr = self.replay(out)
        if rrc != 0:
            return self.fail(i, "convert", data, f"the converted trace does not replay: {rerr}")

    def run_converter(self, snap, out):
        """Runs the converter's main() in a forked child (a fresh interpreter
        per input with --subprocess): its exit status and stderr."""
        if self.args.subprocess:
            p = subprocess.run([sys.executable, self.args.converter, snap, out],
                               capture_output=True)
            return p.returncode, p.stderr.decode(errors="replace")
        err_path = os.path.join(self.tmp, "stderr")
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                os.dup2(fd, 2)
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, 1)
                sys.argv = [self.args.converter, snap, out]
                code = self.converter.main() or 0
            except SystemExit as e:  # as the interpreter handles it
                if e.code is None or isinstance(e.code, int):
                    code = e.code or 0
                else:
                    print(e.code, file=sys.stderr)
                    code = 1
            except BaseException:
                import traceback
                traceback.print_exc()
                code = 1
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code if isinstance(code, int) else 1)
        _, status = os.waitpid(pid, 0)
        rc = os.waitstatus_to_exitcode(status)
        with open(err_path, "rb") as f:
            return rc, f.read().decode(errors="replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--replay", required=True, help="the cachemalloc-replay binary")
    ap.add_argument("--converter", required=True, help="scripts/snapshot_to_trace.py")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first iteration number")
    ap.add_argument("--only", choices=("replay", "convert"))
    ap.add_argument("--save", help="directory for the failing inputs")
    ap.add_argument("--subprocess", action="store_true",
                    help="run the converter in a fresh interpreter each time (slower)")
    args = ap.parse_args()
    fz = Fuzz(args)
    try:
        for i in range(args.start, args.start + args.iterations):
            rng = random.Random(f"{args.seed}:{i}")
            tool = args.only or ("replay" if i % 2 == 0 else "convert")
            if tool == "replay":
                data = trace_seed(rng)
                if rng.random() < 0.9:
                    data = mutate_bytes(rng, data)
                fz.check_replay(i, data, gz=rng.random() < 0.15)
            else:
                if rng.random() < 0.3:
                    data = snapshot_generated(rng)
                else:
                    data = pickle.dumps(snapshot_seed(rng), protocol=rng.randint(0, 5))
                    if rng.random() < 0.9:
                        data = mutate_bytes(rng, data, pickle_ops=True)
                fz.check_convert(i, data)
    finally:
        import shutil
        shutil.rmtree(fz.tmp, ignore_errors=True)
    exits = ", ".join(f"{t} exit {rc}: {n}" for (t, rc), n in sorted(fz.exits.items()))
    print(f"{'ok' if not fz.failures else 'FAILED'}: {args.iterations} iterations "
          f"(seed {args.seed}, from {args.start}): {fz.runs['replay']} replays, "
          f"{fz.runs['convert']} conversions; {exits}; {fz.failures} failure(s)")
    return 1 if fz.failures else 0


if __name__ == "__main__":
    sys.exit(main())
