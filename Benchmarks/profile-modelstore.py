#!/usr/bin/env python3
"""Instruction counts of modelstore-bench workloads under callgrind, and what the features that
run while unused cost in them.

    swift build -c release --product modelstore-bench
    python3 Benchmarks/profile-modelstore.py [--store sqlite|postgresql] [--n 20000] [--only insert,fetchAll,updateNames,cascadeDelete] [--markdown] [--top 25] [--later]

For each workload, both sides run once under `valgrind --tool=callgrind`, collecting only the
timed part (`BenchmarkRun.timedWorkloadBody`), on the same rows. Printed per workload: the
instructions of each side and their ratio (deterministic, unlike times on a shared machine), and
the instructions the generated side spends, with the feature unused, in the code of:

- notifications: posting `willSave`/`didSave`, and collecting the identifiers `didSave` carries
  (`recordSave`, which with history off only collects them; with history on it is history's
  work, counted as used, not here);
- autosave: scheduling a save at the first pending change (`scheduleAutosave`; `noteChange`'s
  test of whether autosave is on and not yet scheduled is inlined where a change is recorded, a
  few instructions no profile can attribute, so `noteChange` appears only where not inlined);
- pending changes: the code that merges unsaved changes into a fetch (`pendingView`,
  `pendingState`, `pendingCount`, ...); with nothing pending a fetch only checks five lists for
  emptiness, inlined, and a planned fetch (`fetchPlanned`: prefetching, a store-only fetch) asks
  `pendingView`, which returns at that test, so this is about 0 unless the path runs. The planned
  fetch itself is not counted: it is the fetch, with or without pending changes;
- store seam: the dispatch through the storage protocols (`StoreStatement`, `StoreConnection`,
  `StoreDriver`, `SQLDialect`) to the store's driver: the witness thunks' own instructions.

The percentages are of the generated side's instructions in the workload.

With `--store postgresql` the benches use the server of MODELSTORE_TEST_POSTGRES_URL, else one
this script starts (initdb + pg_ctl in a temporary folder, as the `postgres` user when run as
root; stopped at the end): under valgrind the bench cannot start its own (spawning a process
fails there). valgrind follows only the bench process (`--trace-children=no`) and the server runs
outside it, so the counts are the client's instructions only (libpq's included, the server's work
and the wait for it not). `--top N` prints, per workload and side, the
N functions with the most inclusive instructions.

The first repetition in a process also pays what the process does once (the Swift runtime's first
conformance and metadata lookups of the types a workload meets), which the bench's medians over
later repetitions do not. `--later` counts the second repetition instead: each side runs twice
under callgrind, with `--repeat 1` and with `--repeat 2`, and the figures are the difference.
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
    ("autosave", r"^ModelContext\.(noteChange|scheduleAutosave)\(", True),
    ("pending changes", r"^ModelContext\.(pendingState|pendingView|pendingCount|influencedKeys|resultKeys)[(<]", True),
    ("store seam", r"^protocol witness for (StoreStatement|StoreConnection|StoreDriver|SQLDialect)\..* in conformance (SQLite\w+|Postgres\w+)", False),
]

# Workloads with history on: `recordSave` writes the history there (the feature in use).
HISTORY_ON = {"insertWithHistory", "updateNamesWithHistory", "cascadeDelete"}


def profile(workload, side, n, directory, store, bench, repeat=1):
    out = os.path.join(directory, f"{workload}-{side}.out" if repeat == 1 else f"{workload}-{side}-{repeat}.out")
    # `--trace-children=no`: a server the bench starts (PostgreSQL) is not instrumented.
    command = ["valgrind", "--tool=callgrind", "--trace-children=no", f"--callgrind-out-file={out}", "--toggle-collect=*timedWorkloadBody*",
               bench, "--store", store, "--n", str(n), "--repeat", str(repeat), "--only", workload, "--side", side]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return out


def start_server(directory):
    """A throwaway PostgreSQL server on a Unix socket in `directory`; returns its URL and a stop function."""
    versions = sorted((d for d in os.listdir("/usr/lib/postgresql") if d.isdigit()), key=int) if os.path.isdir("/usr/lib/postgresql") else []
    binaries = f"/usr/lib/postgresql/{versions[-1]}/bin" if versions else ""
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    data = os.path.join(directory, "data")
    os.makedirs(data)
    if as_user:
        subprocess.run(["chown", "-R", "postgres", directory], check=True)
    subprocess.run(as_user + [os.path.join(binaries, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-sync"],
                   check=True, stdout=subprocess.DEVNULL)
    options = f"-c listen_addresses='' -c unix_socket_directories={directory} -c fsync=off -c synchronous_commit=off"
    subprocess.run(as_user + [os.path.join(binaries, "pg_ctl"), "-D", data, "-o", options, "-l", os.path.join(directory, "log"), "-w", "start"],
                   check=True, stdout=subprocess.DEVNULL)

    def stop():
        subprocess.run(as_user + [os.path.join(binaries, "pg_ctl"), "-D", data, "-m", "immediate", "stop"], stdout=subprocess.DEVNULL)
    return f"postgresql://postgres@/postgres?host={directory}", stop


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
    parser.add_argument("--bench", default=BENCH, help="the modelstore-bench binary (default: the release build's)")
    parser.add_argument("--store", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--top", type=int, default=0, help="print the N functions of most inclusive instructions of each side")
    parser.add_argument("--later", action="store_true", help="count the second repetition, not the first (see above)")
    arguments = parser.parse_args()
    if not os.path.exists(arguments.bench):
        sys.exit(f"{arguments.bench} is missing: swift build -c release --product modelstore-bench")
    header = ["workload", "generated Ir", "hand-written Ir", "Ir ratio"] + [f"{name} (unused)" for name, _, _ in FEATURES] + ["unused, all"]
    rows = []
    tops = []
    stop = None
    if arguments.store == "postgresql" and not os.environ.get("MODELSTORE_TEST_POSTGRES_URL"):
        server = tempfile.mkdtemp(prefix="profile-pg-")
        os.environ["MODELSTORE_TEST_POSTGRES_URL"], stop = start_server(server)
    try:
        profile_all(arguments, header, rows, tops)
    finally:
        if stop:
            stop()
            subprocess.run(["rm", "-rf", server])
    for line in tops:
        print(line)
    which = "the second repetition" if arguments.later else "one repetition"
    print(f"{arguments.store}, N = {arguments.n}, instructions (callgrind Ir) of the timed part, {which}")
    if arguments.markdown:
        print("| " + " | ".join(header) + " |")
        print("| " + " | ".join(["---"] + ["---:"] * (len(header) - 1)) + " |")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(row[i]) for row in rows + [header]) for i in range(len(header))]
        for row in [header] + rows:
            print("  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)))


def inclusive_by_name(inclusive, pattern):
    """Inclusive instructions of the functions whose demangled name matches `pattern`, one figure
    per function: callgrind lists a function once per source file its instructions come from (its
    own file, `<compiler-generated>`), each entry with the function's calls, so the entries are not
    parts to add up; the largest is the function's inclusive cost."""
    by_name = {}
    for (_, name), count in inclusive.items():
        if re.search(pattern, name):
            by_name[name] = max(by_name.get(name, 0), count)
    return by_name


