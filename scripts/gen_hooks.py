#!/usr/bin/env python3
"""Generate the library's hooks, their real functions and its version
script from interpose/hooks.table, the one list of every function the
library hooks or calls, and the driver's submission wrappers from cuda.h.

Reads cuda.h through the C preprocessor three times (plain; with
CUDA_API_PER_THREAD_DEFAULT_STREAM, which names the _ptsz/_ptds exports; with
__CUDA_API_VERSION_INTERNAL, which declares the older ABIs the driver still
exports, such as cuMemcpyHtoD v1), collects every `CUresult name(params);`,
classifies each function that touches a stream and writes

    interpose/hook_table.h      every hook's declaration (exported), the
                                typed store of the real functions (cm_real)
                                and the callers of the hand rows' (cm_real_*)
    interpose/hook_table.c      the store's names and the lookup table
    interpose/submit_hooks.c    one wrapper per SUBMIT export and its table
    interpose/cachemalloc.map   the version script: every export
    interpose/submit_hooks.map  the wrappers' names, `name;` a line (a test's)

docs/design.md, "Seeing every submission", gives the rules. A function that
takes a stream (or a struct carrying one, or has a _ptsz/_ptds variant) and
is neither SUBMIT, reviewed (interpose/submit_reviewed.txt) nor HAND_HOOKED
makes the script fail. So does an export of a hand-hooked name (every ABI
version and _ptsz variant of it: cuStreamBeginCapture, _ptsz, _v2,
_v2_ptsz) without a row, and a hand row whose hook is not defined exactly
once, in its file, as a plain function of its name.

    scripts/gen_hooks.py [--cuda-include DIR] [--cc CC]   regenerate
    scripts/gen_hooks.py --check ...                      compare only
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = 'interpose/hooks.table'
OUT_H = 'interpose/hook_table.h'
OUT_TABLE_C = 'interpose/hook_table.c'
OUT_C = 'interpose/submit_hooks.c'
OUT_MAP = 'interpose/submit_hooks.map'
OUT_VERSION_SCRIPT = 'interpose/cachemalloc.map'
REVIEWED = 'interpose/submit_reviewed.txt'
# Hooked by the lookup wrappers themselves (interpose/lookup.c), not by a
# table entry.
LOOKUP_HOOKS = {'cuGetProcAddress', 'cuGetProcAddress_v2'}

RUNS = [
    ('plain', []),
    ('per-thread', ['-DCUDA_API_PER_THREAD_DEFAULT_STREAM']),
    ('internal', ['-D__CUDA_API_VERSION_INTERNAL']),
]

# HAND_HOOKED and SUBMIT come from interpose/hooks.table (read_table):
# HAND_HOOKED, the cuGetProcAddress names hooked by hand (every export of
# each is covered in interpose/, and a hook that queues work calls
# cm_lib_submit itself); SUBMIT, the names of the rows `submit` that are
# neither SPECIAL nor LEGACY_NULL_STREAM: functions that queue work on
# their stream argument (a CUstream parameter, or a const CUlaunchConfig *
# whose hStream is the stream), or make it wait.
HAND_HOOKED = set()
SUBMIT = set()

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
            f.cls = 'hand' if touches else None
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
                          'interpose/hooks.table (a row `submit`) if it queues work on a stream or makes '
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


# ---- interpose/hooks.table ----

SHAPES = {'cached_alloc', 'cached_free', 'alloc', 'free', 'serve', 'sync', 'watch', 'query',
          'context', 'pass', 'lookup', 'real', 'submit'}


class Row:
    def __init__(self, n, fields):
        (self.symbol, self.lookup, self.abi, self.shape, self.file, self.serves,
         self.returns) = fields[:7]
        self.params = fields[7]
        self.line = n
        self.hooked = self.shape not in ('real', 'submit')
        self.runtime = self.symbol.startswith('cuda')
        self.driver = self.symbol.startswith('cu') and not self.runtime

    def args(self):
        """The parameters' names, for a call."""
        if self.params.strip() in ('(void)', '()'):
            return ''
        return ', '.join(re.findall(r'(\w+)\s*(?:\[\])?\s*$', p)[0]
                         for p in split_top(self.params.strip()[1:-1]))

    def ret_type(self):
        return 'void *' if self.returns == 'void*' else self.returns


