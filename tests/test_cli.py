"""The command `cachemalloc` (python/cachemalloc/cli.py) from the source
tree on this build: every subcommand answers --help and is in the manual
page; replay honours CACHEMALLOC_CONF with --conf over it, says which
configuration it used and writes valid JSON whatever the path; check on a
CUDA program, on /bin/true, on a static executable and on a failing
program (the exit status is the program's), with its hints.
usage: test_cli.py BUILD_DIR SOURCE_DIR MAN_PAGE"""
import json
import os
import re
import subprocess
import sys
import tempfile

from checks import check, finish

BUILD, SRC, MAN = sys.argv[1], sys.argv[2], sys.argv[3]
COMMANDS = ("run", "check", "replay", "plot", "convert", "options", "demo", "library", "top", "trim")


def tool(*args, env=None, conf=None):
    e = dict(os.environ, PYTHONPATH=os.path.join(SRC, "python"), CACHEMALLOC_BUILD_DIR=BUILD,
             ASAN_OPTIONS="verify_asan_link_order=0")
    e.pop("CACHEMALLOC_CONF", None)
    if conf is not None:
        e["CACHEMALLOC_CONF"] = conf
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "cachemalloc", *args], capture_output=True, text=True,
                          env=e, timeout=120)


man = open(MAN).read()
top = tool("--help")
version = tool("--version").stdout.strip()
check(f'"{version}"' in man.splitlines()[0], f"the manual page names {version}", man.splitlines()[0])
# Under PYTORCH_NO_CUDA_MEMORY_CACHING=1 an out-of-memory is no torch.OutOfMemoryError: both
# documents say which exception to catch.
readme = open(os.path.join(SRC, "README.md")).read()
for doc, text in (("README.md", readme), ("cachemalloc(1)", man)):
    check(all(w in text for w in ("PYTORCH_NO_CUDA_MEMORY_CACHING=1", "CUDA error: out of memory",
                                   "torch.OutOfMemoryError", "RuntimeError")),
          f"{doc} says which exception an out-of-memory raises without PyTorch's cache")
for c in COMMANDS:
    p = tool(c, "--help")
    check(p.returncode == 0 and "usage: cachemalloc " + c in p.stdout, f"{c} --help", p.stdout + p.stderr)
    check(f".SS {c}\n" in man, f"the manual page has a section for {c}")
    check(c in top.stdout, f"cachemalloc --help lists {c}")

