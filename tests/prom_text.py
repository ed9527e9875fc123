"""A strict parser of Prometheus' text exposition format (0.0.4), for the
metrics textfile the library writes (metrics:PATH). Used by
tests/integration/check_tools.py and by .ci/run, which also reads the file
with prometheus_client's parser where it is installed.
usage: prom_text.py FILE   (prints the families and samples; exit 1 if the
file breaks the format)"""
import math
import re
import sys

NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"'
SAMPLE = re.compile(rf"^({NAME})(?:\{{((?:{LABEL})(?:,{LABEL})*)?\}})? (\S+)(?: -?\d+)?$")
TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}


def parse_prometheus(text):
    """{(name, ((label, value), ...)): float} and {family: type}; raises
    ValueError naming the line that breaks the format."""
    if text and not text.endswith("\n"):
        raise ValueError("the last line does not end in a newline")
    types, samples, done, current = {}, {}, set(), None
    for n, line in enumerate(text.split("\n")[:-1], 1):
        if line.startswith("#"):
            parts = line.split(" ", 3)
            if len(parts) >= 3 and parts[1] in ("HELP", "TYPE"):
                if not re.fullmatch(NAME, parts[2]):
                    raise ValueError(f"line {n}: bad metric name {parts[2]!r}")
                if parts[1] == "TYPE":
                    if parts[2] in types or len(parts) != 4 or parts[3] not in TYPES:
                        raise ValueError(f"line {n}: bad or repeated TYPE: {line!r}")
                    if parts[2] in done:
                        raise ValueError(f"line {n}: TYPE after the family's samples")
                    types[parts[2]] = parts[3]
            continue
        if not line:
            raise ValueError(f"line {n}: empty line")
        m = SAMPLE.match(line)
        if not m:
            raise ValueError(f"line {n}: not a sample: {line!r}")
        name, labels, value = m.group(1), m.group(2) or "", m.group(3)
        fam = name if name in types else re.sub(r"_(total|sum|count|bucket)$", "", name)
        if current != fam:
            if fam in done:
                raise ValueError(f"line {n}: family {fam} is not contiguous")
            if current:
                done.add(current)
            current = fam
        key = (name, tuple(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', labels)))
        if key in samples:
            raise ValueError(f"line {n}: repeated series {key}")
        v = float(value)  # ValueError on junk; Nan/+Inf are valid floats
        if math.isnan(v) and value != "NaN":
            raise ValueError(f"line {n}: bad value {value!r}")
        samples[key] = v
    return samples, types




def main(path):
    text = open(path).read()
    try:
        samples, types = parse_prometheus(text)
    except ValueError as e:
        sys.exit(f"prom_text: {path}: {e}")
    print(f"prom_text: {path}: {len(types)} families, {len(samples)} samples (strict parser)")
    try:
        from prometheus_client.parser import text_string_to_metric_families
    except ImportError:
        return
    fams = list(text_string_to_metric_families(text))
    n = sum(len(f.samples) for f in fams)
    if n != len(samples):
        sys.exit(f"prom_text: {path}: prometheus_client reads {n} samples, the strict parser {len(samples)}")
    print(f"prom_text: {path}: prometheus_client parsed {len(fams)} families, {n} samples")


if __name__ == "__main__":
    main(sys.argv[1])
