"""tests/checks.py - the failure count of the Python test scripts: check()
says each failure as it comes, finish() ends the script with the count."""
import sys

failures = 0


def check(cond, what, detail=""):
    global failures
    if not cond:
        failures += 1
        print(f"FAIL: {what}" + (f"\n{detail}" if detail else ""))
    return cond


def finish(name):
    print(f"{'ok' if not failures else 'FAILED'}: {name}, {failures} failure(s)")
    sys.exit(1 if failures else 0)
