#!/usr/bin/env python3
"""Generate the driver API's submission hooks from cuda.h.

Reads cuda.h through the C preprocessor three times (plain; with
CUDA_API_PER_THREAD_DEFAULT_STREAM, which names the _ptsz/_ptds exports; with
__CUDA_API_VERSION_INTERNAL, which declares the older ABIs the driver still
exports, such as cuMemcpyHtoD v1), collects every `CUresult name(params);`,
classifies each function that touches a stream and writes

    interpose/submit_hooks.c    one wrapper per SUBMIT export and the table
    interpose/submit_hooks.map  the wrappers' names, `name;` a line

docs/design.md, "Seeing every submission", gives the rules. A function that
takes a stream (or a struct carrying one, or has a _ptsz/_ptds variant) and
is neither SUBMIT, reviewed (interpose/submit_reviewed.txt) nor HAND_HOOKED
makes the script fail. So does an export of a hand-hooked name (one
exported by interpose/cachemalloc.map, every ABI version and _ptsz variant
of it: cuStreamBeginCapture, _ptsz, _v2, _v2_ptsz) without a hand-written
hook, exported and in a lookup table (CM_HOOK... entries in interpose/).

    scripts/gen_submit_hooks.py [--cuda-include DIR] [--cc CC]   regenerate
    scripts/gen_submit_hooks.py --check ...                      compare only
    scripts/gen_submit_hooks.py --merge-map HAND LIST OUT        one version script
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_C = 'interpose/submit_hooks.c'
OUT_MAP = 'interpose/submit_hooks.map'
REVIEWED = 'interpose/submit_reviewed.txt'
HAND_MAP = 'interpose/cachemalloc.map'
# Hooked by the lookup wrappers themselves (interpose/lookup.c), not by a
# table entry.
LOOKUP_HOOKS = {'cuGetProcAddress', 'cuGetProcAddress_v2'}

RUNS = [
    ('plain', []),
    ('per-thread', ['-DCUDA_API_PER_THREAD_DEFAULT_STREAM']),
    ('internal', ['-D__CUDA_API_VERSION_INTERNAL']),
]

# Hooked by hand (interpose/, beside the runtime hooks): every export whose
# cuGetProcAddress name is here is covered there, and its hook calls
# cm_lib_submit itself where it queues work. Not defined in submit_hooks.c.
HAND_HOOKED = {
    'cuMemAllocAsync': 'stream-ordered allocation: the cache serves it',
    'cuMemFreeAsync': 'stream-ordered free: the cache takes it',
    'cuStreamSynchronize': 'proves the stream idle',
    'cuStreamCreate': 'stream creation',
    'cuStreamCreateWithPriority': 'stream creation',
    'cuStreamDestroy': 'stream destruction',
    'cuStreamBeginCapture': 'capture begin: counts active captures',
    'cuStreamBeginCaptureToGraph': 'capture begin: counts active captures',
    'cuStreamEndCapture': 'capture end: counts active captures',
}

# Functions that queue work on their stream argument (a CUstream parameter,
# or a const CUlaunchConfig * whose hStream is the stream), or make it wait,
# by cuGetProcAddress name: every export of each is wrapped.
SUBMIT = {
    # kernels and host functions
    'cuLaunchKernel', 'cuLaunchKernelEx', 'cuLaunchCooperativeKernel', 'cuLaunchGridAsync',
    'cuLaunchHostFunc', 'cuStreamAddCallback',
    # graphs
    'cuGraphLaunch', 'cuGraphUpload',
    # copies and sets
    'cuMemcpyAsync', 'cuMemcpyPeerAsync', 'cuMemcpy3DPeerAsync', 'cuMemcpyHtoDAsync',
    'cuMemcpyDtoHAsync', 'cuMemcpyDtoDAsync', 'cuMemcpyHtoAAsync', 'cuMemcpyAtoHAsync',
    'cuMemcpy2DAsync', 'cuMemcpy3DAsync', 'cuMemcpyBatchAsync', 'cuMemcpy3DBatchAsync',
    'cuMemsetD8Async', 'cuMemsetD16Async', 'cuMemsetD32Async', 'cuMemsetD2D8Async',
    'cuMemsetD2D16Async', 'cuMemsetD2D32Async', 'cuMemBatchDecompressAsync',
    # events, waits, memory operations on the stream
    'cuEventRecord', 'cuEventRecordWithFlags', 'cuStreamWaitEvent', 'cuStreamWaitValue32',
    'cuStreamWaitValue64', 'cuStreamWriteValue32', 'cuStreamWriteValue64', 'cuStreamBatchMemOp',
    'cuSignalExternalSemaphoresAsync', 'cuWaitExternalSemaphoresAsync',
    # stream-ordered memory management
    'cuMemAllocFromPoolAsync', 'cuMemMapArrayAsync', 'cuMemPrefetchAsync',
    'cuMemPrefetchBatchAsync', 'cuMemDiscardBatchAsync', 'cuMemDiscardAndPrefetchBatchAsync',
    'cuStreamAttachMemAsync',
    # graphics interop: stream-ordered with the graphics API's work
    'cuGraphicsMapResources', 'cuGraphicsUnmapResources',
}

# Functions that use the legacy NULL stream implicitly and have no _ptds
# variant (those that have one are found from it).
LEGACY_NULL_STREAM = {'cuLaunch', 'cuLaunchGrid'}


def special_graph_instantiate(fn):
    """cuGraphInstantiateWithParams: uploads on hUploadStream only with
    CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD (the field is not read otherwise)."""
    p = param_of_type(fn, 'CUDA_GRAPH_INSTANTIATE_PARAMS *')
    return ('if ({p} && ({p}->flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD))\n'
            '\t\tcm_lib_submit({p}->hUploadStream, {z});'
            .format(p=p, z=c_bool(fn.ptsz)))


def special_multi_device(fn):
    """cuLaunchCooperativeKernelMultiDevice: one launch per list entry."""
    p = param_of_type(fn, 'CUDA_LAUNCH_PARAMS *')
    n = param_of_type(fn, 'unsigned int', first=True)
    return ('for (unsigned int cm_i = 0; {p} && cm_i < {n}; cm_i++)\n'
            '\t\tcm_lib_submit({p}[cm_i].hStream, {z});'
            .format(p=p, n=n, z=c_bool(fn.ptsz)))


# SUBMIT functions whose stream is inside a struct other than CUlaunchConfig:
# cuGetProcAddress name -> the statement(s) before the driver's call.
SPECIAL = {
    'cuGraphInstantiateWithParams': special_graph_instantiate,
    'cuLaunchCooperativeKernelMultiDevice': special_multi_device,
}


class Fail(Exception):
    pass


def c_bool(b):
    return 'true' if b else 'false'


# ---- reading cuda.h ----

def preprocess(cc, inc, defines):
    cmd = shlex.split(cc) + ['-E', '-I' + inc] + defines + ['-x', 'c', '-']
    r = subprocess.run(cmd, input='#include <cuda.h>\n', capture_output=True, text=True)
    if r.returncode != 0:
        raise Fail('%s failed:\n%s' % (' '.join(cmd), r.stderr))
    # Keep only what comes from cuda.h itself, not from the system headers.
    keep, out = False, []
    for line in r.stdout.splitlines():
        m = re.match(r'#\s*\d+\s+"([^"]*)"', line)
        if m:
            keep = os.path.basename(m.group(1)) == 'cuda.h'
            continue
        if keep and not line.startswith('#'):
            out.append(line)
    return '\n'.join(out)


def cuda_version(cc, inc):
    cmd = shlex.split(cc) + ['-E', '-dM', '-I' + inc, '-x', 'c', '-']
    r = subprocess.run(cmd, input='#include <cuda.h>\n', capture_output=True, text=True)
    m = re.search(r'^#define CUDA_VERSION (\d+)', r.stdout, re.M)
    if r.returncode != 0 or not m:
        raise Fail('cannot read CUDA_VERSION from cuda.h under ' + inc)
    return int(m.group(1))


def chunks(text):
    """Top-level declarations, each without its ';'. Function definitions
    (static inline ones) are dropped."""
    out, cur, depth, i, n = [], [], 0, 0, len(text)
    while i < n:
        c = text[i]
        if c in '({[':
            if c == '{' and depth == 0 and ''.join(cur).rstrip().endswith(')'):
                # a function body: skip it and its head
                d = 0
                while i < n:
                    d += {'{': 1, '}': -1}.get(text[i], 0)
                    i += 1
                    if d == 0:
                        break
                cur = []
                continue
            depth += 1
        elif c in ')}]':
            depth -= 1
        if c == ';' and depth == 0:
            out.append(' '.join(''.join(cur).split()))
            cur = []
        else:
            cur.append(c)
        i += 1
    return out


def strip_attributes(s):
    while True:
        m = re.search(r'__attribute__\s*\(\(', s)
        if not m:
            return s
        i, d = m.end() - 2, 0
        for j in range(i, len(s)):
            d += {'(': 1, ')': -1}.get(s[j], 0)
            if d == 0:
                break
        s = s[:m.start()] + s[j + 1:]


def split_top(s, sep=','):
    parts, cur, d = [], [], 0
    for c in s:
        if c in '([{':
            d += 1
        elif c in ')]}':
            d -= 1
        if c == sep and d == 0:
            parts.append(''.join(cur).strip())
            cur = []
        else:
            cur.append(c)
    if ''.join(cur).strip():
        parts.append(''.join(cur).strip())
    return parts


IDENT = re.compile(r'[A-Za-z_]\w*')
C_WORDS = {'const', 'volatile', 'restrict', 'struct', 'union', 'enum', 'unsigned', 'signed',
           'int', 'char', 'short', 'long', 'float', 'double', 'void', '_Bool'}


class Param:
    def __init__(self, text, typenames):
        self.text = text
        m = re.search(r'\(\s*\*\s*(\w+)\s*\)', text)  # function pointer
        if m:
            self.name = m.group(1)
            self.type = text[:m.start(1)] + text[m.end(1):]
        else:
            ids = [(x.group(0), x.start(), x.end()) for x in IDENT.finditer(text)]
            if not ids:
                raise Fail('cannot parse parameter ' + text)
            last = ids[-1]
            if len(ids) == 1 or last[0] in C_WORDS or last[0] in typenames:
                raise Fail('unnamed parameter "%s": the generator needs names' % text)
            self.name = last[0]
            self.type = text[:last[1]] + text[last[2]:]
        self.type = ' '.join(self.type.replace('*', ' * ').split()).replace('* *', '**')
        self.idents = set(IDENT.findall(self.type))


class Function:
    def __init__(self, name, params_text, typenames):
        self.name = name
        self.params_text = params_text
        if params_text.strip() in ('', 'void'):
            self.params = []
        else:
            self.params = [Param(p, typenames) for p in split_top(params_text)]
        self.variadic = '...' in params_text
        self.ptsz = name.endswith('_ptsz') or name.endswith('_ptds')
        self.lookup = lookup_name(name)
        self.cls = None    # 'stream', 'config', 'implicit', 'special', 'reviewed', 'hand'
        self.stream = None

    def signature(self):
        return tuple(p.type for p in self.params)


def param_of_type(fn, t, first=False):
    ps = [p.name for p in fn.params if p.type == t]
    if len(ps) != 1 and not (first and ps):
        raise Fail('%s: expected one parameter of type %s' % (fn.name, t))
    return ps[0]


def lookup_name(name):
    """cuGetProcAddress's name: without _ptsz/_ptds, then without _vN."""
    base = re.sub(r'_(ptsz|ptds)$', '', name)
    return re.sub(r'_v\d+$', '', base)


