"""python3 -m cachemalloc: prints the path of libcachemalloc.so (for
LD_PRELOAD), or one line on stderr and exit status 1 if it is not installed.
With arguments, the command `cachemalloc` (python3 -m cachemalloc run -- ...)."""
import sys

from cachemalloc import library_path

if len(sys.argv) > 1:
    from cachemalloc.cli import main
    sys.exit(main(sys.argv[1:]))
try:
    print(library_path())
except FileNotFoundError as e:
    sys.exit(f"cachemalloc: {e}")
