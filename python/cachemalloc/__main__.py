"""python3 -m cachemalloc: prints the path of libcachemalloc.so (for
LD_PRELOAD), or one line on stderr and exit status 1 if it is not installed."""
import sys

from cachemalloc import library_path

try:
    print(library_path())
except FileNotFoundError as e:
    sys.exit(f"cachemalloc: {e}")
