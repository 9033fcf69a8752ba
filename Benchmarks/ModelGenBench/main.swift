import BenchSupport
import Foundation
import ModelGenKit

// modelgen-bench [--repeat R] [--max ENTITIES]: what `modelgen generate` costs (load, parse,
// check, generate and write, through `ModelGen.run`) on synthesized models of 100, 1,000 and
// 10,000 entities (those up to ENTITIES; an ENTITIES above 10,000 is measured too): time per
// stage, peak memory, per entity, and whether growth is linear.
// modelgen-bench --lsp [--max ENTITIES] [--edits N]: `modelgen lsp`'s time from an edit to its
// diagnostics on workspaces of 100 and 1,000 entities (up to ENTITIES), N edits each
// (LanguageServerRun.swift).

let arguments: Arguments
do {
    arguments = try Arguments(
        Array(CommandLine.arguments.dropFirst()), defaults: ["repeat": 3, "max": 10_000, "markdown": 0, "edits": 40], flags: ["lsp"])
} catch {
    FileHandle.standardError.write(Data("modelgen-bench: \(error)\nusage: modelgen-bench [--repeat R] [--max ENTITIES] [--markdown 1]\n       modelgen-bench --lsp [--max ENTITIES] [--edits N] [--markdown 1]\n".utf8))
    exit(2)
}

if arguments.flag("lsp") {
    do {
        let largest = CommandLine.arguments.contains("--max") ? arguments["max"] : 1_000
        let sizes = [100, 1_000].filter { $0 <= largest } + (largest > 1_000 || largest < 100 ? [largest] : [])
        let results = try sizes.map { try LanguageServerRun.measure(entities: $0, edits: arguments["edits"]) }
        LanguageServerRun.report(results, markdown: arguments["markdown"] != 0)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("modelgen-bench: \(error)\n".utf8))
        exit(1)
    }
}

do {
    let largest = arguments["max"]
    let sizes = [100, 1_000, 10_000].filter { $0 <= largest } + (largest > 10_000 ? [largest] : [])
    var results: [GeneratorRun.SizeResult] = []
    for size in sizes {
        let result = try GeneratorRun.measure(entities: size, repetitions: arguments["repeat"])
        results.append(result)
        FileHandle.standardError.write(Data("\(size) entities: \(result.lines) model lines, \(result.outputBytes / 1024) KB generated\n".utf8))
    }
    let repetitions = arguments["repeat"]
    let load = Cell.fixed(Timing.loadAverage(), 1)
    print("median of \(repetitions) runs, \(SyntheticModel.groupSize) entities per group, 100 entities per file, load average \(load)")
    let table = GeneratorRun.table(results)
    print(arguments["markdown"] == 0 ? table.text : table.markdown)
    print("")
    let stages = GeneratorRun.stageTable(results)
    print(arguments["markdown"] == 0 ? stages.text : stages.markdown)
    print("")
    for line in GeneratorRun.verdict(results) { print(line) }
} catch {
    FileHandle.standardError.write(Data("modelgen-bench: \(error)\n".utf8))
    exit(1)
}
