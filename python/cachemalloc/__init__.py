"""cachemalloc, the caching GPU allocator preloaded into CUDA programs.

    import cachemalloc
    cachemalloc.library_path()   # the libcachemalloc.so to preload

The library must be loaded before the CUDA runtime, so it is set for a new
process (PyTorch, CuPy and JAX load the runtime on import):

    LD_PRELOAD=$(python3 -m cachemalloc) python3 train.py

The command `cachemalloc` (cli.py) runs, checks and replays programs.
Where things are installed comes from _config.py, which meson generates
from _config.py.in; in the source tree (scripts/cachemalloc sets
CACHEMALLOC_BUILD_DIR) the build directory is used instead.
"""
import json
import os
import pathlib

try:
    from . import _config
except ImportError:  # the source tree
    _config = None



def _build_dir():
    d = os.environ.get("CACHEMALLOC_BUILD_DIR")
    return pathlib.Path(d) if d and not _config else None


def _source_version():
    """The build directory's project version (meson's introspection)."""
    build = _build_dir()
    try:
        with open(build / "meson-info" / "intro-projectinfo.json") as f:
            return json.load(f)["version"]
    except (OSError, ValueError, KeyError, TypeError):
        return "0+source"


__version__ = _config.VERSION if _config else _source_version()


def _install_root(start, installed_dir):
    """The installation root (prefix, or prefix under a --destdir), seen
    from start, a folder meson installed at installed_dir."""
    if not _config:
        return None
    rel = os.path.relpath(installed_dir, _config.PREFIX)
    if rel.startswith(".."):
        return pathlib.Path(_config.PREFIX)
    root = pathlib.Path(start).resolve()
    for part in pathlib.Path(rel).parts:
        if part not in ("", "."):
            root = root.parent
    return root


def _under(root, configured):
    """configured (absolute, under PREFIX) as seen from root."""
    rel = os.path.relpath(configured, _config.PREFIX)
    return root / rel if not rel.startswith("..") else pathlib.Path(configured)


def _candidates_lib():
    here = pathlib.Path(__file__).resolve().parent
    build = _build_dir()
    if build:
        yield build / "interpose" / "libcachemalloc.so"
        return
    yield here.parent / ".cachemalloc.mesonpy.libs" / "libcachemalloc.so"
    if _config:
        root = _install_root(here.parent, _config.PYTHONDIR)
        yield _under(root, _config.LIBDIR) / "libcachemalloc.so"
        yield pathlib.Path(_config.LIBDIR) / "libcachemalloc.so"


def library_path():
    """The path of the installed libcachemalloc.so: the copy a pip install
    put beside this package (.cachemalloc.mesonpy.libs), else the one meson
    installed in the library folder of this installation (also under a
    --destdir), else at the configured prefix. FileNotFoundError if there
    is none (the library is built only where CUDA's headers are found)."""
    for candidate in _candidates_lib():
        if candidate.is_file():
            return str(candidate)
    raise FileNotFoundError(
        "libcachemalloc.so is not installed: it is built only where CUDA's headers are found "
        "(meson option cudatoolkit_path)")


def helper_path(name, bindir=None):
    """The path of a helper program (cachemalloc-replay, cachemalloc-demo):
    beside the command (bindir), in this installation's bin folder, in the
    build directory (source tree), or at the configured prefix."""
    cands = []
    build = _build_dir()
    if build:
        cands += [build / "scripts" / name, build / "examples" / name]
    if bindir:
        cands.append(pathlib.Path(bindir) / name)
    if _config:
        here = pathlib.Path(__file__).resolve().parent
        root = _install_root(here.parent, _config.PYTHONDIR)
        cands += [_under(root, _config.BINDIR) / name, pathlib.Path(_config.BINDIR) / name]
    for c in cands:
        if c.is_file() and os.access(c, os.X_OK):
            return str(c)
    raise FileNotFoundError(f"{name} is not installed (it is built where zlib is found: "
                            "apt-get install zlib1g-dev)")