def parse(text):
    decls = [strip_attributes(c).strip() for c in chunks(text)]
    typenames = set()
    for d in decls:
        if d.startswith('typedef'):
            m = re.search(r'(\w+)\s*(\[[^\]]*\])?$', d)
            if m:
                typenames.add(m.group(1))
            for m in re.finditer(r'\}\s*([^{}]*)$', d):
                typenames.update(IDENT.findall(m.group(1)))
    funcs = {}
    for d in decls:
        d = re.sub(r'^extern\s+', '', d)
        m = re.match(r'^CUresult\s+(?:__stdcall\s+)?(cu\w+)\s*\((.*)\)$', d, re.S)
        if m:
            funcs[m.group(1)] = Function(m.group(1), m.group(2).strip(), typenames)
    return decls, typenames, funcs


def stream_types(decls):
    """Type names whose values carry a CUstream: CUstream, and the structs
    with such a member (followed through typedefs). Function pointer types
    are not: a callback's stream argument is the driver's, not ours."""
    carrying = {'CUstream'}
    changed = True
    while changed:
        changed = False
        for d in decls:
            if not d.startswith('typedef') and not re.match(r'(struct|union)\s+\w+\s*\{', d):
                continue
            if '(*' in d.replace(' ', '') and '{' not in d:
                continue
            if '{' in d:
                head, rest = d.split('{', 1)
                body, _, names = rest.rpartition('}')
                tag = IDENT.findall(head)[-1:] if re.search(r'(struct|union)\s+\w+\s*$', head) else []
                carries = bool(set(IDENT.findall(body)) & carrying)
                new = set(IDENT.findall(names)) | {'struct ' + t for t in tag}
            else:
                ids = IDENT.findall(d)[1:]
                new = {ids[-1]} if ids else set()
                used = set(ids[:-1])
                m = re.search(r'\b(struct|union)\s+(\w+)', d)
                if m:
                    used.add(m.group(1) + ' ' + m.group(2))
                carries = bool(used & carrying)
            if carries and not new <= carrying:
                carrying |= new
                changed = True
    return carrying


