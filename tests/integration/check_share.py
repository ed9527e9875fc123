#!/usr/bin/env python3
"""check_share.py - processes sharing one device (issue 33).

    check_share.py LIB PROG TOP_PY FAKECUDA_DIR SCENARIO

Each scenario starts prog_share.c processes on one simulated device
shared through FAKECUDA_SHARED (a name of this run), 512 MiB, with the
library preloaded, and reads the registry with top.py. Prints its figures.
"""
import importlib.util
import os
import signal
import subprocess
import sys
import time
import uuid

LIB, PROG, TOP_PY, FAKEDIR, SCENARIO = sys.argv[1:6]
spec = importlib.util.spec_from_file_location("top", TOP_PY)
top = importlib.util.module_from_spec(spec)
spec.loader.exec_module(top)

NAME = f"check-share-{SCENARIO}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
BASE = dict(os.environ, FAKECUDA_SHARED=NAME, CACHEMALLOC_SIM_MEMORY="512M",
            LD_PRELOAD=LIB, LD_LIBRARY_PATH=FAKEDIR,
            # under AddressSanitizer the preloaded library comes before libasan; a
            # forked child's leak check at exit can wait forever on an allocator
            # lock another thread held at the fork (LeakSanitizer's own limit)
            ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0" +
            (":detect_leaks=0" if SCENARIO == "fork" else ""))
BASE.pop("CACHEMALLOC_CONF", None)
failures = []


def fail(msg):
    print("FAIL", msg, flush=True)
    failures.append(msg)


def env(conf=None):
    e = dict(BASE)
    if conf:
        e["CACHEMALLOC_CONF"] = conf
    return e


