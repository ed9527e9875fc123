#!/usr/bin/env python3
"""check_neighbours.py - the library among other interposers (issue 15).

    check_neighbours.py LIB SHIM VGPU PROG PROG_DEFINE SCENARIO

Runs one scenario of prog_neighbour.c twice: with its neighbours only
(LD_PRELOAD=before:after, no library: the reference) and with the library
between them (before:LIB:after). Both must exit 0 with the same output (a
recursion exits 3 or crashes); where the scenario says so, the library's
statistics (stats:exit-json) must count the program's 64 allocations:
they reached the cache.
"""
import json
import os
import subprocess
import sys
import tempfile

LIB, SHIM, VGPU, PROG, PROG_DEFINE, SCENARIO = sys.argv[1:7]
ROUNDS = 64

# name: (program, mode, preloaded before the library, after it, cached)
SCENARIOS = {
    'plain-linked': (PROG, 'linked', [], [], True),
    'plain-handle': (PROG, 'handle', [], [], True),
    'plain-procaddr': (PROG, 'procaddr', [], [], True),
    'define-rtld-next': (PROG_DEFINE, 'rtld-next', [], [], True),
    'define-handle': (PROG_DEFINE, 'handle', [], [], True),
    'define-procaddr': (PROG_DEFINE, 'procaddr', [], [], True),
    'shim-before': (PROG, 'linked', [SHIM], [], True),
    'shim-after': (PROG, 'linked', [], [SHIM], True),
    'shim-after-define': (PROG_DEFINE, 'rtld-next', [], [SHIM], True),
    'vgpu-after-linked': (PROG, 'linked', [], [VGPU], True),
    'vgpu-after-handle': (PROG, 'handle', [], [VGPU], True),
    'vgpu-after-procaddr': (PROG, 'procaddr', [], [VGPU], True),
    # The interposer first: its hooks call the driver's functions, found
    # with glibc's dlsym (dlvsym skips the library's, which is versioned),
    # and the driver-level allocations bypass the cache.
    'vgpu-before-linked': (PROG, 'linked', [VGPU], [], False),
    'vgpu-before-handle': (PROG, 'handle', [VGPU], [], False),
    'vgpu-before-procaddr': (PROG, 'procaddr', [VGPU], [], False),
}

prog, mode, before, after, cached = SCENARIOS[SCENARIO]
failures = []


def run(preload, conf=None):
    env = dict(os.environ)
    env.pop('CACHEMALLOC_CONF', None)
    env['LD_PRELOAD'] = ':'.join(preload)
    env['ASAN_OPTIONS'] = env.get('ASAN_OPTIONS', '') + ':verify_asan_link_order=0'
    if conf:
        env['CACHEMALLOC_CONF'] = conf
    return subprocess.run([prog, mode], env=env, capture_output=True, text=True, timeout=60)


ref = run(before + after)
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, 'stats.json')
    got = run(before + [LIB] + after, 'stats:exit-json:' + path)
    stats = json.load(open(path)) if os.path.exists(path) else None
for name, p in (('without the library', ref), ('with the library', got)):
    if p.returncode != 0:
        failures.append('%s: exit status %d\n%s%s' % (name, p.returncode, p.stdout, p.stderr))
if ref.returncode == 0 and got.returncode == 0 and ref.stdout != got.stdout:
    failures.append('the output differs:\n--- without the library\n%s--- with it\n%s'
                    % (ref.stdout, got.stdout))
if cached and got.returncode == 0:
    calls = stats.get('alloc_calls') if stats else None
    if calls is None or calls < ROUNDS:
        failures.append('expected the library to serve the %d allocations (alloc_calls >= %d), '
                        'statistics: %s' % (ROUNDS, ROUNDS, stats))
# After the library, the interposer's dlsym is the next one, but the
# library's driver functions are the driver's own (glibc's dlsym on
# libcuda.so.1's handle): its hooks are never called.
if VGPU in after and got.returncode == 0 and 'nb_vgpu: 0 hook calls' not in got.stderr:
    failures.append('expected no call of the interposer after the library, got: %s'
                    % got.stderr.strip())
for f in failures:
    print('FAIL %s: %s' % (SCENARIO, f))
if not failures:
    print('%s: ok (%s)' % (SCENARIO, ref.stdout.strip().splitlines()[-2] if ref.stdout else ''))
sys.exit(1 if failures else 0)
