"""The command `cachemalloc`: run, check, replay, plot, convert, options,
demo, library, top, trim (each with --help; the manual page is cachemalloc(1)).

Configuration: every subcommand that runs the library or the replayer
uses CACHEMALLOC_CONF from the environment, with --conf's entries after
it (a later entry of the same key wins), and says which it used.
"""
import argparse
import json
import os
import sys
import tempfile

import cachemalloc
from cachemalloc import check as check_mod

PROG = "cachemalloc"


def die(msg, status=1):
    print(f"{PROG}: {msg}", file=sys.stderr)
    sys.exit(status)


def merged_conf(conf_args):
    parts = [os.environ.get("CACHEMALLOC_CONF", "")] + list(conf_args or [])
    return ",".join(p.strip(",") for p in parts if p and p.strip(","))


def _library():
    try:
        return cachemalloc.library_path()
    except FileNotFoundError as e:
        die(str(e))


def _helper(name, bindir):
    try:
        return cachemalloc.helper_path(name, bindir)
    except FileNotFoundError as e:
        die(str(e))


def _program(args):
    prog = list(args.program)
    if prog[:1] == ["--"]:
        prog = prog[1:]
    if not prog:
        die(f"{args.command}: no program given; usage: {PROG} {args.command} [--conf C] -- PROG ARGS", 2)
    return prog