# ---- classification ----

def read_reviewed(path):
    reviewed = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            name, _, reason = line.partition(' ')
            if not reason.strip():
                raise Fail('%s:%d: %s has no reason' % (REVIEWED, n, name))
            if name in reviewed:
                raise Fail('%s:%d: %s listed twice' % (REVIEWED, n, name))
            reviewed[name] = reason.strip()
    return reviewed


def classify(funcs, carrying, reviewed, cuda_h_text):
    errors = []
    by_lookup = {}
    for f in funcs.values():
        by_lookup.setdefault(f.lookup, []).append(f)
    implicit_lookups = {f.lookup for f in funcs.values() if f.name.endswith('_ptds')}
    ptsz_lookups = {f.lookup for f in funcs.values() if f.ptsz}
    for name in sorted(LEGACY_NULL_STREAM - set(by_lookup)):
        errors.append('LEGACY_NULL_STREAM names %s, which cuda.h no longer declares' % name)
    implicit_lookups |= LEGACY_NULL_STREAM
    for name in sorted(set(reviewed) - set(by_lookup)):
        errors.append('%s names %s, which cuda.h no longer declares' % (REVIEWED, name))
    for name in sorted(SUBMIT - set(by_lookup)):
        errors.append('SUBMIT names %s, which cuda.h no longer declares' % name)
    for name in sorted(set(HAND_HOOKED) - set(by_lookup)):
        errors.append('HAND_HOOKED names %s, which cuda.h no longer declares' % name)
    for a_, b_, x in ((reviewed, HAND_HOOKED, 'reviewed and HAND_HOOKED'),
                      (reviewed, SUBMIT, 'reviewed and SUBMIT'),
                      (reviewed, SPECIAL, 'reviewed and SPECIAL'),
                      (SUBMIT, HAND_HOOKED, 'SUBMIT and HAND_HOOKED'),
                      (SUBMIT, SPECIAL, 'SUBMIT and SPECIAL')):
        for name in sorted(set(a_) & set(b_)):
            errors.append('%s is both %s' % (name, x))

    for f in sorted(funcs.values(), key=lambda f: f.name):
        streams = [p for p in f.params if p.type in ('CUstream', 'const CUstream')]
        carries = [p for p in f.params if p.idents & carrying]
        configs = [p for p in f.params if p.type == 'const CUlaunchConfig *']
        touches = bool(carries) or f.lookup in ptsz_lookups or f.lookup in implicit_lookups
        if f.lookup in HAND_HOOKED:
            f.cls = 'hand'
        elif f.lookup in reviewed:
            if f.lookup in implicit_lookups:
                errors.append('%s: reviewed, but it uses the default stream implicitly' % f.name)
            f.cls = 'reviewed'
        elif f.lookup in SPECIAL:
            f.cls, f.stream = 'special', SPECIAL[f.lookup](f)
        elif f.lookup in SUBMIT:
            if len(streams) == 1 and len(carries) == 1:
                f.cls, f.stream = 'stream', streams[0].name
            elif len(configs) == 1 and len(carries) == 1:
                p = configs[0].name
                f.cls, f.stream = 'config', '%s ? %s->hStream : NULL' % (p, p)
            else:
                errors.append('%s(%s): in SUBMIT but has no single stream argument'
                              % (f.name, f.params_text))
                continue
        elif f.lookup in implicit_lookups and not carries:
            f.cls, f.stream = 'implicit', 'NULL'
        elif touches:
            errors.append('unclassified stream-taking function %s(%s): add %s to SUBMIT in '
                          'scripts/gen_submit_hooks.py if it queues work on a stream or makes '
                          'one wait, else to %s with the reason'
                          % (f.name, f.params_text, f.lookup, REVIEWED))
            continue
        else:
            continue
        if f.cls in ('stream', 'config', 'implicit', 'special') and f.variadic:
            f.cls = 'variadic'
        if f.cls in ('stream', 'config') and f.name.endswith('_ptds'):
            errors.append('%s: a _ptds export with a stream argument' % f.name)
        if f.cls == 'implicit' and f.name.endswith('_ptsz'):
            errors.append('%s: a _ptsz export without a stream argument' % f.name)
    for name in sorted(reviewed):
        fs = by_lookup.get(name, [])
        if fs and not any(f.cls == 'reviewed' for f in fs):
            errors.append('%s: %s lists it but nothing there takes a stream' % (name, REVIEWED))
        elif fs and not any(any(p.idents & carrying for p in f.params) or f.lookup in ptsz_lookups
                            for f in fs):
            errors.append('%s: %s lists it but it takes no stream' % (name, REVIEWED))

    # The lookup names against the header's own `#define cuX cuX_v2` lines.
    for m in re.finditer(r'^\s*#\s*define\s+(cu\w+)\s+(?:__CUDA_API_PT(?:SZ|DS)\(\s*)?(cu\w+)\s*\)?\s*$',
                         cuda_h_text, re.M):
        x, y = m.group(1), m.group(2)
        for name in (y, y + '_ptsz', y + '_ptds'):
            f = funcs.get(name)
            if f and f.cls in ('stream', 'config', 'implicit', 'special') \
                    and f.lookup != lookup_name(x):
                errors.append('%s: cuda.h defines %s as %s, but its lookup name would be %s'
                              % (name, x, y, f.lookup))
    return errors