def second(two, one):
    """The second repetition's total and functions: a run of two repetitions less a run of one."""
    (two_total, two_functions), (one_total, one_functions) = two, one
    return two_total - one_total, {key: count - one_functions.get(key, 0) for key, count in two_functions.items()}


def profile_all(arguments, header, rows, tops):
    with tempfile.TemporaryDirectory() as temporary:
        directory = arguments.keep or temporary
        os.makedirs(directory, exist_ok=True)
        for workload in arguments.only.split(","):
            generated = profile(workload, "generated", arguments.n, directory, arguments.store, arguments.bench)
            hand = profile(workload, "hand-written", arguments.n, directory, arguments.store, arguments.bench)
            total, inclusive = costs(generated, True)
            _, own = costs(generated, False)
            hand_total, hand_inclusive = costs(hand, True)
            if arguments.later:
                generated = profile(workload, "generated", arguments.n, directory, arguments.store, arguments.bench, repeat=2)
                hand = profile(workload, "hand-written", arguments.n, directory, arguments.store, arguments.bench, repeat=2)
                total, inclusive = second(costs(generated, True), (total, inclusive))
                _, own = second(costs(generated, False), (0, own))
                hand_total, hand_inclusive = second(costs(hand, True), (hand_total, hand_inclusive))
            if arguments.top:
                for side, side_total, functions in (("generated", total, inclusive), ("hand-written", hand_total, hand_inclusive)):
                    tops.append(f"{workload}, {side}: {side_total:,} instructions; top {arguments.top} inclusive")
                    # The callers every instruction runs under (main, the timed closure) tell nothing.
                    ranked = sorted(((key, count) for key, count in functions.items() if count < 0.99 * side_total), key=lambda item: -item[1])[:arguments.top]
                    tops.extend(f"  {count:>14,} {100 * count / side_total:6.2f} %  {name}" for (_, name), count in ranked if side_total)
            row = [workload, f"{total:,}", f"{hand_total:,}", f"{total / hand_total:.2f}" if hand_total else "-"]
            unused = 0
            for name, pattern, use_inclusive in FEATURES:
                if name == "notifications" and workload in HISTORY_ON:
                    pattern = pattern.replace("|recordSave", "")  # there it is history's work, in use
                if use_inclusive:
                    cost = sum(inclusive_by_name(inclusive, pattern).values())
                else:
                    cost = sum(count for (file, name), count in own.items() if file == "//<compiler-generated>" and re.search(pattern, name))
                unused += cost
                row.append(f"{cost:,} ({100 * cost / total:.2f} %)" if total else "-")
            row.append(f"{unused:,} ({100 * unused / total:.2f} %)" if total else "-")
            rows.append(row)
            print(f"{workload} done", file=sys.stderr)


if __name__ == "__main__":
    main()
