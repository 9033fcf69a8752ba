#!/usr/bin/env python3
"""Each modelstore-bench workload at several sizes: cost per row on each side, and its growth.

    swift build -c release --product modelstore-bench
    python3 Benchmarks/growth.py [--sqlite 20000,200000,1000000] [--postgresql 20000,200000]
                                 [--rounds 3] [--only insert,fetchAll] [--keep DIR] [--from DIR]
                                 [--pooled 200000]

Runs the release bench with `--json` per store and size (`--repeat 3`, `--repeat 1` from
1,000,000 rows on), in rounds: each round runs every size of the store once, in increasing order
in even rounds and decreasing order in odd ones, so a drift of the machine's speed during the run
(which moves this machine's timings by up to a third within minutes) falls on every size alike
instead of on the sizes run last. Then it prints, per store, a Markdown table: each side's
wall-clock microseconds per row (per fetch for the lookups, which fetch the same 1,000 trips at
every size) at each size, the median of every repetition of every round at that size, and the
growth: the per-row cost at the largest size over the one at the smallest (the target is at most
1.2; below 1, a fixed cost spread over more rows), and the generated side's growth over the
hand-written side's (above 1: the runtime's cost per row grows more than the store's own).
`--keep` saves the JSON reports (STORE-N-rR.json, R the round); `--from` prints the tables of
reports saved before, running nothing. `--pooled N` also prints, per store, the table of size N
with its rounds pooled (`tables.pooled`). docs/Benchmarks.md, "Growth" and "Current figures".
"""

import argparse
import glob
import json
import os
import statistics
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree for the import below
from tables import pooled  # Benchmarks/tables.py: the tables' layout  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, ".build", "release", "modelstore-bench")


def sizes(text):
    return [int(part) for part in text.split(",") if part]


def run(store, rows, only, keep, round_):
    repeat = "1" if rows >= 1_000_000 else "3"
    command = [BENCH, "--store", store, "--n", str(rows), "--repeat", repeat, "--json"]
    if only:
        command += ["--only", only]
    print(f"running {' '.join(command[1:])}", file=sys.stderr, flush=True)
    done = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True)
    report = json.loads(done.stdout)
    if keep:
        with open(os.path.join(keep, f"{store}-{rows}-r{round_}.json"), "w") as file:
            file.write(done.stdout)
    return report


def saved(folder, store, rows):
    """The reports of one store and size saved with --keep, every round's."""
    reports = []
    for path in sorted(glob.glob(os.path.join(folder, f"{store}-{rows}-r*.json"))):
        with open(path) as file:
            reports.append(json.load(file))
    return reports


def cost_per_row(reports, name, side):
    """Microseconds per row of `side` on workload `name`: the median of every repetition of
    every report (round) of one size; None where the side did not run."""
    walls = []
    rows = None
    for report in reports:
        match = next((w for w in report["workloads"] if w["name"] == name), None)
        if match and match.get(side) and match[side]["rows"]:
            rows = match[side]["rows"]
            walls += [sample["wallSeconds"] for sample in match[side]["samples"]]
    if not walls:
        return None
    return statistics.median(walls) / rows * 1e6


def table(store, sized):
    """A Markdown table of per-row costs for one store: `sized` holds, per size in increasing
    order, the reports of its rounds."""
    def describe(reports):
        first = reports[0]
        loads = [value for r in reports for value in (r["loadAverageAtStart"], r["loadAverageAtEnd"])]
        count = sum(r["repetitions"] for r in reports)
        return (f"N = {first['rowCount']:,} (load {min(loads):.1f}–{max(loads):.1f}, "
                f"median of {count} repetitions in {len(reports)} round{'s' if len(reports) > 1 else ''})")
    lines = [f"{store}: " + ", ".join(describe(reports) for reports in sized), ""]
    sizes_ = [f"{reports[0]['rowCount'] // 1000:,}k" for reports in sized]
    header = (["workload"] + [f"generated µs/row {s}" for s in sizes_] + ["growth"]
              + [f"hand-written µs/row {s}" for s in sizes_] + ["growth", "generated growth / hand-written growth"])
    lines.append("| " + " | ".join(header) + " |")
    lines.append("| --- |" + " ---: |" * (len(header) - 1))
    worst = {"generated": (0.0, ""), "handWritten": (0.0, "")}
    for workload in sized[0][0]["workloads"]:
        name = workload["name"]
        row = [name]
        growths = {}
        for side in ("generated", "handWritten"):
            costs = [cost_per_row(reports, name, side) for reports in sized]
            row += ["–" if c is None else f"{c:.2f}" for c in costs]
            known = [c for c in costs if c]
            growth = known[-1] / known[0] if len(known) > 1 else None
            growths[side] = growth
            if growth and growth > worst[side][0]:
                worst[side] = (growth, name)
            row.append("–" if growth is None else f"{growth:.2f}")
        relative = growths["generated"] / growths["handWritten"] if growths["generated"] and growths["handWritten"] else None
        row.append("–" if relative is None else f"{relative:.2f}")
        lines.append("| " + " | ".join(row) + " |")
    if worst["generated"][1] or worst["handWritten"][1]:
        lines.append("largest growth: " + ", ".join(
            f"{label} {worst[side][0]:.2f} ({worst[side][1]})" for side, label in (("generated", "generated"), ("handWritten", "hand-written"))
            if worst[side][1]))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sqlite", type=sizes, default=[20_000, 200_000, 1_000_000])
    parser.add_argument("--postgresql", type=sizes, default=[20_000, 200_000])
    parser.add_argument("--rounds", type=int, default=3, help="times each size runs, in alternating order (default 3)")
    parser.add_argument("--only", default="")
    parser.add_argument("--keep", help="a folder to save the JSON reports in (STORE-N-rR.json)")
    parser.add_argument("--pooled", type=int, help="also print the table of this size, its rounds pooled")
    parser.add_argument("--from", dest="source", help="print the tables of reports saved with --keep")
    arguments = parser.parse_args()
    if arguments.rounds < 1:
        parser.error("--rounds must be at least 1")
    if not arguments.source and not os.path.exists(BENCH):
        sys.exit(f"{BENCH} is missing: swift build -c release --product modelstore-bench")
    if arguments.keep:
        os.makedirs(arguments.keep, exist_ok=True)
    for store, rows in (("sqlite", arguments.sqlite), ("postgresql", arguments.postgresql)):
        if arguments.source:
            sized = [r for r in (saved(arguments.source, store, n) for n in rows) if r]
        else:
            sized = [[] for _ in rows]
            for round_ in range(arguments.rounds):
                order = list(range(len(rows))) if round_ % 2 == 0 else list(reversed(range(len(rows))))
                for index in order:
                    sized[index].append(run(store, rows[index], arguments.only, arguments.keep, round_))
        if sized:
            print(table(store, sized))
            print()
            for reports in sized:
                if arguments.pooled == reports[0]["rowCount"]:
                    print(f"{store}:")
                    print(pooled(reports))
                    print()


if __name__ == "__main__":
    main()
