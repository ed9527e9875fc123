#!/usr/bin/env python3
"""scripts/gpu/peer_suites.py - numba-cuda's own tests, plain and under the
library in each mode (issue 32, item 4).

Runs the modules named by --modules (default: numba-cuda's driver tests,
numba.cuda.tests.cudadrv, whose memory, deallocation, pinned, event,
stream and context tests allocate most, and the kernel tests on IPC and
arrays) once per configuration in a fresh process, each test's outcome
written as JSON; then prints `peer CONFIG: P passed, F failed, S skipped`
per configuration and one line per test that passes plain and does not
under the library: `peer-diff CONFIG TEST OUTCOME: first line of the error`.

usage: peer_suites.py --lib build-gpu/interpose/libcachemalloc.so [--out DIR]
                      [--configs plain,lib,lib_exp,lib_host] [--timeout 240]
"""
import argparse
import json
import os
import subprocess
import sys
import unittest

MODULES = ("numba.cuda.tests.cudadrv,numba.cuda.tests.cudapy.test_ipc,"
           "numba.cuda.tests.cudapy.test_array,numba.cuda.tests.cudapy.test_cuda_array_interface")
CONFIGS = {"plain": None, "lib": "", "lib_exp": "expandable_segments:True",
           "lib_host": "free_fence:host"}


class Recorder(unittest.TextTestResult):
    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.outcomes = {}

    def _put(self, test, outcome, err=None):
        line = ""
        if err is not None:
            text = self._exc_info_to_string(err, test).strip().splitlines()
            line = text[-1] if text else ""
        self.outcomes[test.id()] = [outcome, line[:200]]

    def addSuccess(self, test):
        super().addSuccess(test)
        self._put(test, "pass")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._put(test, "fail", err)

    def addError(self, test, err):
        super().addError(test, err)
        self._put(test, "error", err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.outcomes[test.id()] = ["skip", str(reason)[:200]]

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._put(test, "pass")


def stand_in_filecheck():
    """numba.cuda.testing imports FileCheck (a test dependency the GPU machine
    lacks, with no network to install it) for its FileCheck assertions only:
    names that raise when used stand in, so that every other test runs; a
    test that uses FileCheck fails plain and under the library alike."""
    import types
    try:
        import filecheck  # noqa: F401
        return
    except ImportError:
        pass

    class Missing:
        def __init__(self, *args, **kw):
            raise RuntimeError("filecheck is not installed")

    for name, attrs in (("filecheck", ()), ("filecheck.matcher", ("Matcher",)),
                        ("filecheck.options", ("Options",)),
                        ("filecheck.parser", ("Parser", "pattern_for_opts")),
                        ("filecheck.finput", ("FInput",))):
        mod = sys.modules[name] = types.ModuleType(name)
        for attr in attrs:
            setattr(mod, attr, Missing)


def child(modules, result_path):
    stand_in_filecheck()
    suite = unittest.TestSuite()
    for name in modules.split(","):
        suite.addTests(unittest.defaultTestLoader.loadTestsFromName(name))
    runner = unittest.TextTestRunner(resultclass=Recorder, verbosity=0, stream=sys.stderr)
    res = runner.run(suite)
    with open(result_path, "w") as f:
        json.dump(res.outcomes, f)


def run(a, config):
    env = dict(os.environ)
    for k in ("LD_PRELOAD", "CACHEMALLOC_CONF"):
        env.pop(k, None)
    if CONFIGS[config] is not None:
        env["LD_PRELOAD"] = os.path.abspath(a.lib)
        stats = f"stats:exit-json:{os.path.abspath(a.out)}/peer_{config}_stats_%p.json"
        env["CACHEMALLOC_CONF"] = ",".join(x for x in (CONFIGS[config], stats) if x)
    path = os.path.join(a.out, f"peer_{config}.json")
    log = os.path.join(a.out, f"peer_{config}.log")
    try:
        with open(log, "w") as f:
            subprocess.run([sys.executable, os.path.abspath(__file__), "--child", a.modules,
                            "--result", path], env=env, stdout=f, stderr=f, timeout=a.timeout)
    except subprocess.TimeoutExpired:
        print(f"peer {config}: timed out after {a.timeout} s", flush=True)
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def served(out, config):
    """What the library served in a configuration's processes (its
    exit reports): proof that it was there."""
    calls = hits = procs = 0
    for name in os.listdir(out):
        if name.startswith(f"peer_{config}_stats_"):
            with open(os.path.join(out, name)) as f:
                st = json.load(f)
            procs, calls, hits = procs + 1, calls + st["alloc_calls"], hits + st["cache_hits"]
    return f"; the library in {procs} processes: {calls} allocations, {hits} from its cache" \
        if procs else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lib", default="build-gpu/interpose/libcachemalloc.so")
    ap.add_argument("--modules", default=MODULES)
    ap.add_argument("--configs", default="plain,lib,lib_exp,lib_host")
    ap.add_argument("--timeout", type=int, default=240)
    ap.add_argument("--out", default="/tmp")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--result", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        return child(a.child, a.result)
    results = {}
    for config in a.configs.split(","):
        res = results[config] = run(a, config)
        if res is None:
            print(f"peer {config}: no result (crashed or timed out; see peer_{config}.log)")
            continue
        count = {k: sum(v[0] == k for v in res.values()) for k in ("pass", "fail", "error", "skip")}
        print(f"peer {config}: {count['pass']} passed, {count['fail'] + count['error']} failed, "
              f"{count['skip']} skipped{served(a.out, config)}", flush=True)
    plain = results.get("plain") or {}
    for config, res in results.items():
        if config == "plain" or res is None:
            continue
        for test, (outcome, why) in sorted(plain.items()):
            got = res.get(test, ["missing", ""])
            if outcome == "pass" and got[0] != "pass":
                print(f"peer-diff {config} {test} {got[0]}: {got[1]}")


if __name__ == "__main__":
    main()
