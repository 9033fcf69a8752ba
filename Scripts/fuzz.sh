#!/usr/bin/env bash
# Fuzzes the whole front end (lex, parse, check, render, generate) with libFuzzer for SECONDS
# (default 60). Builds ModelFuzz with the fuzzer and address sanitizers in .build-fuzz, runs it
# on a working corpus seeded with the .model files of the folders Tests/Fuzz/seed-folders.txt lists
# (samples and test fixtures, copied fresh each run), with the Tests/Fuzz/model.dict dictionary.
#
# Not `swift build --sanitize=fuzzer`, nor `-Xswiftc -sanitize=fuzzer`: both reach every
# executable, the TemplateEmbedder build tool too (the first compiles its top-level main.swift
# as a library, the second links libFuzzer into it, which then lacks LLVMFuzzerTestOneInput).
# Instead every target gets AddressSanitizer and libFuzzer's coverage instrumentation, and
# libFuzzer (without its main) is linked in; only ModelFuzz (or LanguageServerFuzz) references it, through the
# ModelFuzzDriver C target compiled with -DMODELFUZZ_LIBFUZZER.
#
# `--debug` builds without optimization (in .build-fuzz/debug rather than .build-fuzz/release): a
# few times quicker to build from clean, several times fewer executions a second. CI uses it for
# its short run (docs/Reliability.md, "Fuzzing in CI"); long runs by hand keep the release build.
#
# `--target lsp` fuzzes the language server instead (`modelgen lsp`, in process): LanguageServerFuzz
# (Tests/Fuzz/LanguageServerFuzz) opens each input as a document and runs the edits and requests its
# tail encodes (Tests/Fuzz/LanguageServerOracle); what it finds is kept in Tests/Fuzz/lsp-regressions.
set -euo pipefail
cd "$(dirname "$0")/.."

product=ModelFuzz
regressions=Tests/ModelGenKitTests/FuzzRegressions/inputs
configuration=release
while true; do
    case "${1:-}" in
        --target)
            case "${2:-}" in
                front-end) ;;
                lsp) product=LanguageServerFuzz; regressions=Tests/Fuzz/lsp-regressions; mkdir -p "$regressions" ;;
                *) echo "fuzz.sh: --target is front-end or lsp" >&2; exit 2 ;;
            esac
            shift 2 ;;
        --debug) configuration=debug; shift ;;
        *) break ;;
    esac
done
seconds="${1:-60}"
shift || true
build_path=.build-fuzz
work="$build_path/fuzz-work"
[ "$product" = ModelFuzz ] || work="$build_path/fuzz-work-lsp"

toolchain_lib="$(dirname "$(readlink -f "$(command -v swift)")")/../lib"
libfuzzer="$(ls "$toolchain_lib"/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -n 1 || true)"
[ -f "$libfuzzer" ] || { echo "fuzz.sh: libclang_rt.fuzzer_no_main not found under $toolchain_lib/clang" >&2; exit 2; }
coverage=inline-8bit-counters,pc-table,trace-cmp
flags=(--product $product --build-path "$build_path" -c $configuration
       -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,$coverage
       -Xcc -fsanitize=address -Xcc -fsanitize-coverage=$coverage -Xcc -DMODELFUZZ_LIBFUZZER
       -Xlinker "$libfuzzer" -Xlinker -lstdc++)
mkdir -p "$build_path"
if ! swift build "${flags[@]}" >"$build_path/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$build_path/build.log" | tail -n 40
    echo "fuzz.sh: build failed" >&2
    exit 2
fi
binary="$(swift build "${flags[@]}" --show-bin-path)/$product"

rm -rf "$work/artifacts" "$work/seeds"
mkdir -p "$work/corpus" "$work/artifacts" "$work/seeds"
# Seeds: every .model file below the listed folders, named by its path ('/' -> '_').
while IFS= read -r folder; do
    case "$folder" in ''|'#'*) continue ;; esac
    [ -d "$folder" ] || { echo "fuzz.sh: seed folder '$folder' (Tests/Fuzz/seed-folders.txt) does not exist" >&2; exit 2; }
    while IFS= read -r -d '' model; do
        cp "$model" "$work/seeds/$(printf '%s' "${model#./}" | tr '/ ' '__')"
    done < <(find "$folder" -name '*.model' -type f -print0)
done < Tests/Fuzz/seed-folders.txt
log="$work/fuzz.log"
status=0
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$binary" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -dict=Tests/Fuzz/model.dict -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
    "$@" "$work/corpus" "$work/seeds" >"$log" 2>&1 || status=$?

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
    echo "fuzz.sh: FAILED (libFuzzer exit $status); replay with: swift test --filter FuzzRegression (front end) or --filter LanguageServerTests (lsp)" >&2
    exit 1
fi
echo "fuzz.sh: no crash, hang or property violation in ${seconds}s"