def cmd_run(args):
    prog = _program(args)
    lib = _library()
    env = dict(os.environ, CACHEMALLOC_CONF=merged_conf(args.conf))
    env["LD_PRELOAD"] = lib + (":" + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
    try:
        os.execvpe(prog[0], prog, env)
    except OSError as e:
        die(f"run: cannot run {prog[0]}: {e.strerror}", 127)


def cmd_check(args):
    return check_mod.run_check(_library(), _program(args), merged_conf(args.conf))


def _replay_cmd(args, trace, conf, extra):
    return [_helper("cachemalloc-replay", args.bindir), trace, *extra], dict(os.environ, CACHEMALLOC_CONF=conf)


def cmd_replay(args):
    conf = merged_conf(args.conf)
    extra = (["--json"] if args.json else []) + (["--timeline", args.timeline] if args.timeline else [])
    extra += (["--api", args.api] if args.api else []) + (["--fit"] if args.fit else [])
    extra += ["--pytorch-reserved", args.pytorch_reserved] if args.pytorch_reserved else []
    extra += ["--snapshot", args.snapshot] if args.snapshot else []
    argv, env = _replay_cmd(args, args.trace, conf, extra)
    os.execve(argv[0], argv, env)


def cmd_plot(args):
    import subprocess
    from cachemalloc import plot
    if not plot.have_matplotlib():
        die(f"plot: {sys.executable} has no matplotlib (Debian: apt-get install python3-matplotlib)")
    modes = args.conf or ["", "expandable_segments:True"]
    series, results = [], []
    with tempfile.TemporaryDirectory(prefix="cachemalloc-plot.") as d:
        for i, mode in enumerate(modes):
            conf = merged_conf([mode])
            timeline = os.path.join(d, f"{i}.csv")
            argv, env = _replay_cmd(args, args.trace, conf, ["--json", "--timeline", timeline])
            p = subprocess.run(argv, env=env, capture_output=True, text=True)
            if p.returncode != 0:
                die(f"plot: the replay failed with configuration '{conf}': {p.stderr.strip()}")
            result = json.loads(p.stdout.strip().splitlines()[-1])
            results.append(result)
            label = conf or "defaults"
            print(f"plot: configuration {label}: peak reserved {result['peak_reserved_bytes'] / 2**20:.1f} MiB",
                  file=sys.stderr)
            series.append(f"{label}={timeline}")
        plot.main([args.out, *series])
    if args.json:
        print(json.dumps({"trace": args.trace, "out": args.out, "replays": results}))
    return 0


def cmd_convert(args):
    from cachemalloc import convert
    argv = [args.snapshot, args.out] + (["--device", str(args.device)] if args.device is not None else [])
    return convert.main(argv)


def cmd_options(args):
    demo = _helper("cachemalloc-demo", args.bindir)
    os.execv(demo, [demo, "--options"])


def cmd_demo(args):
    demo = _helper("cachemalloc-demo", args.bindir)
    os.execv(demo, [demo, *args.args])


def cmd_library(args):
    print(_library())
    return 0


def parser():
    ap = argparse.ArgumentParser(prog=PROG, description="cachemalloc, a caching GPU memory allocator "
                                 "preloaded into unmodified CUDA programs. See cachemalloc(1).")
    ap.add_argument("--version", action="version", version=f"{PROG} {cachemalloc.__version__}")
    ap.add_argument("--bindir", help=argparse.SUPPRESS)  # the launcher's folder: the helpers are there
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    conf_help = "CACHEMALLOC_CONF entries added after the environment's (repeatable)"

    def program_cmd(name, helptext, fn):
        p = sub.add_parser(name, help=helptext, description=helptext)
        p.add_argument("--conf", action="append", metavar="C", help=conf_help)
        p.add_argument("program", nargs=argparse.REMAINDER, metavar="-- PROG ARGS")
        p.set_defaults(fn=fn)

    program_cmd("run", "run PROG with libcachemalloc.so preloaded", cmd_run)
    program_cmd("check", "run PROG under the library and report on stderr whether it was loaded, "
                "at which levels, what it served, and hints; exits with PROG's status", cmd_check)
    p = sub.add_parser("replay", help="replay an allocation trace (cachemalloc's CSV or RMM's event log) "
                       "on the simulated device", description="replay an allocation trace on the "
                       "simulated device and report what the cache reserves")
    p.add_argument("trace")
    p.add_argument("--conf", action="append", metavar="C", help=conf_help)
    p.add_argument("--json", action="store_true", help="also print the report as one JSON line")
    p.add_argument("--timeline", metavar="FILE", help="write op,live_bytes,reserved_bytes per operation")
    p.add_argument("--api", choices=["async", "malloc"], help="the calls replayed: async (default) "
                   "cudaMallocAsync/cudaFreeAsync on the trace's streams; malloc cudaMalloc/cudaFree, "
                   "as PyTorch with its cache off calls the library (streams ignored)")
    p.add_argument("--fit", action="store_true", help="also bisect the smallest simulated device (MiB) on "
                   "which the whole trace replays with no failed allocation, beside PyTorch's max reserved")
    p.add_argument("--pytorch-reserved", metavar="BYTES", help="PyTorch's max reserved for --fit (K, M, G "
                   "suffixes); default: max_reserved of the JSON beside the trace (NAME.json)")
    p.add_argument("--snapshot", metavar="FILE", help="after the replay, write the memory snapshot "
                   "PyTorch's viewer opens (the replay's actions recorded from its start)")
    p.set_defaults(fn=cmd_replay)
    p = sub.add_parser("plot", help="replay a trace once per configuration and draw reserved memory and "
                       "fragmentation (needs matplotlib)", description="replay TRACE once per --conf "
                       "(default: the defaults and expandable_segments:True) and draw the timelines")
    p.add_argument("trace")
    p.add_argument("out", metavar="OUT.png")
    p.add_argument("--conf", action="append", metavar="C", help="one mode, on top of CACHEMALLOC_CONF (repeatable)")
    p.add_argument("--json", action="store_true", help="print every replay's report as one JSON line")
    p.set_defaults(fn=cmd_plot)
    p = sub.add_parser("convert", help="convert a PyTorch or cachemalloc memory snapshot into a trace",
                       description="convert a memory snapshot (pickle) into a trace for replay")
    p.add_argument("snapshot")
    p.add_argument("out")
    p.add_argument("--device", type=int, metavar="N")
    p.set_defaults(fn=cmd_convert)
    p = sub.add_parser("options", help="the CACHEMALLOC_CONF keys, values and defaults",
                       description="print the CACHEMALLOC_CONF keys, values and defaults")
    p.set_defaults(fn=cmd_options)
    p = sub.add_parser("demo", help="the bundled workload with and without the cache",
                       description="run the bundled workload on the simulated device")
    p.add_argument("args", nargs=argparse.REMAINDER)
    p.set_defaults(fn=cmd_demo)
    p = sub.add_parser("library", help="print the path of libcachemalloc.so",
                       description="print the path of libcachemalloc.so (for LD_PRELOAD)")
    p.set_defaults(fn=cmd_library)
    from cachemalloc import top as top_mod  # top, trim: the registries (core/serve/share.h)
    top_mod.add_parsers(sub)
    return ap


def main(argv=None, bindir=None):
    ap = parser()
    args = ap.parse_args(argv)
    if bindir and not args.bindir:
        args.bindir = bindir
    if not args.command:
        ap.print_help()
        return 2
    return args.fn(args) or 0


def console():
    """The wheel's console script ([project.scripts] in pyproject.toml): the
    helpers (cachemalloc-replay, cachemalloc-demo) are beside it."""
    sys.exit(main(bindir=os.path.dirname(os.path.realpath(sys.argv[0]))))


if __name__ == "__main__":
    sys.exit(main())
