// libFuzzer target over the whole front end (see Scripts/fuzz.sh and docs/Reliability.md).
//
// Built with `-sanitize=fuzzer`, the process hands control to libFuzzer's driver, which calls
// `LLVMFuzzerTestOneInput` with each input. Built normally, it replays files instead:
// `ModelFuzz FILE...` runs each through the same checks and exits 1 when one breaks a property.
import FuzzOracle
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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

/// `LLVMFuzzerRunDriver`'s type (libFuzzer's C API).
typealias FuzzerDriver = @convention(c) (
    UnsafeMutablePointer<CInt>,
    UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer when it is linked in (its driver is exported by Scripts/fuzz.sh's link flags),
/// else replays the files named on the command line.
func runFuzzerOrReplay() -> Int32 {
    if let symbol = dlsym(nil, "LLVMFuzzerRunDriver") {
        let driver = unsafeBitCast(symbol, to: FuzzerDriver.self)
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        return driver(&argc, &argv, fuzzOneInput)
    }
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