with tempfile.TemporaryDirectory() as d:
    trace = os.path.join(d, 'a "quoted" \\ name.csv')
    with open(trace, "w") as f:
        f.write("action,addr,size,stream\n")
        for i in range(40):
            f.write(f"alloc,{4096 + i * 8192},{(i % 7 + 1) << 21},0\n")
        for i in range(40):
            f.write(f"free_completed,{4096 + i * 8192},{(i % 7 + 1) << 21},0\n")

    def replay(conf=None, *more):
        p = tool("replay", trace, "--json", *more, conf=conf)
        try:
            return p, json.loads(p.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            check(False, "replay --json prints valid JSON", p.stdout + p.stderr)
            return p, {}

    p, j = replay("expandable_segments:True")
    check(j.get("trace") == trace, f"JSON keeps the path with quotes and a backslash: {j.get('trace')!r}")
    check(j.get("conf") == "expandable_segments:True" and j.get("vmm_maps", 0) > 0,
          "replay honours CACHEMALLOC_CONF", str(j))
    check("configuration    expandable_segments:True" in p.stdout, "replay prints the configuration", p.stdout)
    p, j = replay("expandable_segments:True", "--conf", "expandable_segments:False")
    check(j.get("conf") == "expandable_segments:True,expandable_segments:False" and j.get("vmm_maps") == 0,
          "--conf comes after CACHEMALLOC_CONF and wins", str(j))

    prog = os.path.join(BUILD, "tests", "integration", "prog_single_stream")
    if os.path.exists(os.path.join(BUILD, "interpose", "libcachemalloc.so")):
        p = tool("check", "--", prog)
        check(p.returncode == 0 and "was loaded in 1 process;" in p.stderr and
              re.search(r"allocations served: 20000 \(cache hits \d+", p.stderr) and
              "levels seen: runtime" in p.stderr, "check on a CUDA program", p.stderr)
        p = tool("check", "--", "/bin/true")
        check(p.returncode == 0 and "0 used a CUDA device" in p.stderr, "check on /bin/true: loaded, no device",
              p.stderr)
        # log_level: warnings (bad entries) and errors (a statistics file not written) are shown
        # by default and not under quiet; info adds a line when the cache starts.
        bad = "foo:1,stats:exit-json:/nonexistent-dir/s.json"
        p = tool("run", "--", prog, conf=bad)
        check(p.returncode == 0 and 'unknown key "foo"' in p.stderr and "cannot write statistics" in p.stderr and
              "the cache serves" not in p.stderr, "log_level default: warnings and errors", p.stderr)
        p = tool("run", "--", prog, conf=bad + ",log_level:quiet")
        check(p.returncode == 0 and p.stderr == "", "log_level:quiet prints nothing", p.stderr)
        p = tool("run", "--", prog, conf=bad + ",log_level:errors")
        check(p.returncode == 0 and "foo" not in p.stderr and "cannot write statistics" in p.stderr,
              "log_level:errors: the errors only", p.stderr)
        p = tool("run", "--", prog, conf="log_level:info")
        check(p.returncode == 0 and re.search(r"cachemalloc: pid \d+: the cache serves 1 device", p.stderr),
              "log_level:info: a line when the cache starts", p.stderr)
        p = tool("check", "--", "/bin/sh", "-c", "exit 3")
        check(p.returncode == 3, f"check exits with the program's status (3): {p.returncode}", p.stderr)
        # The PyTorch hint only where PyTorch is loaded (a stand-in libc10_cuda.so here), not for
        # any command that names python.
        p = tool("check", "--", "python3", "-c", "print(1)", env={"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"})
        check("hint: for PyTorch" not in p.stderr and "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
              "is not read" in p.stderr, "check: no PyTorch hint for python without torch", p.stderr)
        c10 = os.path.join(d, "libc10_cuda.so")
        open(os.path.join(d, "c10.c"), "w").write("int c10_stand_in;\n")
        if subprocess.run(["cc", "-shared", "-fPIC", "-o", c10, os.path.join(d, "c10.c")]).returncode == 0:
            load = ["python3", "-c", f"import ctypes; ctypes.CDLL({c10!r})"]
            p = tool("check", "--", *load)
            check("hint: for PyTorch, set PYTORCH_NO_CUDA_MEMORY_CACHING=1" in p.stderr,
                  "check: the PyTorch hint where libc10_cuda.so is loaded", p.stderr)
            p = tool("check", "--", *load, env={"PYTORCH_NO_CUDA_MEMORY_CACHING": "1"})
            check("hint: for PyTorch" not in p.stderr, "check: no hint with PyTorch's cache off", p.stderr)
        src = os.path.join(d, "st.c")
        open(src, "w").write("int main(void) { return 4; }\n")
        static = os.path.join(d, "st")
        if subprocess.run(["cc", "-static", "-o", static, src], capture_output=True).returncode == 0:
            p = tool("check", "--", static)
            check(p.returncode == 4 and "NOT loaded" in p.stderr and "is a static executable" in p.stderr,
                  "check on a static executable", p.stderr)
        else:
            print("no static libc here: the static executable case is skipped")
    # plot with the first interpreter that has matplotlib (Debian's python3-matplotlib serves
    # /usr/bin/python3): two modes by default, each replay's report in the JSON.
    for py in (sys.executable, "/usr/bin/python3"):
        if subprocess.run([py, "-c", "import matplotlib"], capture_output=True).returncode == 0:
            png = os.path.join(d, "t.png")
            e = dict(os.environ, PYTHONPATH=os.path.join(SRC, "python"), CACHEMALLOC_BUILD_DIR=BUILD)
            e.pop("CACHEMALLOC_CONF", None)
            p = subprocess.run([py, "-m", "cachemalloc", "plot", trace, png, "--json"], capture_output=True,
                               text=True, env=e, timeout=120)
            try:
                j = json.loads(p.stdout.strip().splitlines()[-1])
            except (ValueError, IndexError):
                j = {}
            check(p.returncode == 0 and os.path.getsize(png) > 1000 and
                  [r["conf"] for r in j.get("replays", [])] == ["", "expandable_segments:True"] and
                  "plot: configuration expandable_segments:True" in p.stderr, "plot", p.stdout + p.stderr)
            break
    else:
        print("no python with matplotlib: plot is not run")
    # Another preload that exports dlsym is named (read from its dynamic symbols).
    src = os.path.join(d, "other.c")
    open(src, "w").write("void *dlsym(void *h, const char *n) { (void)h; (void)n; return 0; }\n")
    other = os.path.join(d, "libother.so")
    if subprocess.run(["cc", "-shared", "-fPIC", "-o", other, src], capture_output=True).returncode == 0:
        sys.path.insert(0, os.path.join(SRC, "python"))
        from cachemalloc.check import loader_problems
        problems, warnings = loader_problems("/bin/true", {"LD_PRELOAD": f"/ours.so:{other}"}, "/ours.so")
        check(not problems and any("exports dlsym: " + other in w for w in warnings),
              "check names another preload exporting dlsym", str(warnings))
        problems, warnings = loader_problems("/bin/true", {"LD_PRELOAD": "/ours.so"}, "/ours.so")
        check(not any("dlsym" in w for w in warnings), "no dlsym warning without another preload", str(warnings))
    # scripts/cachemalloc demo on a fresh machine says what it does, one line per step, before
    # the demo's output: stand-ins for apt-get, pkg-config (zlib missing), meson, ninja (3 steps
    # out of date) and python3 (the demo itself) first in PATH, a build folder not set up.
    shims = os.path.join(d, "shims")
    os.makedirs(shims)
    stand_ins = {
        "apt-get": 'echo "apt-get $*" >>"$SHIM_LOG"',
        "sudo": 'exec "$@"',
        "pkg-config": "exit 1",
        "meson": 'echo "meson $*" >>"$SHIM_LOG"; [ "$1" = setup ] && mkdir -p "$2" && : >"$2/build.ninja"; exit 0',
        "ninja": 'printf "[1/3] cc a\\n[2/3] cc b\\n[3/3] ld c\\n"',
        "python3": 'echo "demo output"',
    }
    for name, body in stand_ins.items():
        with open(os.path.join(shims, name), "w") as f:
            f.write(f"#!/bin/sh\n{body}\n")
        os.chmod(os.path.join(shims, name), 0o755)
    fresh = os.path.join(d, "fresh-build")
    e = dict(os.environ, PATH=shims + os.pathsep + os.environ["PATH"], CACHEMALLOC_BUILD_DIR=fresh,
             SHIM_LOG=os.path.join(d, "shim.log"))
    p = subprocess.run(["bash", os.path.join(SRC, "scripts", "cachemalloc"), "demo"], capture_output=True, text=True,
                       env=e, timeout=60)
    steps = [line for line in p.stderr.splitlines() if line.startswith("cachemalloc: ")]
    want = ["cachemalloc: apt-get update (to install zlib1g-dev)", "cachemalloc: apt-get install zlib1g-dev",
            f"cachemalloc: meson setup {fresh} (configuring)", f"cachemalloc: meson compile -C {fresh} (3 steps"]
    check(p.returncode == 0 and len(steps) == 4 and all(s.startswith(w) for s, w in zip(steps, want)) and
          p.stdout == "demo output\n", "scripts/cachemalloc demo: one line per step", p.stdout + p.stderr)
    p = tool("options")
    check(p.returncode == 0 and "memory_limit_mb" in p.stdout and "metrics" in p.stdout, "options", p.stderr)

finish("cli")