def read_table(path=None):
    """The rows of interpose/hooks.table, in order; fills HAND_HOOKED and SUBMIT."""
    path = path or os.path.join(ROOT, TABLE)
    rows, seen = [], set()
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split('#', 1)[0].rstrip()
            if not line.strip():
                continue
            head, paren, params = line.partition('(')
            fields = head.split()
            if paren:
                fields.append('(' + params)
            if len(fields) != 8:
                raise Fail('%s:%d: 8 columns expected, found %d' % (TABLE, n, len(fields)))
            row = Row(n, fields)
            if row.shape not in SHAPES:
                raise Fail('%s:%d: unknown shape %s' % (TABLE, n, row.shape))
            if row.symbol in seen:
                raise Fail('%s:%d: %s has two rows' % (TABLE, n, row.symbol))
            if row.shape != 'submit' and not row.params.startswith('('):
                raise Fail('%s:%d: %s needs its parameters' % (TABLE, n, row.symbol))
            if row.hooked and row.driver and row.lookup == '-':
                raise Fail('%s:%d: the driver hook %s needs its cuGetProcAddress name, so that '
                           'dlsym and cuGetProcAddress hand it out' % (TABLE, n, row.symbol))
            abi = re.search(r'_v(\d+)(?:_pt(?:sz|ds))?$', row.symbol)
            if row.abi != '*' and row.abi != (abi.group(1) if abi else '1'):
                raise Fail('%s:%d: %s is ABI version %s, not %s'
                           % (TABLE, n, row.symbol, abi.group(1) if abi else '1', row.abi))
            seen.add(row.symbol)
            rows.append(row)
    HAND_HOOKED.clear()
    HAND_HOOKED.update(r.lookup for r in rows if r.hooked and r.driver and r.shape != 'lookup')
    SUBMIT.clear()
    SUBMIT.update(r.lookup for r in rows if r.shape == 'submit')
    SUBMIT.difference_update(SPECIAL, LEGACY_NULL_STREAM)
    for name in sorted((set(SPECIAL) | LEGACY_NULL_STREAM) - {r.lookup for r in rows}):
        raise Fail('%s: %s (the script\'s SPECIAL or LEGACY_NULL_STREAM) has no row `submit`'
                   % (TABLE, name))
    return rows


def check_hand_versions(funcs, rows):
    """Every export of a hand-hooked cuGetProcAddress name has a row: an
    ABI version left to the driver is a call the cache never sees (a
    capture begun through cuStreamBeginCapture, a stream destroyed through
    cuStreamDestroy)."""
    errors = []
    hooked = {r.symbol for r in rows if r.hooked}
    for f in sorted(funcs.values(), key=lambda f: f.name):
        if f.lookup in HAND_HOOKED and f.name not in hooked:
            errors.append('%s: an ABI version of %s, which is hooked by hand, has no hook: '
                          'add its row to %s and write it (interpose/driver_hooks*.c)'
                          % (f.name, f.lookup, TABLE))
    for r in rows:
        if r.driver and r.shape != 'submit' and r.symbol not in funcs:
            errors.append('%s:%d: cuda.h does not declare %s' % (TABLE, r.line, r.symbol))
    return errors


def check_definitions(rows):
    """Each hand row's hook is defined once, in its file, as a plain
    function of its own name (what a reader's grep and ctags find)."""
    errors = []
    idir = os.path.join(ROOT, 'interpose')
    texts = {}
    for name in sorted(os.listdir(idir)):
        if name.endswith('.c') and name not in (os.path.basename(OUT_C),
                                                os.path.basename(OUT_TABLE_C)):
            with open(os.path.join(idir, name)) as f:
                texts[name] = f.read()
    for r in rows:
        if not r.hooked:
            continue
        pat = re.compile(r'^(?:CM_\w+ )*(?:\w+ )+\**%s\(' % re.escape(r.symbol), re.M)
        where = [(name, sum(1 for line in text.splitlines()
                            if pat.match(line) and not line.rstrip().endswith(';')))
                 for name, text in texts.items()]
        where = [(name, k) for name, k in where if k]
        if where != [(r.file, 1)]:
            errors.append('%s:%d: %s must be defined once, in interpose/%s, as a plain function '
                          '(found: %s)' % (TABLE, r.line, r.symbol, r.file,
                                           ', '.join('%s %d' % w for w in where) or 'none'))
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


def submit_functions(funcs):
    return [f for f in sorted(funcs.values(), key=lambda f: f.name)
            if f.cls in ('stream', 'config', 'implicit', 'special')]


def generated_by(name, version, what):
    return ['/* interpose/%s - GENERATED: do not edit.' % name,
            ' *',
            ' * Made by scripts/gen_hooks.py from interpose/hooks.table and cuda.h',
            ' * (CUDA_VERSION %d); the unit test hooks-generated fails when it' % version,
            ' * differs from what the script makes (--check).'] + \
           [' * ' + l for l in wrap(what, 74)]