def read_hand_hooks():
    """(exported cu* names of the hand list, names with a table entry)."""
    with open(os.path.join(ROOT, HAND_MAP)) as f:
        text = re.sub(r'/\*.*?\*/', '', f.read(), flags=re.S)
    glob = text.split('local:')[0]
    exported = set(re.findall(r'^\s*(cu(?!da)\w+)\s*;', glob, re.M))
    tables = set()
    idir = os.path.join(ROOT, 'interpose')
    for name in sorted(os.listdir(idir)):
        if name.endswith('.c') and name != os.path.basename(OUT_C):
            with open(os.path.join(idir, name)) as f:
                tables |= set(re.findall(r'\bCM_HOOK\w*\(\s*(cu\w+)\s*,', f.read()))
    return exported, tables


def check_hand_versions(funcs, exported, tables):
    """Every export of a hand-hooked cuGetProcAddress name has a hook: an
    ABI version left to the driver is a call the cache never sees (a
    capture begun through cuStreamBeginCapture, a stream destroyed through
    cuStreamDestroy)."""
    errors = []
    hand = {lookup_name(n) for n in exported} | set(HAND_HOOKED)
    for f in sorted(funcs.values(), key=lambda f: f.name):
        if f.lookup not in hand:
            continue
        if f.name not in exported:
            errors.append('%s: an ABI version of %s, which is hooked by hand, has no hook: '
                          'hook it (interpose/driver_hooks*.c) and export it in %s'
                          % (f.name, f.lookup, HAND_MAP))
        elif f.name not in tables and f.name not in LOOKUP_HOOKS:
            errors.append('%s: exported by %s but in no CM_HOOK table: dlsym and '
                          'cuGetProcAddress would give the driver\'s' % (f.name, HAND_MAP))
    for name in sorted(exported - set(funcs) - LOOKUP_HOOKS):
        errors.append('%s exports %s, which cuda.h does not declare' % (HAND_MAP, name))
    return errors


