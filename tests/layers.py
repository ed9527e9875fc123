#!/usr/bin/env python3
"""core/'s wings call only downwards (docs/design.md, "What it is, and the
layers"), read from the symbols of each wing's static library.

usage: layers.py NM WING=LIBRARY... (bottom wing first)
       [--allow-circle A.c,B.c]...

Fails when an object of a wing leaves undefined a cm_ symbol that only a
higher wing defines (a call up), or when the objects' calls close a circle
of files other than the allowed ones (the serve wing's heap.c <->
tcache.c). Symbols defined outside the core (config/, the C library) are
not the core's business here.
"""
import subprocess
import sys


def object_name(member):
    """fence.c for meson's order_fence.c.o (or a path ending so)."""
    base = member.rsplit('/', 1)[-1]
    if base.endswith('.o'):
        base = base[:-2]
    return base.split('_', 1)[1] if '_' in base else base


def read_symbols(nm, library):
    """{object: (defined, undefined)} of one static library."""
    out = subprocess.run([nm, library], check=True, capture_output=True, text=True).stdout
    objects, current = {}, None
    for line in out.splitlines():
        if line.endswith(':') and not line.startswith(' '):
            current = object_name(line[:-1])
            objects[current] = (set(), set())
            continue
        parts = line.split()
        if current is None or len(parts) < 2:
            continue
        kind, name = parts[-2], parts[-1]
        if kind == 'U':
            objects[current][1].add(name)
        elif kind in 'TDBRCVW':
            objects[current][0].add(name)
    return objects


def circles(edges):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def main(argv):
    nm, wings, allowed = argv[1], [], []
    args = iter(argv[2:])
    for a in args:
        if a == '--allow-circle':
            allowed.append(sorted(next(args).split(',')))
        else:
            name, lib = a.split('=', 1)
            wings.append((name, read_symbols(nm, lib)))
    owner = {}  # symbol -> (wing rank, wing, object)
    for rank, (wing, objects) in enumerate(wings):
        for obj, (defined, _) in objects.items():
            for sym in defined:
                owner.setdefault(sym, (rank, wing, obj))
    failures, edges = [], {}
    for rank, (wing, objects) in enumerate(wings):
        for obj, (_, undefined) in sorted(objects.items()):
            for sym in sorted(undefined):
                if sym not in owner:
                    continue
                to_rank, to_wing, to_obj = owner[sym]
                if to_rank > rank:
                    failures.append(f'{wing}/{obj} calls up into {to_wing}/{to_obj}: {sym}')
                if to_obj != obj:
                    edges.setdefault(obj, set()).add(to_obj)
    for comp in circles(edges):
        names = sorted(comp)
        if names not in allowed:
            failures.append('a circle of files: ' + ' <-> '.join(names))
    print(f'{len(wings)} wings, {sum(len(o) for _, o in wings)} objects, '
          f'{sum(len(v) for v in edges.values())} calls between files')
    for f in failures:
        print('FAIL ' + f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
