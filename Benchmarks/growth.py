#!/usr/bin/env python3
"""Each modelstore-bench workload at several sizes: cost per row on each side, and its growth.

    swift build -c release --product modelstore-bench
    python3 Benchmarks/growth.py [--sqlite 20000,200000,1000000] [--postgresql 20000,200000]
                                 [--only insert,fetchAll] [--keep DIR] [--from DIR]

Runs the release bench with `--json` once per store and size (`--repeat 3`, `--repeat 1` from
1,000,000 rows on), then prints, per store, a Markdown table: each side's wall-clock microseconds
per row (per fetch for the lookups, which fetch the same 1,000 trips at every size) at each size,
and the growth: the per-row cost at the largest size over the one at the smallest (the target is
at most 1.2; below 1, a fixed cost spread over more rows). `--keep`
saves the JSON reports (STORE-N.json); `--from` prints the tables of reports saved before, running
nothing. docs/Benchmarks.md, "Growth".
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, ".build", "release", "modelstore-bench")


def sizes(text):
    return [int(part) for part in text.split(",") if part]


def run(store, rows, only, keep):
    repeat = "1" if rows >= 1_000_000 else "3"
    command = [BENCH, "--store", store, "--n", str(rows), "--repeat", repeat, "--json"]
    if only:
        command += ["--only", only]
    print(f"running {' '.join(command[1:])}", file=sys.stderr, flush=True)
    done = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True)
    report = json.loads(done.stdout)
    if keep:
        with open(os.path.join(keep, f"{store}-{rows}.json"), "w") as file:
            file.write(done.stdout)
    return report


def saved(folder, store, rows):
    path = os.path.join(folder, f"{store}-{rows}.json")
    if not os.path.exists(path):
        return None
    with open(path) as file:
        return json.load(file)


def table(store, reports):
    """A Markdown table of per-row costs for one store's reports (in size order)."""
    lines = [f"{store}: " + ", ".join(
        f"N = {r['rowCount']:,} (load {r['loadAverageAtStart']:.1f}–{r['loadAverageAtEnd']:.1f}, "
        f"median of {r['repetitions']})" for r in reports)]
    lines.append("")
    sizes_ = [f"{r['rowCount'] // 1000:,}k" for r in reports]
    header = (["workload"] + [f"generated µs/row {s}" for s in sizes_] + ["growth"]
              + [f"hand-written µs/row {s}" for s in sizes_] + ["growth"])
    lines.append("| " + " | ".join(header) + " |")
    lines.append("| --- |" + " ---: |" * (len(header) - 1))
    worst = 0.0
    for workload in reports[0]["workloads"]:
        name = workload["name"]
        row = [name]
        for side in ("generated", "handWritten"):
            costs = []
            for report in reports:
                match = next((w for w in report["workloads"] if w["name"] == name), None)
                if match and side in match and match[side]["rows"]:
                    costs.append(match[side]["wallSeconds"] / match[side]["rows"] * 1e6)
                else:
                    costs.append(None)
            row += ["–" if c is None else f"{c:.2f}" for c in costs]
            known = [c for c in costs if c]
            growth = known[-1] / known[0] if len(known) > 1 else None
            if growth:
                worst = max(worst, growth)
            row.append("–" if growth is None else f"{growth:.2f}")
        lines.append("| " + " | ".join(row) + " |")
    lines.append(f"largest growth: {worst:.2f}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sqlite", type=sizes, default=[20_000, 200_000, 1_000_000])
    parser.add_argument("--postgresql", type=sizes, default=[20_000, 200_000])
    parser.add_argument("--only", default="")
    parser.add_argument("--keep", help="a folder to save the JSON reports in (STORE-N.json)")
    parser.add_argument("--from", dest="source", help="print the tables of reports saved with --keep")
    arguments = parser.parse_args()
    if not arguments.source and not os.path.exists(BENCH):
        sys.exit(f"{BENCH} is missing: swift build -c release --product modelstore-bench")
    if arguments.keep:
        os.makedirs(arguments.keep, exist_ok=True)
    for store, rows in (("sqlite", arguments.sqlite), ("postgresql", arguments.postgresql)):
        if arguments.source:
            reports = [r for r in (saved(arguments.source, store, n) for n in rows) if r]
        else:
            reports = [run(store, n, arguments.only, arguments.keep) for n in rows]
        if reports:
            print(table(store, reports))
            print()


if __name__ == "__main__":
    main()