def check_pfn(funcs, inc):
    """Each lookup name is a cuGetProcAddress name: cudaTypedefs.h has a
    PFN_<lookup>_v<version> for it."""
    path = os.path.join(inc, 'cudaTypedefs.h')
    if not os.path.exists(path):
        return []
    with open(path) as f:
        pfn = set(re.findall(r'\bPFN_(cu\w+?)_v\d+(?:_pt(?:sz|ds))?\)', f.read()))
    return ['%s: no PFN_%s_v* in cudaTypedefs.h: is %s its cuGetProcAddress name?'
            % (f.name, f.lookup, f.lookup)
            for f in funcs.values()
            if f.cls in ('stream', 'config', 'implicit', 'special') and f.lookup not in pfn]


# ---- output ----

CLASS_TEXT = [
    ('stream', 'with a stream argument'),
    ('config', "through a launch config's hStream"),
    ('implicit', 'on the implicit default stream'),
    ('special', 'with the stream inside a struct'),
]


def generate(funcs, version):
    sub = [f for f in sorted(funcs.values(), key=lambda f: f.name)
           if f.cls in ('stream', 'config', 'implicit', 'special')]
    hand = sorted(f.name for f in funcs.values() if f.cls == 'hand')
    var = sorted(f.name for f in funcs.values() if f.cls == 'variadic')
    counts = ', '.join('%d %s' % (sum(f.cls == c for f in sub), t) for c, t in CLASS_TEXT)
    c = []
    w = c.append
    w('/* interpose/submit_hooks.c - GENERATED: do not edit.')
    w(' *')
    w(' * Generated from cuda.h (CUDA_VERSION %d) by' % version)
    w(' *     scripts/gen_submit_hooks.py [--cuda-include DIR]')
    w(' * and checked by the unit test submit-hooks-generated (--check).')
    w(' * docs/design.md, "Seeing every submission", gives the rules.')
    w(' *')
    w(' * One wrapper per exported driver function that queues work on a stream or')
    w(' * makes one wait: it tells cm_lib_submit which stream, calls the driver,')
    w(' * then tells cm_lib_submitted that the work is queued (docs/design.md says')
    w(' * why the mark comes after). Like the')
    for line in wrap('driver. %d wrappers: %s.' % (len(sub), counts), 74):
        w(' * ' + line)
    w(' *')
    w(' * Hooked by hand elsewhere (HAND_HOOKED), not defined here, each calling')
    w(' * cm_lib_submit itself where it queues work: every export of')
    for line in wrap(', '.join(sorted(HAND_HOOKED)) + ':', 74):
        w(' * ' + line)
    for line in wrap(', '.join(hand), 74):
        w(' *   ' + line)
    if var:
        w(' * Variadic, not wrapped: ' + ', '.join(var))
    w(' */')
    w('/* The older ABIs and the _ptsz/_ptds names are declared only under this')
    w(' * define; with them declared each wrapper below is checked against the')
    w(' * header\'s prototype of the same name. */')
    w('#define __CUDA_API_VERSION_INTERNAL 1')
    w('#include <cuda.h>')
    w('')
    w('#include "hook_entry.h"')
    w('')
    w('#ifndef CM_EXPORT')
    w('#define CM_EXPORT __attribute__((visibility("default")))')
    w('#endif')
    w('')
    w('#define CM_SUBMIT_COUNT %d' % len(sub))
    w('')
    w('/* The driver\'s functions, filled by cm_submit_resolve (atomic stores). */')
    w('static void *cm_submit_real[CM_SUBMIT_COUNT];')
    w('')
    w('__attribute__((noinline, cold)) static void *cm_submit_slow(size_t i)')
    w('{')
    w('\tcm_submit_resolve();')
    w('\treturn __atomic_load_n(&cm_submit_real[i], __ATOMIC_RELAXED);')
    w('}')
    for i, f in enumerate(sub):
        args = ', '.join(p.name for p in f.params)
        w('')
        w('CM_EXPORT CUresult %s(%s)' % (f.name, f.params_text))
        w('{')
        if f.cls == 'special':
            w('\t' + f.stream)
        else:
            w('\tcm_lib_submit(%s, %s);' % (f.stream, c_bool(f.ptsz)))
        w('\tvoid *cm_fn = __atomic_load_n(&cm_submit_real[%d], __ATOMIC_RELAXED);' % i)
        w('\tif (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(%d)) == NULL)' % i)
        w('\t\treturn CUDA_ERROR_NOT_FOUND;')
        w('\tCUresult cm_r = ((__typeof__(&%s))cm_fn)(%s);' % (f.name, args))
        w('\tcm_lib_submitted();')
        w('\treturn cm_r;')
        w('}')
    w('')
    w('const cm_hook_entry cm_submit_table[CM_SUBMIT_COUNT] = {')
    for i, f in enumerate(sub):
        w('\t{ .symbol = "%s", .lookup = "%s", .ptsz = %s, .hook = (void *)%s, .real = &cm_submit_real[%d] },'
          % (f.name, f.lookup, c_bool(f.ptsz), f.name, i))
    w('};')
    w('const size_t cm_submit_count = CM_SUBMIT_COUNT;')
    m = ['/* interpose/submit_hooks.map - GENERATED by scripts/gen_submit_hooks.py from',
         ' * cuda.h (CUDA_VERSION %d): the exports of submit_hooks.c, for the global:' % version,
         ' * list of the library\'s version script (--merge-map). */']
    m += ['%s;' % f.name for f in sub]
    return '\n'.join(c) + '\n', '\n'.join(m) + '\n', sub


