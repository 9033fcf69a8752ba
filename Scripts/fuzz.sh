#!/usr/bin/env bash
# Fuzzes the whole front end (lex, parse, check, render, generate) with libFuzzer for SECONDS
# (default 60). Builds ModelFuzz with the fuzzer and address sanitizers in .build-fuzz, runs it
# on a working corpus seeded from Fuzz/corpus with the Fuzz/model.dict dictionary.
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

swift build --product ModelFuzz --build-path "$build_path" \
    --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address 2>&1 | grep -v "Cannot export local symbol" || true
binary="$(swift build --product ModelFuzz --build-path "$build_path" --show-bin-path \
    --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)/ModelFuzz"
[ -x "$binary" ] || { echo "fuzz.sh: build failed" >&2; exit 2; }

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
