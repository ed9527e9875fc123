"""cachemalloc check: runs a program under the library and says what
happened (docs/design.md section 8).

Before the run it reads the program's ELF headers: a static executable (no
PT_INTERP) never runs the dynamic loader, so LD_PRELOAD does nothing; a
PT_INTERP naming a loader that is not there cannot start. It reads the
dynamic symbols of the other preloaded libraries (LD_PRELOAD,
/etc/ld.so.preload): one that exports dlsym answers the program's driver
lookups before or instead of the library's. The run itself writes one
statistics file per process (stats:exit-json with %p), which says whether
the library was loaded, whether a device was used, at which levels the
calls came (runtime, driver, lookups) and whether PyTorch was loaded
(libtorch* or libc10*: the PyTorch hint is given only then). The report goes to stderr; the
exit status is the program's.
"""
import glob
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

PT_INTERP = 3
SHT_DYNSYM = 11
PYTORCH_CONF_VARS = ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF", "PYTORCH_HIP_ALLOC_CONF")


class Elf:
    """The few facts of an ELF file check needs; None fields when the file
    is not ELF or cannot be read."""

    def __init__(self, path):
        self.is_elf = False
        self.interp = None
        self.dynamic_symbols = set()
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            return
        if data[:4] != b"\x7fELF" or len(data) < 64:
            return
        self.is_elf = True
        self._is64 = data[4] == 2
        self._end = "<" if data[5] == 1 else ">"
        try:
            self._parse(data)
        except (struct.error, IndexError, UnicodeDecodeError):
            pass

    def _parse(self, data):
        e = self._end
        if self._is64:
            phoff, shoff = struct.unpack_from(e + "QQ", data, 32)
            phentsize, phnum, shentsize, shnum = struct.unpack_from(e + "HHHH", data, 54)
        else:
            phoff, shoff = struct.unpack_from(e + "II", data, 28)
            phentsize, phnum, shentsize, shnum = struct.unpack_from(e + "HHHH", data, 42)
        for i in range(phnum):
            off = phoff + i * phentsize
            ptype = struct.unpack_from(e + "I", data, off)[0]
            if ptype == PT_INTERP:
                if self._is64:
                    poff, _, _, fsz = struct.unpack_from(e + "QQQQ", data, off + 8)
                else:
                    poff, _, _, fsz = struct.unpack_from(e + "IIII", data, off + 4)
                self.interp = data[poff:poff + fsz].split(b"\0")[0].decode()
        sections = []
        for i in range(shnum):
            off = shoff + i * shentsize
            if self._is64:
                _, stype, _, _, soff, ssize, link, _, _, entsize = struct.unpack_from(e + "IIQQQQIIQQ", data, off)
            else:
                _, stype, _, _, soff, ssize, link, _, _, entsize = struct.unpack_from(e + "IIIIIIIIII", data, off)
            sections.append((stype, soff, ssize, link, entsize))
        for stype, soff, ssize, link, entsize in sections:
            if stype != SHT_DYNSYM or not entsize:
                continue
            stroff = sections[link][1]
            for k in range(1, ssize // entsize):
                off = soff + k * entsize
                if self._is64:
                    name, info, _, shndx = struct.unpack_from(e + "IBBH", data, off)
                else:
                    name, _, _, info, _, shndx = struct.unpack_from(e + "IIIBBH", data, off)
                if shndx == 0:
                    continue  # undefined: imported, not exported
                end = data.index(b"\0", stroff + name)
                self.dynamic_symbols.add(data[stroff + name:end].decode())


def _script_interpreter(path):
    """The interpreter of a '#!' script (its first word, resolved), or None."""
    try:
        with open(path, "rb") as f:
            line = f.readline(256)
    except OSError:
        return None
    if not line.startswith(b"#!"):
        return None
    words = line[2:].decode(errors="replace").split()
    if not words:
        return None
    if os.path.basename(words[0]) == "env" and len(words) > 1:
        return shutil.which(words[1])
    return words[0]


def _other_preloads(env, ours):
    libs = [p for p in env.get("LD_PRELOAD", "").replace(":", " ").split() if p != ours]
    try:
        with open("/etc/ld.so.preload") as f:
            libs += f.read().split()
    except OSError:
        pass
    return libs


def loader_problems(prog, env, ours):
    """Reasons the library cannot load into prog, and warnings."""
    problems, warnings = [], []
    target, seen = prog, set()
    while target and target not in seen:
        seen.add(target)
        interp = _script_interpreter(target)
        if interp:
            target = interp
            continue
        elf = Elf(target)
        if not elf.is_elf:
            warnings.append(f"{target} is neither ELF nor a '#!' script: cannot tell how it starts")
        elif elf.interp is None:
            problems.append(f"{target} is a static executable: no dynamic loader runs, so LD_PRELOAD "
                            "loads nothing (link it dynamically, or link the CUDA runtime shared: "
                            "nvcc -cudart shared)")
        elif not os.path.exists(elf.interp):
            problems.append(f"{target} asks for the dynamic loader {elf.interp}, which is not there")
        break
    for lib in _other_preloads(env, ours):
        if "dlsym" in Elf(lib).dynamic_symbols:
            warnings.append(f"another preloaded library exports dlsym: {lib}; the first one in "
                            "LD_PRELOAD answers the program's dlsym, and the driver functions it hands "
                            "out may bypass the cache")
    return problems, warnings


def _hints(reports, env):
    """Hints from the run: the PyTorch one only where a process had PyTorch
    loaded (the library saw libtorch* or libc10* among its objects)."""
    hints = []
    torch = any(r.get("torch") for r in reports)
    if torch and env.get("PYTORCH_NO_CUDA_MEMORY_CACHING") != "1":
        hints.append("for PyTorch, set PYTORCH_NO_CUDA_MEMORY_CACHING=1: otherwise PyTorch's own cache "
                     "serves its tensors and this library sees only its few large segments")
    for var in PYTORCH_CONF_VARS:
        if env.get(var):
            hints.append(f"{var}={env[var]} is not read by cachemalloc (and PyTorch ignores it when "
                         "PYTORCH_NO_CUDA_MEMORY_CACHING=1): put its keys in CACHEMALLOC_CONF, whose "
                         "syntax is PyTorch's where the keys overlap")
    return hints


def _mib(n):
    return f"{n / 1048576:.1f} MiB"


def report(reports, problems, warnings, hints, out):
    p = lambda s="": print(f"cachemalloc check: {s}", file=out)
    used = [r for r in reports if r.get("device_used")]
    if not reports:
        p("the library was NOT loaded (no process wrote its statistics)")
        for why in problems or ["the program's exit ran no exit handlers (_exit, a crash or a signal), "
                                "or it cleared LD_PRELOAD, runs setuid, or started a static executable"]:
            p(f"  why: {why}")
    else:
        p(f"the library was loaded in {len(reports)} process{'es' if len(reports) > 1 else ''}; "
          f"{len(used)} used a CUDA device")
        levels = sorted({lv for r in reports for lv in r.get("levels", [])},
                        key=["runtime", "driver", "lookups"].index)
        p(f"  levels seen: {', '.join(levels) if levels else 'none (no allocation reached the library)'}")
        tot = lambda k: sum(r.get(k, 0) for r in used)
        p(f"  allocations served: {tot('alloc_calls') - tot('oom_count')} "
          f"(cache hits {tot('cache_hits')}, raw device allocations {tot('raw_alloc_calls')}, "
          f"refused {tot('oom_count')})")
        p(f"  peak reserved: {_mib(max([r.get('peak_reserved_bytes', 0) for r in used], default=0))}"
          + (" (the largest of the processes)" if len(used) > 1 else ""))
        if not used:
            p("  no CUDA device was used: the program made no CUDA allocation, or found no device")
    for w in warnings:
        p(f"  warning: {w}")
    for h in hints:
        p(f"  hint: {h}")


def run_check(lib, prog_args, conf, out=sys.stderr):
    prog = shutil.which(prog_args[0]) or prog_args[0]
    env = dict(os.environ)
    problems, warnings = loader_problems(prog, env, lib)
    with tempfile.TemporaryDirectory(prefix="cachemalloc-check.") as d:
        stats = os.path.join(d, "stats.%p.json")
        env["CACHEMALLOC_CONF"] = ",".join(c for c in (conf, f"stats:exit-json:{stats}") if c)
        env["LD_PRELOAD"] = lib + (":" + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
        try:
            rc = subprocess.call(prog_args, env=env)
        except OSError as e:
            print(f"cachemalloc check: cannot run {prog_args[0]}: {e.strerror}", file=out)
            return 127
        reports = []
        for path in sorted(glob.glob(os.path.join(d, "stats.*.json"))):
            try:
                with open(path) as f:
                    reports.append(json.load(f))
            except (OSError, ValueError):
                warnings.append(f"unreadable statistics file {os.path.basename(path)}")
    report(reports, problems, warnings, _hints(reports, os.environ), out)
    status = rc if rc >= 0 else 128 - rc
    print(f"cachemalloc check: the program exited with status {status}", file=out)
    return status