def generate_submit(funcs, version):
    sub = submit_functions(funcs)
    hand = sorted(f.name for f in funcs.values() if f.cls == 'hand')
    hand_lookups = sorted({f.lookup for f in funcs.values() if f.cls == 'hand'})
    var = sorted(f.name for f in funcs.values() if f.cls == 'variadic')
    counts = ', '.join('%d %s' % (sum(f.cls == c for f in sub), t) for c, t in CLASS_TEXT)
    c = generated_by('submit_hooks.c', version,
                     'docs/design.md, "Seeing every submission", gives the rules.')
    w = c.append
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
    for line in wrap(', '.join(hand_lookups) + ':', 74):
        w(' * ' + line)
    for line in wrap(', '.join(hand), 74):
        w(' *   ' + line)
    if var:
        w(' * Variadic, not wrapped: ' + ', '.join(var))
    w(' */')
    w('#include "hook_entry.h"')
    w('#include "real.h"')
    w('')
    w('#define CM_SUBMIT_COUNT %d' % len(sub))
    for f in sub:
        args = ', '.join(p.name for p in f.params)
        w('')
        w('CUresult %s(%s)' % (f.name, f.params_text))
        w('{')
        if f.cls == 'special':
            w('\t' + f.stream)
        else:
            w('\tcm_lib_submit(%s, %s);' % (f.stream, c_bool(f.ptsz)))
        w('\t__typeof__(cm_real.%s) cm_fn = __atomic_load_n(&cm_real.%s, __ATOMIC_RELAXED);'
          % (f.name, f.name))
        w('\tif (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.%s)))'
          % f.name)
        w('\t\treturn CUDA_ERROR_NOT_FOUND;')
        w('\tCUresult cm_r = cm_fn(%s);' % args)
        w('\tcm_lib_submitted();')
        w('\treturn cm_r;')
        w('}')
    w('')
    w('const cm_hook_entry cm_submit_table[CM_SUBMIT_COUNT] = {')
    for f in sub:
        w('\t{ .symbol = "%s", .lookup = "%s", .ptsz = %s, .hook = (cm_fn)%s, .real = (void **)&cm_real.%s },'
          % (f.name, f.lookup, c_bool(f.ptsz), f.name, f.name))
    w('};')
    w('const size_t cm_submit_count = CM_SUBMIT_COUNT;')
    m = ['/* interpose/submit_hooks.map - GENERATED by scripts/gen_hooks.py from',
         ' * cuda.h (CUDA_VERSION %d): the exports of submit_hooks.c, which' % version,
         ' * cachemalloc.map has too (tests/submit checks them on a module). */']
    m += ['%s;' % f.name for f in sub]
    return '\n'.join(c) + '\n', '\n'.join(m) + '\n', sub


def proto(ret, name, params):
    ret = ret.rstrip()
    return '%s%s%s%s' % (ret, '' if ret.endswith('*') else ' ', name, params)


