// libFuzzer target over the language server (Scripts/fuzz.sh --target lsp; docs/Reliability.md):
// each input is a document and a sequence of edits and requests (`LanguageServerOracle.check`).
// Built normally, it replays files: `LanguageServerFuzz FILE...` exits 1 when one breaks a property;
// `LanguageServerFuzz --type-out FILE...` types each file in, a character at a time (`typeOut`).
import Foundation
import LanguageServerOracle
import ModelFuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let violation = LanguageServerOracle.check(bytes).first {
        fatalError("property broken: \(violation)")
    }
    return 0
}

func runFuzzerOrReplay() -> Int32 {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let fuzzerStatus = modelfuzz_run_libfuzzer(&argc, &argv, fuzzOneInput)
    if fuzzerStatus >= 0 { return fuzzerStatus }
    var status: Int32 = 0
    var arguments = Array(CommandLine.arguments.dropFirst())
    // `--type-out FILE...`: types each file into the server, a character at a time.
    let typeOut = arguments.first == "--type-out"
    if typeOut { arguments.removeFirst() }
    for path in arguments {
        guard let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("LanguageServerFuzz: cannot read \(path)\n".utf8))
            status = 2
            continue
        }
        let violations = typeOut
            ? LanguageServerOracle.typeOut(String(decoding: data, as: UTF8.self))
            : LanguageServerOracle.check(Array(data))
        for violation in violations { print("\(path): \(violation)") }
        if !violations.isEmpty { status = max(status, 1) }
    }
    return status
}

exit(runFuzzerOrReplay())