def start(mode, conf=None, *extra):
    p = subprocess.Popen([PROG, mode, *extra], env=env(conf), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    return p


def wait_ready(p, what="ready"):
    line = p.stdout.readline().strip()
    if not line.startswith(what):
        fail(f"pid {p.pid}: expected {what!r}, got {line!r}")
    return line


def ask(conf=None, timeout=30):
    r = subprocess.run([PROG, "ask"], env=env(conf), capture_output=True, text=True,
                       timeout=timeout)
    print(f"  ask ({conf or 'default'}): exit {r.returncode}: {r.stdout.strip()}", flush=True)
    return r


def entry(pid):
    for e in top.snapshot():
        if e["pid"] == pid:
            return e
    return None


def finish(p, lines=1):
    try:
        for _ in range(lines):
            p.stdin.write("go\n")
            p.stdin.flush()
        p.stdin.close()
    except BrokenPipeError:
        pass
    out = p.stdout.read()
    rc = p.wait(timeout=30)
    if rc != 0:
        fail(f"pid {p.pid} ({p.args[1]}) exit {rc}: {out.strip()}")
    return out


def holder_and_ask(mode, conf, expect_ok):
    a = start(mode)
    wait_ready(a)
    before = entry(a.pid)
    if not before:
        fail(f"the holder {a.pid} is not in the registry")
    else:
        print(f"  holder {a.pid}: idle {before['idle_bytes'] >> 20} MiB, "
              f"reserved {before['reserved_bytes'] >> 20} MiB", flush=True)
    r = ask(conf)
    if (r.returncode == 0) != expect_ok:
        fail(f"the request {'failed' if expect_ok else 'was served'} ({conf}): {r.stdout.strip()}")
    after = entry(a.pid)
    if before and after:
        print(f"  holder after: idle {after['idle_bytes'] >> 20} MiB, given back "
              f"{after['given_back_bytes'] >> 20} MiB", flush=True)
        if expect_ok and after["idle_bytes"] >= before["idle_bytes"]:
            fail("the holder's idle memory did not drop")
        if expect_ok and not after["given_back_bytes"]:
            fail("the holder gave nothing back")
    finish(a)


if SCENARIO == "off":
    holder_and_ask("hold", "share:off", False)
elif SCENARIO == "on":
    holder_and_ask("hold", None, True)
elif SCENARIO == "busy":
    holder_and_ask("busy", None, True)
elif SCENARIO == "fork":
    holder_and_ask("fork", None, True)
elif SCENARIO == "dead":
    a = start("hold-live")
    wait_ready(a)
    if not entry(a.pid):
        fail("the holder is not in the registry")
    a.send_signal(signal.SIGKILL)
    a.wait()
    r = ask()
    if r.returncode != 0:
        fail(f"the request failed beside a dead holder: {r.stdout.strip()}")
    if entry(a.pid):
        fail("the dead holder is still listed")
elif SCENARIO == "exec":
    # The slot of the image before exec (same pid and start time) is taken back when the
    # new image joins: one entry for the pid, and a neighbour is still served.
    a = start("exec")
    wait_ready(a)
    entries = [e for e in top.snapshot() if e["pid"] == a.pid]
    print(f"  entries of pid {a.pid} after exec: {len(entries)}", flush=True)
    if len(entries) != 1:
        fail(f"after exec, {len(entries)} registry entries for pid {a.pid}")
    r = ask()
    if r.returncode != 0:
        fail(f"the request failed beside an exec'd holder: {r.stdout.strip()}")
    finish(a)
elif SCENARIO == "latency":
    a = start("hold-live")
    wait_ready(a)
    b = subprocess.Popen([PROG, "ask"], env=env("share_wait_ms:5000"), stdout=subprocess.PIPE,
                         text=True)
    time.sleep(0.3)  # b waits: nothing idle anywhere
    a.stdin.write("free\n")
    a.stdin.flush()
    freed = float(wait_ready(a, "freed").split()[1])
    out = b.stdout.read().strip()
    rc = b.wait(timeout=30)
    print(f"  ask: {out}", flush=True)
    if rc != 0:
        fail(f"the waiting request failed: {out}")
    else:
        resumed = float(out.split()[1])
        print(f"  resumed {resumed - freed:.1f} ms after the neighbour's free", flush=True)
        if resumed - freed > 100:
            fail(f"resumed {resumed - freed:.1f} ms after the neighbour's free (over 100 ms)")
    finish(a)
elif SCENARIO == "many":
    n = 12
    t0 = time.monotonic()
    procs = [start("many", None, "5") for _ in range(n)]
    for p in procs:
        p.stdin.close()
        out = p.stdout.read()
        if p.wait(timeout=60) != 0:
            fail(f"pid {p.pid}: {out.strip()}")
    print(f"  {n} processes, 5 rounds of 1/6 of the device each: {time.monotonic() - t0:.2f} s",
          flush=True)
elif SCENARIO == "top-trim":
    # cachemalloc top --once --json lists the holder; cachemalloc trim PID empties its cache
    # (all but the 20 MiB segment of its live 4 MiB block: under 32 MiB idle).
    a = start("hold")
    wait_ready(a)
    r = subprocess.run([sys.executable, TOP_PY, "top", "--once", "--json"], capture_output=True,
                       text=True, timeout=30)
    import json
    try:
        rows = json.loads(r.stdout)
    except ValueError:
        rows = []
        fail(f"top --once --json: {r.stdout!r} {r.stderr!r}")
    mine = [e for e in rows if e.get("pid") == a.pid]
    keys = {"pid", "device", "reserved_bytes", "allocated_bytes", "idle_bytes"}
    if len(mine) != 1 or not keys <= set(mine[0]) or mine[0]["idle_bytes"] < 300 << 20:
        fail(f"top --once --json: the holder with its idle memory: {mine}")
    r = subprocess.run([sys.executable, TOP_PY, "trim", str(a.pid)], capture_output=True, text=True,
                       timeout=30)
    print(f"  trim: {r.stdout.strip()} {r.stderr.strip()}", flush=True)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        e = entry(a.pid)
        if e and e["idle_bytes"] < 32 << 20:
            break
        time.sleep(0.02)
    print(f"  after trim: idle {e and e['idle_bytes']} bytes, reserved {e and e['reserved_bytes']}",
          flush=True)
    if not e or e["idle_bytes"] >= 32 << 20:
        fail(f"trim: the holder's idle memory stayed: {e}")
    finish(a)
elif SCENARIO == "idle-release":
    a = subprocess.Popen([PROG, "hold"], env=env("idle_release_s:1"), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    wait_ready(a)
    t0 = time.monotonic()
    e = entry(a.pid)
    while time.monotonic() - t0 < 5 and e and e["idle_bytes"] >= 32 << 20:
        time.sleep(0.05)
        e = entry(a.pid)
    print(f"  idle after {time.monotonic() - t0:.2f} s: {e and e['idle_bytes']} bytes", flush=True)
    if not e or e["idle_bytes"] >= 32 << 20:
        fail(f"idle_release_s:1: the idle memory stayed: {e}")
    finish(a)
elif SCENARIO == "nocuda":
    # One thread, no registry mapped (prog_share looks at its own /proc/self).
    r = subprocess.run([PROG, "nocuda"], env=env(), capture_output=True, text=True, timeout=30)
    print(f"  {r.stdout.strip()}", flush=True)
    if r.stdout.strip() != "threads 1 mapped 0 library-threads 0":
        fail(f"a program that never uses CUDA: {r.stdout.strip()}")
    # share:off: no registry, no thread of the library's; share on: the
    # registry and its listener, cm-share (ThreadSanitizer adds a thread of
    # its own once a thread exists: the library's are counted by name).
    off = subprocess.run([PROG, "used"], env=env("share:off"), capture_output=True, text=True,
                         timeout=30).stdout.split()
    on = subprocess.run([PROG, "used"], env=env(), capture_output=True, text=True,
                        timeout=30).stdout.split()
    print(f"  after an allocation: share:off {' '.join(off)}; share:on {' '.join(on)}", flush=True)
    if len(off) != 6 or len(on) != 6 or off[3] != "0" or on[3] != "1" or \
            off[5] != "0" or on[5] != "1":
        fail(f"share:off {off} against share:on {on}: no registry and no thread under share:off")
else:
    fail(f"unknown scenario {SCENARIO}")

shm = f"/dev/shm/fakecuda-{NAME}"
if os.path.exists(shm):
    os.unlink(shm)
sys.exit(1 if failures else 0)
