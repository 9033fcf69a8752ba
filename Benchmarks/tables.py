#!/usr/bin/env python3
"""The tables of docs/Benchmarks.md, "Current figures", from `modelstore-bench --json` reports.

    swift run -c release modelstore-bench --n 20000 --repeat 11 --json > /tmp/sqlite-1.json
    swift run -c release modelstore-bench --n 20000 --repeat 11 --json > /tmp/sqlite-2.json
    python3 Benchmarks/tables.py /tmp/sqlite-1.json /tmp/sqlite-2.json

One report gives one value a cell; two consecutive runs of one store give "run 1 / run 2" in the
time and ratio cells, with the peak memory and page faults of the first run. Each ratio is the
report's own (the median of its repetitions' paired ratios), and the last line the reports' maxima
over the workloads with a target. `growth.py --pooled` prints the same columns for a size's rounds
pooled, through `pooled` below.
"""

import json
import statistics
import sys

HEADER = ("| workload | {generated} | {hand} | ratio | CPU ratio | peak +memory generated / hand-written "
          "| page faults generated / hand-written |")
RULE = "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"


def memory(generated_bytes, hand_bytes):
    return f"{generated_bytes / 1048576:.1f} / {hand_bytes / 1048576:.1f} MB"


def row(name, title, generated, hand, ratio, cpu, memory_cell, faults_cell):
    return f"| `{name}`: {title} | {generated} | {hand} | {ratio} | {cpu} | {memory_cell} | {faults_cell} |"


def runs(reports):
    """The table of one report, or of two consecutive runs of one store ("run 1 / run 2")."""
    first = reports[0]
    if len(reports) == 1:
        lines = [f"N = {first['rowCount']:,}, median of {first['repetitions']} repetitions; "
                 f"load average {first['loadAverageAtStart']:.1f}–{first['loadAverageAtEnd']:.1f}.", "",
                 HEADER.format(generated="generated s", hand="hand-written s"), RULE]
    else:
        loads = ", ".join(f"load average {r['loadAverageAtStart']:.1f}–{r['loadAverageAtEnd']:.1f} (run {index + 1})"
                          for index, r in enumerate(reports))
        lines = [f"N = {first['rowCount']:,}, median of {first['repetitions']} repetitions each run; {loads}.", "",
                 HEADER.format(generated="generated s (run 1 / 2)", hand="hand-written s (run 1 / 2)"), RULE]

    def joined(values, digits):
        return " / ".join("-" if value is None else f"{value:.{digits}f}" for value in values)

    for workload in first["workloads"]:
        name = workload["name"]
        matches = [next(w for w in r["workloads"] if w["name"] == name) for r in reports]
        if not all(m.get("generated") and m.get("handWritten") for m in matches):
            continue
        generated, hand = workload["generated"], workload["handWritten"]
        lines.append(row(name, workload["title"],
                         joined([m["generated"]["wallSeconds"] for m in matches], 3),
                         joined([m["handWritten"]["wallSeconds"] for m in matches], 3),
                         joined([m["ratio"] for m in matches], 2), joined([m["cpuRatio"] for m in matches], 2),
                         memory(generated["peakAdditionalBytes"], hand["peakAdditionalBytes"]),
                         f"{generated['minorFaults']} / {hand['minorFaults']}"))
    lines += ["", f"max ratio (workloads with a target): {joined([r['maxRatio'] for r in reports], 2)}; "
                  f"max CPU ratio: {joined([r['maxCPURatio'] for r in reports], 2)}."]
    return "\n".join(lines)


def pooled(reports):
    """The table of one size's rounds pooled: times and ratios over every repetition of every
    round (a ratio the median of the repetitions' own ratios), peak memory and page faults the
    rounds' median, the maxima over the workloads with a target."""
    loads = [value for r in reports for value in (r["loadAverageAtStart"], r["loadAverageAtEnd"])]
    count = sum(r["repetitions"] for r in reports)
    lines = [f"N = {reports[0]['rowCount']:,}, median of {count} repetitions in {len(reports)} rounds; "
             f"load average {min(loads):.1f}–{max(loads):.1f}.", "",
             HEADER.format(generated="generated s", hand="hand-written s"), RULE]
    worst = worst_cpu = None
    for first in reports[0]["workloads"]:
        name = first["name"]
        matches = [next(w for w in r["workloads"] if w["name"] == name) for r in reports]
        if not all(m.get("generated") and m.get("handWritten") for m in matches):
            continue
        pairs = [(g, h) for m in matches for g, h in zip(m["generated"]["samples"], m["handWritten"]["samples"])]
        ratio = statistics.median(g["wallSeconds"] / h["wallSeconds"] for g, h in pairs)
        cpu = statistics.median(g["cpuSeconds"] / h["cpuSeconds"] for g, h in pairs)
        if first.get("hasTarget"):
            worst = max(worst or 0, ratio)
            worst_cpu = max(worst_cpu or 0, cpu)
        rounds = {(side, key): statistics.median_low(m[side][key] for m in matches)
                  for side in ("generated", "handWritten") for key in ("peakAdditionalBytes", "minorFaults")}
        lines.append(row(name, first["title"],
                         f"{statistics.median(g['wallSeconds'] for g, _ in pairs):.3f}",
                         f"{statistics.median(h['wallSeconds'] for _, h in pairs):.3f}",
                         f"{ratio:.2f}", f"{cpu:.2f}",
                         memory(rounds["generated", "peakAdditionalBytes"], rounds["handWritten", "peakAdditionalBytes"]),
                         f"{rounds['generated', 'minorFaults']} / {rounds['handWritten', 'minorFaults']}"))
    if worst is not None:
        lines += ["", f"max ratio (workloads with a target): {worst:.2f}; max CPU ratio: {worst_cpu:.2f}."]
    return "\n".join(lines)


def main():
    paths = sys.argv[1:]
    if not 1 <= len(paths) <= 2:
        sys.exit("usage: tables.py RUN1.json [RUN2.json]")
    reports = []
    for path in paths:
        with open(path) as file:
            reports.append(json.load(file))
    if len({(r["store"], r["rowCount"]) for r in reports}) != 1:
        sys.exit("tables.py: the two reports are not of one store and size")
    print(runs(reports))


if __name__ == "__main__":
    main()
