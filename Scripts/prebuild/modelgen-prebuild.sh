#!/usr/bin/env bash
# modelgen-prebuild.sh: regenerate Swift from .model files before a build outside SwiftPM
# (Makefiles, Xcode run-script phases, other build systems). See README.md beside this script.
#
#   modelgen-prebuild.sh [--output DIR] [--modelgen PATH] [--access-level LEVEL] [--templates DIR]
#                        [--warnings-as-errors] [--config FILE] [--quiet] INPUT...
#
# INPUT is .model files or folders, as for `modelgen generate`; .modelversion files (the model's
# frozen versions, docs/Migrations.md) given or found in the folders are its history. `modelgen generate` runs
# only when an expected output is missing, or a .model or .modelversion file, the configuration (or
# the modelgen binary) is newer than the last successful generation, or the options changed;
# otherwise nothing happens and nothing is touched. The configuration is --config FILE, else the modelgen.json at the top of
# a folder INPUT (as the plugins read the target's), if exactly one folder INPUT has one.
#
# Which modelgen: --modelgen PATH, else $MODELGEN, else `modelgen` on PATH, else it is built with
# `swift build -c release --product modelgen` from the ModelGen package ($MODELGEN_PACKAGE, or the
# package this script lives in).
#
# Exit status: modelgen's (0 done, 1 the models have errors, 2 bad usage), 2 for this script's usage errors.
set -euo pipefail

usage() {
    sed -n '4,6p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

output="Generated"
modelgen="${MODELGEN:-}"
config=""
quiet=0
options=()
inputs=()
while [ $# -gt 0 ]; do
    case "$1" in
        --output) [ $# -ge 2 ] || usage; output="$2"; shift 2 ;;
        --modelgen) [ $# -ge 2 ] || usage; modelgen="$2"; shift 2 ;;
        --access-level|--templates) [ $# -ge 2 ] || usage; options+=("$1" "$2"); shift 2 ;;
        --config) [ $# -ge 2 ] || usage; config="$2"; shift 2 ;;
        --warnings-as-errors) options+=("$1"); shift ;;
        --quiet) quiet=1; shift ;;
        -h|--help) usage ;;
        --) shift; inputs+=("$@"); break ;;
        -*) echo "modelgen-prebuild: unknown option $1" >&2; usage ;;
        *) inputs+=("$1"); shift ;;
    esac
done
[ ${#inputs[@]} -gt 0 ] || usage

say() { [ "$quiet" = 1 ] || echo "modelgen-prebuild: $*"; }

# --- Locate modelgen -------------------------------------------------------------------------
if [ -z "$modelgen" ] && command -v modelgen >/dev/null 2>&1; then
    modelgen="$(command -v modelgen)"
fi
if [ -z "$modelgen" ]; then
    package="${MODELGEN_PACKAGE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
    if [ ! -f "$package/Package.swift" ]; then
        echo "modelgen-prebuild: modelgen not found: set MODELGEN, put modelgen on PATH, or set MODELGEN_PACKAGE" >&2
        exit 2
    fi
    say "building modelgen (release) in $package"
    swift build -c release --product modelgen --package-path "$package" >&2
    modelgen="$(swift build -c release --package-path "$package" --show-bin-path)/modelgen"
fi
if [ ! -x "$modelgen" ]; then
    echo "modelgen-prebuild: $modelgen is not an executable" >&2
    exit 2
fi

# --- The outputs modelgen will write (docs/CommandLine.md names) ------------------------------------------
models=()
expected=()
for input in "${inputs[@]}"; do
    if [ -d "$input" ]; then
        folder="${input%/}"
        while IFS= read -r -d '' model; do
            relative="${model#"$folder"/}"
            models+=("$model")
            expected+=("$output/$(printf '%s' "$relative" | tr '/' '_').swift")
        done < <(find "$folder" -mindepth 1 -name '.*' -prune -o \( -name '*.model' -o -name '*.modelversion' \) \( -type f -o -type l \) -print0)
    elif [ -f "$input" ]; then
        models+=("$input")
        name="$(basename "$input")"
        expected+=("$output/$name.swift")
    else
        echo "modelgen-prebuild: no such file or folder: $input" >&2
        exit 2
    fi
done

# --- The configuration (docs/Plugins.md) ---------------------------------------------------------------
if [ -z "$config" ]; then
    found=()
    for input in "${inputs[@]}"; do
        if [ -d "$input" ] && [ -f "${input%/}/modelgen.json" ]; then found+=("${input%/}/modelgen.json"); fi
    done
    if [ ${#found[@]} -gt 1 ]; then
        echo "modelgen-prebuild: several folder inputs hold a modelgen.json (${found[*]}): choose one with --config" >&2
        exit 2
    fi
    [ ${#found[@]} -eq 1 ] && config="${found[0]}"
fi
if [ -n "$config" ]; then
    if [ ! -f "$config" ]; then
        echo "modelgen-prebuild: no such configuration file: $config" >&2
        exit 2
    fi
    options+=(--config "$config")
fi

# --- Up to date? -------------------------------------------------------------------------------
# The stamp records the last successful generation and its command line: modelgen leaves files
# whose content did not change untouched, so their own dates cannot tell.
stamp="$output/.modelgen-prebuild.stamp"
command_line="$(printf '%q ' "$modelgen" generate --output "$output" "${options[@]+"${options[@]}"}" "${inputs[@]}")"
stale=""
if [ ! -f "$stamp" ]; then
    stale="first run"
elif [ "$(cat "$stamp")" != "$command_line" ]; then
    stale="options changed"
elif [ ! "$stamp" -nt "$modelgen" ]; then
    stale="modelgen is newer"
else
    for file in "${expected[@]+"${expected[@]}"}"; do
        if [ ! -f "$file" ]; then stale="missing $file"; break; fi
    done
    if [ -z "$stale" ]; then
        for model in "${models[@]+"${models[@]}"}" ${config:+"$config"}; do
            if [ ! "$stamp" -nt "$model" ]; then stale="$model changed"; break; fi
        done
    fi
fi

if [ -z "$stale" ]; then
    say "up to date (${#models[@]} model files)"
    exit 0
fi

say "generating (${stale})"
status=0
"$modelgen" generate --output "$output" "${options[@]+"${options[@]}"}" "${inputs[@]}" || status=$?
if [ "$status" -ne 0 ]; then
    rm -f "$stamp"
    exit "$status"
fi
mkdir -p "$output"
printf '%s' "$command_line" > "$stamp"
