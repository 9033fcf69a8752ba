// libFuzzer target over the whole front end (see Scripts/fuzz.sh and docs/Reliability.md).
//
// Built by Scripts/fuzz.sh (coverage instrumentation, libFuzzer linked in), the process hands
// control to libFuzzer's driver, which calls `LLVMFuzzerTestOneInput` with each input. Built
// normally, it replays files instead: `ModelFuzz FILE...` runs each through the same checks and exits 1 when one breaks a property.
import Foundation
import FuzzOracle
import ModelFuzzDriver

/// libFuzzer's entry point: runs the whole front end on the input and stops the run (so
/// libFuzzer keeps the input) when a property of `FrontEndOracle` breaks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let violation = FrontEndOracle.check(bytes).first {
        fatalError("property broken: \(violation)")
    }
    return 0
}

/// Runs libFuzzer when it is compiled and linked in (Scripts/fuzz.sh), else replays the files
/// named on the command line.
func runFuzzerOrReplay() -> Int32 {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let fuzzerStatus = modelfuzz_run_libfuzzer(&argc, &argv, fuzzOneInput)
    if fuzzerStatus >= 0 { return fuzzerStatus }
    var status: Int32 = 0
    for path in CommandLine.arguments.dropFirst() {
        guard let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("ModelFuzz: cannot read \(path)\n".utf8))
            status = 2
            continue
        }
        let violations = FrontEndOracle.check(Array(data))
        for violation in violations { print("\(path): \(violation)") }
        if !violations.isEmpty { status = max(status, 1) }
    }
    return status
}

exit(runFuzzerOrReplay())