def generate_header(rows, funcs, version):
    sub = submit_functions(funcs)
    h = generated_by('hook_table.h', version,
                     'Included by real.h. Every hook the library exports, declared '
                     'once with its visibility (each defined once, as a plain function '
                     'of its name, in the file its row names), and cm_real: one typed '
                     'slot per real function, filled when the runtime or the driver is '
                     'found (real.c), with cm_real_<name>, the call of a hand row\'s real '
                     'function: the runtime\'s under the re-entry guard.')
    w = h.append
    w(' */')
    w('#ifndef CM_HOOK_TABLE_H')
    w('#define CM_HOOK_TABLE_H')
    w('')
    w('#ifndef CM_REAL_H')
    w('#error "include real.h, which includes this header"')
    w('#endif')
    w('')
    w('#define CM_EXPORT __attribute__((visibility("default")))')
    w('')
    w('/* ---- the hooks (shape, file) ---- */')
    for r in rows:
        if r.hooked:
            hot = '__attribute__((hot)) ' if r.shape.startswith('cached_') else ''
            w('CM_EXPORT %s%s; /* %s, %s */' % (hot, proto(r.ret_type(), r.symbol, r.params),
                                                r.shape, r.file))
    w('/* The submission wrappers (submit_hooks.c). */')
    for f in sub:
        w('CM_EXPORT CUresult %s(%s);' % (f.name, f.params_text))
    w('')
    w('/* ---- the real functions: one store ---- */')
    w('typedef struct cm_real_fns {')
    for r in rows:
        if r.shape != 'submit' and (r.runtime or r.driver):
            w('\t%s;' % proto(r.ret_type(), '(*%s)' % r.symbol, r.params))
    for f in sub:
        w('\tCUresult (*%s)(%s);' % (f.name, f.params_text))
    w('} cm_real_fns;')
    w('extern cm_real_fns cm_real;')
    w('')
    w('/* The store\'s slots by name, for real.c: the runtime\'s and the driver\'s. */')
    w('typedef struct cm_real_slot {')
    w('\tconst char *name;')
    w('\tvoid **slot;')
    w('} cm_real_slot;')
    w('extern const cm_real_slot cm_real_runtime_slots[];')
    w('extern const size_t cm_real_runtime_count;')
    w('extern const cm_real_slot cm_real_driver_slots[];')
    w('extern const size_t cm_real_driver_count;')
    w('')
    w('/* ---- the hand rows\' real calls: the runtime\'s under the re-entry guard ---- */')
    for r in rows:
        if r.shape == 'submit' or not (r.runtime or r.driver):
            continue
        w('')
        w('static inline %s' % proto(r.ret_type(), 'cm_real_' + r.symbol, r.params))
        w('{')
        if r.runtime:
            w('\tif (!cm_real_resolve() || !cm_real.%s)' % r.symbol)
            w('\t\treturn cudaErrorNotSupported;')
            w('\tcm_in_cuda++;')
            w('\tcudaError_t r = cm_real.%s(%s);' % (r.symbol, r.args()))
            w('\tcm_in_cuda--;')
            w('\treturn r;')
            if r.shape in ('cached_alloc', 'alloc'):
                w('}')
                w('')
                w('/* Without the guard: the runtime\'s driver call reaches the cache. */')
                w('static inline %s' % proto(r.ret_type(), 'cm_real_%s_unguarded' % r.symbol,
                                            r.params))
                w('{')
                w('\tif (!cm_real_resolve() || !cm_real.%s)' % r.symbol)
                w('\t\treturn cudaErrorNotSupported;')
                w('\treturn cm_real.%s(%s);' % (r.symbol, r.args()))
        else:
            # A context hook of a function the driver lacks answers as the
            # driver's lookup of it would (CUDA_ERROR_NOT_FOUND).
            missing = 'CUDA_ERROR_NOT_FOUND' if r.shape == 'context' else 'CUDA_ERROR_NOT_INITIALIZED'
            w('\treturn cm_drv_resolve() && cm_real.%s ? cm_real.%s(%s) : %s;'
              % (r.symbol, r.symbol, r.args(), missing))
        w('}')
    w('')
    w('#endif')
    return '\n'.join(h) + '\n'


def c_array(w, decl, count, elements):
    """A constant C array (decl: its type and name), one element a line, and
    its length as the size_t count."""
    name = decl.split()[-1]
    w('const %s[] = {' % decl)
    for e in elements:
        w('\t%s,' % e)
    w('};')
    w('const size_t %s = sizeof(%s) / sizeof(%s[0]);' % (count, name, name))


def generate_table_c(rows, funcs, version):
    c = generated_by('hook_table.c', version,
                     'The store of the real functions and its names (real.c fills it), and '
                     'the table of the hand-written driver hooks that the lookup wrappers '
                     '(lookup.c) substitute, sorted by symbol; the submission wrappers\' '
                     'is cm_submit_table (submit_hooks.c).')
    w = c.append
    w(' */')
    w('#include "hook_entry.h"')
    w('#include "real.h"')
    w('')
    w('cm_real_fns cm_real;')
    w('')
    runtime = [r.symbol for r in rows if r.runtime and r.shape != 'submit']
    driver = [r.symbol for r in rows if r.driver and r.shape != 'submit']
    driver += [f.name for f in submit_functions(funcs)]
    for kind, names in (('runtime', runtime), ('driver', driver)):
        c_array(w, 'cm_real_slot cm_real_%s_slots' % kind, 'cm_real_%s_count' % kind,
                ['{ "%s", (void **)&cm_real.%s }' % (n, n) for n in names])
        w('')
    hooked = sorted((r for r in rows if r.hooked and r.driver), key=lambda r: r.symbol)
    entry = '{ .symbol = "%s", .lookup = "%s", .ptsz = %s, .hook = (cm_fn)%s, .real = (void **)&cm_real.%s }'
    c_array(w, 'cm_hook_entry cm_hook_table', 'cm_hook_count',
            [entry % (r.symbol, r.lookup, c_bool(r.symbol.endswith('_ptsz')), r.symbol, r.symbol)
             for r in hooked])
    return '\n'.join(c) + '\n'


