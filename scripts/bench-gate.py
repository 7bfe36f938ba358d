#!/usr/bin/env python3
"""The benchmarks' gate: reads the app's figures as `make bench` prints them (a name in the
first 58 columns, then the value, its first number the figure; lower is better), prints each
line again, with REGRESSED where the figure is more than 20% above the one recorded in FIGURES
(the last committed: docs/bench-figures.tsv), and a count at the end. With --record, FIGURES is
written anew from this run, with the date and commit (commit it with the change it measured).
Timings are never pass or fail: a REGRESSED line asks for the builds to be alternated.

    fakenft-bench | scripts/bench-gate.py [--record] FIGURES
"""
import datetime, re, subprocess, sys

record = "--record" in sys.argv
path = [a for a in sys.argv[1:] if a != "--record"][0]
NAME, LIMIT = 58, 1.2
number = re.compile(r"-?\d+(?:\.\d+)?")

recorded = {}
try:
    with open(path) as file:
        for line in file:
            if line.startswith("#") or "\t" not in line:
                continue
            name, value = line.rstrip("\n").split("\t")[:2]
            recorded[name] = float(value)
except FileNotFoundError:
    pass

measured, regressed = {}, 0
for line in sys.stdin:
    line = line.rstrip("\n")
    name, value = line[:NAME].strip(), line[NAME + 1:]
    found = number.search(value) if len(line) > NAME + 1 and line[NAME] == " " and name else None
    if found:
        figure = float(found.group())
        measured[name] = figure
        was = recorded.get(name)
        if was is not None and was > 0 and figure > was * LIMIT:
            regressed += 1
            line += f"   REGRESSED (recorded {was:g}, +{(figure / was - 1) * 100:.0f}%)"
    print(line, flush=True)

print(f"\n{len(measured)} figures, {sum(n in recorded for n in measured)} compared with {path}: "
      f"{regressed} REGRESSED past {(LIMIT - 1) * 100:.0f}%")
if record:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    with open(path, "w") as file:
        file.write(f"# make bench's app figures, {datetime.date.today()}, {commit} (lower is better)\n")
        for name, figure in measured.items():
            file.write(f"{name}\t{figure:g}\n")
    print(f"recorded in {path}")
