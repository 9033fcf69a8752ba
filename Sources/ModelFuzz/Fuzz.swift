import FuzzOracle

/// libFuzzer's entry point: runs the whole front end on the input and stops the run (so
/// libFuzzer saves the input) when a property of `FrontEndOracle` breaks.
///
/// Built with `Scripts/fuzz.sh`; in a normal build the executable does nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let violations = FrontEndOracle.check(bytes)
    if let first = violations.first {
        fatalError("property broken: \(first)")
    }
    return 0
}