def generate_version_script(rows, funcs, version):
    sub = submit_functions(funcs)
    m = ['/* interpose/cachemalloc.map - GENERATED by scripts/gen_hooks.py from',
         ' * interpose/hooks.table and cuda.h (CUDA_VERSION %d): do not edit.' % version,
         ' * Only the hooks are exported, unversioned, so that they bind to the',
         ' * program\'s references to cudaMalloc@libcudart.so.N and to the driver\'s',
         ' * unversioned names. */',
         '{',
         '\tglobal:']
    m += ['\t\t%s;' % r.symbol for r in rows if r.hooked]
    m += ['\t\t%s;' % f.name for f in sub]
    m += ['\tlocal:', '\t\t*;', '};']
    return '\n'.join(m) + '\n'


def generate(rows, funcs, version):
    c_text, map_text, sub = generate_submit(funcs, version)
    return [(OUT_H, generate_header(rows, funcs, version)),
            (OUT_TABLE_C, generate_table_c(rows, funcs, version)),
            (OUT_C, c_text), (OUT_MAP, map_text),
            (OUT_VERSION_SCRIPT, generate_version_script(rows, funcs, version))], sub


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


def analyse(cc, inc, extra=''):
    """(CUDA_VERSION, functions by export name, reviewed list, errors).
    extra: declarations appended to each run's text (the self-test)."""
    with open(os.path.join(inc, 'cuda.h')) as f:
        cuda_h = f.read()
    version = cuda_version(cc, inc)
    rows = read_table()
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
    errors += check_hand_versions(funcs, rows)
    errors += check_definitions(rows)
    return version, funcs, rows, errors


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
        print('gen_hooks: self-test: expected errors for %s and cuCtxDestroy_v9, got:\n  %s'
              % (', '.join(sorted(expect)), '\n  '.join(errors)), file=sys.stderr)
        return 1
    # A hand row whose hook is missing, or defined in another file than its row says.
    missing = Row(0, ['cuMemFrob_v2', 'cuMemFrob', '2', 'watch', 'hooks.c', '-', 'CUresult',
                      '(int x)'])
    elsewhere = Row(0, ['cudaMalloc', '-', '1', 'cached_alloc', 'driver_hooks.c', '-',
                        'cudaError_t', '(void **p, size_t n)'])
    defs = check_definitions([missing, elsewhere])
    if len(defs) != 2 or 'found: none' not in defs[0] or 'found: hooks.c 1' not in defs[1]:
        print('gen_hooks: self-test: expected a missing and a misplaced hook, got:\n  %s'
              % '\n  '.join(defs), file=sys.stderr)
        return 1
    print('gen_hooks: self-test: %d unclassified functions, an unhooked ABI version, a missing '
          'and a misplaced hook refused' % len(expect))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--cuda-include', default='/usr/local/cuda/include')
    ap.add_argument('--cc', default='cc', help='the C compiler (a command line)')
    ap.add_argument('--check', action='store_true',
                    help='compare with the checked-in files instead of writing them')
    ap.add_argument('--summary', action='store_true', help='print the classification')
    ap.add_argument('--self-test', action='store_true',
                    help='check that unclassified stream-taking functions are refused')
    a = ap.parse_args()
    me = 'gen_hooks'
    try:
        if a.self_test:
            return self_test(a.cc, a.cuda_include)
        version, funcs, rows, errors = analyse(a.cc, a.cuda_include)
        if errors:
            for e in errors:
                print('%s: %s' % (me, e), file=sys.stderr)
            return 1
        outs, sub = generate(rows, funcs, version)
        if a.summary:
            for f in sorted(funcs.values(), key=lambda f: (f.cls or '', f.name)):
                if f.cls:
                    print('%-9s %-45s %-40s %s' % (f.cls, f.name, f.lookup,
                                                   ' '.join((f.stream or '').split())))
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
                print('%s: %s %s from what interpose/hooks.table and cuda.h (CUDA_VERSION %d) under %s give: '
                      'run scripts/gen_hooks.py --cuda-include %s and commit the result'
                      % (me, ' and '.join(bad), 'differs' if len(bad) == 1 else 'differ',
                         version, a.cuda_include, a.cuda_include),
                      file=sys.stderr)
                return 1
            print('%s: %d hand rows and %d wrappers, up to date with CUDA_VERSION %d'
                  % (me, sum(r.hooked for r in rows), len(sub), version))
            return 0
        for rel, text in outs:
            with open(os.path.join(ROOT, rel), 'w') as f:
                f.write(text)
        print('%s: %d hand rows and %d wrappers written to %s'
              % (me, sum(r.hooked for r in rows), len(sub), ', '.join(rel for rel, _ in outs)))
        return 0
    except Fail as e:
        print('%s: %s' % (me, e), file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
