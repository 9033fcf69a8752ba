#!/usr/bin/env python3
"""Instruction counts of modelstore-bench workloads under callgrind, and what the features that
run while unused cost in them.

    swift build -c release --product modelstore-bench
    python3 Benchmarks/profile-modelstore.py [--n 20000] [--only insert,fetchAll,updateNames,cascadeDelete] [--markdown]

For each workload, both sides run once under `valgrind --tool=callgrind`, collecting only the
timed part (`BenchmarkRun.timedWorkloadBody`), on the same rows. Printed per workload: the
instructions of each side and their ratio (deterministic, unlike times on a shared machine), and
the instructions the generated side spends, with the feature unused, in the code of:

- notifications: posting `willSave`/`didSave`, and collecting the identifiers `didSave` carries
  (`recordSave`, which with history off only collects them; with history on it is history's
  work, counted as used, not here);
- autosave: noting the first pending change (`noteChange`);
- pending changes: the fetch paths that merge unsaved changes (`fetchPlanned`, `pendingState`, ...);
  with nothing pending a fetch only checks five lists for emptiness, inlined, so this is 0 unless
  the path runs;
- store seam: the dispatch through the storage protocols (`StoreStatement`, `StoreConnection`,
  `StoreDriver`, `SQLDialect`) to the SQLite driver: the witness thunks' own instructions.

The percentages are of the generated side's instructions in the workload.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, ".build", "release", "modelstore-bench")

# Feature code that runs while the feature is unused: (name, pattern of demangled function names,
# whether to count inclusive cost (True) or only the instructions callgrind files under
# `<compiler-generated>` (False: a witness thunk's own dispatch, not the driver code inlined into it)).
FEATURES = [
    ("notifications", r"^ModelContext\.(postWillSave|saveDidFinish|recordSave)\(", True),
    ("autosave", r"^ModelContext\.noteChange\(", True),
    ("pending changes", r"^ModelContext\.(fetchPlanned|pendingState|pendingView|pendingCount|influencedKeys|resultKeys)[(<]", True),
    ("store seam", r"^protocol witness for (StoreStatement|StoreConnection|StoreDriver|SQLDialect)\..* in conformance (SQLite\w+)", False),
]

# Workloads with history on: `recordSave` writes the history there (the feature in use).
HISTORY_ON = {"insertWithHistory", "updateNamesWithHistory", "cascadeDelete"}


def profile(workload, side, n, directory):
    out = os.path.join(directory, f"{workload}-{side}.out")
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--toggle-collect=*timedWorkloadBody*",
               BENCH, "--n", str(n), "--repeat", "1", "--only", workload, "--side", side]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return out


def costs(out, inclusive):
    """Instructions by demangled function name (the parts of a function that callgrind files under
    several source files added up)."""
    # Run outside the package: in it, callgrind_annotate lists some functions a second time under
    # paths relative to it.
    annotate = subprocess.run(["callgrind_annotate", "--auto=no", f"--inclusive={'yes' if inclusive else 'no'}", "--threshold=100", out],
                              check=True, capture_output=True, text=True, cwd=os.path.dirname(os.path.abspath(out))).stdout
    demangled = subprocess.run(["swift", "demangle", "--simplified"], input=annotate, check=True, capture_output=True, text=True).stdout
    total = 0
    functions = {}
    for line in demangled.splitlines():
        match = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$", line)
        if not match:
            continue
        count = int(match.group(1).replace(",", ""))
        rest = match.group(2)
        if rest == "PROGRAM TOTALS":
            total = count
            continue
        # `file:function [object]`: drop the object, keep the file apart.
        rest = re.sub(r" \[[^\]]*\]$", "", rest)
        file, name = rest.split(":", 1) if ":" in rest else ("", rest)
        name = re.sub(r"^(specialized |merged )+", "", name)
        functions[(file, name)] = functions.get((file, name), 0) + count
    return total, functions


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--only", default="insert,fetchAll,updateNames,cascadeDelete")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--keep", help="a folder to keep the callgrind files in (WORKLOAD-SIDE.out)")
    arguments = parser.parse_args()
    if not os.path.exists(BENCH):
        sys.exit(f"{BENCH} is missing: swift build -c release --product modelstore-bench")
    header = ["workload", "generated Ir", "hand-written Ir", "Ir ratio"] + [f"{name} (unused)" for name, _, _ in FEATURES] + ["unused, all"]
    rows = []
    with tempfile.TemporaryDirectory() as temporary:
        directory = arguments.keep or temporary
        os.makedirs(directory, exist_ok=True)
        for workload in arguments.only.split(","):
            generated = profile(workload, "generated", arguments.n, directory)
            hand = profile(workload, "hand-written", arguments.n, directory)
            total, inclusive = costs(generated, True)
            _, own = costs(generated, False)
            hand_total, _ = costs(hand, True)
            row = [workload, f"{total:,}", f"{hand_total:,}", f"{total / hand_total:.2f}" if hand_total else "-"]
            unused = 0
            for name, pattern, use_inclusive in FEATURES:
                if name == "notifications" and workload in HISTORY_ON:
                    pattern = pattern.replace("|recordSave", "")  # there it is history's work, in use
                if use_inclusive:
                    cost = sum(count for (_, name), count in inclusive.items() if re.search(pattern, name))
                else:
                    cost = sum(count for (file, name), count in own.items() if file == "//<compiler-generated>" and re.search(pattern, name))
                unused += cost
                row.append(f"{cost:,} ({100 * cost / total:.2f} %)" if total else "-")
            row.append(f"{unused:,} ({100 * unused / total:.2f} %)" if total else "-")
            rows.append(row)
            print(f"{workload} done", file=sys.stderr)
    print(f"N = {arguments.n}, instructions (callgrind Ir) of the timed part, one repetition")
    if arguments.markdown:
        print("| " + " | ".join(header) + " |")
        print("| " + " | ".join(["---"] + ["---:"] * (len(header) - 1)) + " |")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(row[i]) for row in rows + [header]) for i in range(len(header))]
        for row in [header] + rows:
            print("  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)))


if __name__ == "__main__":
    main()
