#!/usr/bin/env bash
# Fuzzes the whole front end (lex, parse, check, render, generate) with libFuzzer for SECONDS
# (default 60). Builds ModelFuzz with the fuzzer and address sanitizers in .build-fuzz, runs it
# on a working corpus seeded from Fuzz/corpus with the Fuzz/model.dict dictionary.
#
# Not `swift build --sanitize=fuzzer`: that compiles every executable, the TemplateEmbedder build
# tool too, as a library (-parse-as-library), which its top-level main.swift does not survive.
# Instead `-Xswiftc -sanitize=fuzzer,address` instruments everything, libFuzzer is linked in,
# and ModelFuzz's own main hands over to libFuzzer's exported `LLVMFuzzerRunDriver`.
# Any input that crashed, hung (over 2 s) or ran out of memory is copied to
# Tests/ModelGenKitTests/FuzzRegressions/inputs/ (replayed by the normal test suite) and the
# script exits 1. Extra arguments are passed to libFuzzer.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
build_path=.build-fuzz
work="$build_path/fuzz-work"
regressions=Tests/ModelGenKitTests/FuzzRegressions/inputs

flags=(--product ModelFuzz --build-path "$build_path" -Xswiftc -sanitize=fuzzer,address
       -Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver)
mkdir -p "$build_path"
if ! swift build "${flags[@]}" >"$build_path/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$build_path/build.log" | tail -n 40
    echo "fuzz.sh: build failed" >&2
    exit 2
fi
binary="$(swift build "${flags[@]}" --show-bin-path)/ModelFuzz"

rm -rf "$work/artifacts"
mkdir -p "$work/corpus" "$work/artifacts"
log="$work/fuzz.log"
status=0
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$binary" \
    -max_total_time="$seconds" -timeout=2 -rss_limit_mb=2048 -max_len=8192 \
    -dict=Fuzz/model.dict -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
    "$@" "$work/corpus" Fuzz/corpus >"$log" 2>&1 || status=$?

grep -E "^(#[0-9]+ +DONE|Done [0-9]+ runs|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)" "$log" || true
found=0
for artifact in "$work"/artifacts/*; do
    [ -f "$artifact" ] || continue
    name="$(basename "$artifact")"
    cp "$artifact" "$regressions/$name"
    echo "fuzz.sh: kept $regressions/$name"
    found=1
done
if [ "$found" = 1 ] || [ "$status" != 0 ]; then
    tail -n 40 "$log"
    echo "fuzz.sh: FAILED (libFuzzer exit $status); replay with: swift test --filter FuzzRegression" >&2
    exit 1
fi
echo "fuzz.sh: no crash, hang or property violation in ${seconds}s"
