#!/usr/bin/env python3
"""Output files that survive a fork and a full disk (issue 36).

usage: check_outfiles.py PROG_FORK LIBRARY REPLAY

fork: prog_fork child-exit logs under log:PATH; its child calls exit(),
  which flushes stdio's buffers. The log must hold each event once (no line
  twice: the child must not write the parent's buffered lines again), as
  many events as the statistics count, and replay.
full disk: the same program under a file size limit (RLIMIT_FSIZE, SIGXFSZ
  ignored: writes past it fail with EFBIG, as on a full disk). The log must
  end with a whole line, every line whole, and replay up to there; the
  failure is told once on stderr. The statistics JSON, larger than the
  limit, must not be left empty or cut: absent, with one line on stderr.
a bystander: a process that used no device (/bin/true, preloaded with the
  same configuration) leaves the program's statistics at that path as they
  are, and writes its own only where none is (issue 34: one writer).
"""
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile

failures = 0


def check(ok, what, detail=""):
    global failures
    print(("ok: " if ok else "FAIL: ") + what + ("" if ok else f"\n    {detail[-2000:]}"))
    failures += not ok


def run(prog, lib, conf, limit=None, args=("child-exit",)):
    env = dict(os.environ, LD_PRELOAD=lib, CACHEMALLOC_CONF=conf)
    # Under AddressSanitizer the preloaded library comes before libasan.
    env["ASAN_OPTIONS"] = (os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0").lstrip(":")

    def pre():
        if limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run([prog, *args], env=env, preexec_fn=pre, capture_output=True,
                          text=True, timeout=120)


def replay(replay_exe, path):
    r = subprocess.run([replay_exe, path, "--json"], capture_output=True, text=True, timeout=60)
    try:
        rep = json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        rep = {}
    return r, rep


def bystander(prog, lib, d):
    stats = f"{d}/shared.json"
    run(prog, lib, f"stats:exit-json:{stats}")
    with open(stats) as f:
        before = f.read()
    p = run("/bin/true", lib, f"stats:exit-json:{stats}", args=())
    with open(stats) as f:
        after = f.read()
    check(p.returncode == 0 and after == before and json.loads(after)["device_used"],
          "a process that used no device leaves the program's statistics as they are", after)
    os.unlink(stats)
    p = run("/bin/true", lib, f"stats:exit-json:{stats}", args=())
    with open(stats) as f:
        mine = json.load(f)
    check(not mine["device_used"] and not [n for n in os.listdir(d) if "shared.json." in n],
          "where none is, it writes its own, whole, and no temporary file stays", str(mine))


def main():
    prog, lib, replay_exe = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as d:
        log, stats = f"{d}/fork.csv", f"{d}/fork.json"
        p = run(prog, lib, f"log:{log},stats:exit-json:{stats}")
        check(p.returncode == 0, "prog_fork child-exit under log: exits 0", p.stdout + p.stderr)
        with open(log) as f:
            lines = f.read().splitlines()
        events = lines[1:]
        dups = len(events) - len(set(events))
        with open(stats) as f:
            st = json.load(f)
        want = st["alloc_calls"] + st["free_calls"]
        check(dups == 0, f"fork: no event line twice ({dups} repeated of {len(events)})")
        check(len(events) == want,
              f"fork: {len(events)} events logged, the statistics count {want}")
        r, rep = replay(replay_exe, log)
        check(r.returncode == 0 and rep.get("ops") == len(events),
              f"fork: the log replays ({rep.get('ops')} operations)", r.stdout + r.stderr)

        log, stats = f"{d}/full.csv", f"{d}/full.json"
        limit = 900  # a header and some lines, then a line cut; less than the JSON
        p = run(prog, lib, f"log:{log},stats:exit-json:{stats}", limit)
        check(p.returncode == 0, "full disk: the program exits 0", p.stdout + p.stderr)
        with open(log, "rb") as f:
            data = f.read()
        text = data.decode(errors="replace")
        rows = text.splitlines()
        check(0 < len(data) <= limit and data.endswith(b"\n"),
              f"full disk: the log ends with a whole line ({len(data)} bytes, limit {limit})",
              repr(data[-200:]))
        check(all(len(r.split(",")) == 7 for r in rows),
              "full disk: every line of the log has its seven fields", text[-500:])
        told = [l for l in p.stderr.splitlines() if "log:" in l and "failed" in l]
        check(len(told) == 1, "full disk: the log's failure told once on stderr", p.stderr)
        r, rep = replay(replay_exe, log)
        check(r.returncode == 0 and rep.get("ops") == len(rows) - 1,
              f"full disk: the cut log replays up to its last line ({rep.get('ops')} "
              f"operations of {len(rows) - 1})", r.stdout + r.stderr)
        ok = not os.path.exists(stats)
        if not ok:
            with open(stats) as f:
                body = f.read()
            try:
                ok = bool(json.loads(body))
            except ValueError:
                pass
        check(ok, "full disk: no empty or cut statistics JSON left",
              open(stats).read() if os.path.exists(stats) else "")
        check(any("cannot write statistics to" in l for l in p.stderr.splitlines()),
              "full disk: the statistics' failure told on stderr", p.stderr)
        bystander(prog, lib, d)
    print(f"check_outfiles: {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