def wrap(text, width):
    lines, cur = [], ''
    for word in text.split(' '):
        if cur and len(cur) + 1 + len(word) > width:
            lines.append(cur)
            cur = word
        else:
            cur = cur + ' ' + word if cur else word
    if cur:
        lines.append(cur)
    return lines


def merge_map(hand, lst, out):
    """HAND's version script with LIST's `name;` lines added before local:."""
    with open(hand) as f:
        text = f.read()
    with open(lst) as f:
        names = [l.strip() for l in f if re.match(r'^\s*\w+;\s*$', l)]
    m = re.search(r'^(\s*)local\s*:', text, re.M)
    if not m:
        raise Fail('%s: no local: section' % hand)
    indent = re.search(r'^(\s*)\w+;', text, re.M)
    ind = indent.group(1) if indent else '\t\t'
    add = ''.join('%s%s\n' % (ind, n) for n in names)
    text = text[:m.start()] + add + text[m.start():]
    if os.path.exists(out):
        with open(out) as f:
            if f.read() == text:
                return
    with open(out, 'w') as f:
        f.write(text)


def analyse(cc, inc, extra=''):
    """(CUDA_VERSION, functions by export name, reviewed list, errors).
    extra: declarations appended to each run's text (the self-test)."""
    with open(os.path.join(inc, 'cuda.h')) as f:
        cuda_h = f.read()
    version = cuda_version(cc, inc)
    funcs, decls_all = {}, []
    for run, defines in RUNS:
        decls, _, fs = parse(preprocess(cc, inc, defines) + '\n' + extra)
        decls_all += decls
        for name, fn in fs.items():
            old = funcs.get(name)
            if old and old.signature() != fn.signature():
                raise Fail('%s is declared with two signatures: (%s) and, with the %s '
                           'defines, (%s)' % (name, old.params_text, run, fn.params_text))
            funcs.setdefault(name, fn)
    carrying = stream_types(decls_all)
    reviewed = read_reviewed(os.path.join(ROOT, REVIEWED))
    errors = classify(funcs, carrying, reviewed, cuda_h)
    errors += check_pfn(funcs, inc)
    errors += check_hand_versions(funcs, *read_hand_hooks())
    return version, funcs, reviewed, errors


def self_test(cc, inc):
    """The failure this generator exists for: new stream-taking functions
    in neither list are refused, each named."""
    extra = ('CUresult cuStreamFrobnicate(CUstream hStream, int x);\n'
             'CUresult cuLaunchFrob(const CUlaunchConfig *config);\n'
             'typedef struct CUfrob_st { int a; CUstream s; } CUfrob;\n'
             'CUresult cuFrobAsync(CUfrob *f);\n'
             'CUresult cuMemFrob(int x);\n'
             'CUresult cuMemFrob_ptds(int x);\n'
             'CUresult cuStreamQueryFrob_ptsz(CUstream hStream);\n'
             'CUresult cuCtxDestroy_v9(CUcontext ctx);\n')
    _, _, _, errors = analyse(cc, inc, extra)
    errors = [e for e in errors if 'cudaTypedefs.h' not in e]  # the fakes have no PFN_
    expect = {'cuStreamFrobnicate', 'cuLaunchFrob', 'cuFrobAsync', 'cuStreamQueryFrob_ptsz'}
    named = {e.split('function ')[1].split('(')[0] for e in errors
             if e.startswith('unclassified stream-taking function ')}
    implicit_ok = not any('cuMemFrob' in e for e in errors)
    versions = [e for e in errors if e.startswith('cuCtxDestroy_v9: an ABI version')]
    if named != expect or len(errors) != len(expect) + 1 or not implicit_ok or not versions:
        print('gen_submit_hooks: self-test: expected errors for %s and cuCtxDestroy_v9, got:\n  %s'
              % (', '.join(sorted(expect)), '\n  '.join(errors)), file=sys.stderr)
        return 1
    print('gen_submit_hooks: self-test: %d unclassified functions and an unhooked ABI version '
          'refused' % len(expect))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--cuda-include', default='/usr/local/cuda/include')
    ap.add_argument('--cc', default='cc', help='the C compiler (a command line)')
    ap.add_argument('--check', action='store_true',
                    help='compare with the checked-in files instead of writing them')
    ap.add_argument('--summary', action='store_true', help='print the classification')
    ap.add_argument('--merge-map', nargs=3, metavar=('HAND', 'LIST', 'OUT'),
                    help="write OUT: HAND's version script with LIST's names added")
    ap.add_argument('--self-test', action='store_true',
                    help='check that unclassified stream-taking functions are refused')
    a = ap.parse_args()
    me = 'gen_submit_hooks'
    try:
        if a.merge_map:
            merge_map(*a.merge_map)
            return 0
        if a.self_test:
            return self_test(a.cc, a.cuda_include)
        version, funcs, reviewed, errors = analyse(a.cc, a.cuda_include)
        if errors:
            for e in errors:
                print('%s: %s' % (me, e), file=sys.stderr)
            return 1
        c_text, map_text, sub = generate(funcs, version)
        if a.summary:
            for f in sorted(funcs.values(), key=lambda f: (f.cls or '', f.name)):
                if f.cls:
                    print('%-9s %-45s %-40s %s' % (f.cls, f.name, f.lookup,
                                                   ' '.join((f.stream or '').split())))
        outs = [(OUT_C, c_text), (OUT_MAP, map_text)]
        if a.check:
            bad = []
            for rel, text in outs:
                try:
                    with open(os.path.join(ROOT, rel)) as f:
                        if f.read() != text:
                            bad.append(rel)
                except FileNotFoundError:
                    bad.append(rel)
            if bad:
                print('%s: %s %s from what cuda.h (CUDA_VERSION %d) under %s gives: '
                      'run scripts/gen_submit_hooks.py --cuda-include %s and commit the result'
                      % (me, ' and '.join(bad), 'differs' if len(bad) == 1 else 'differ',
                         version, a.cuda_include, a.cuda_include),
                      file=sys.stderr)
                return 1
            print('%s: %d wrappers, up to date with CUDA_VERSION %d' % (me, len(sub), version))
            return 0
        for rel, text in outs:
            with open(os.path.join(ROOT, rel), 'w') as f:
                f.write(text)
        print('%s: %d wrappers written to %s and %s' % (me, len(sub), OUT_C, OUT_MAP))
        return 0
    except Fail as e:
        print('%s: %s' % (me, e), file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
