// The libFuzzer driver (`make fuzz FUZZ_TARGET=NAME`): one binary, the check
// chosen by BULWARK_FUZZ_CHECK, so every parser shares one build. Swift's own
// main runs and hands control to LLVMFuzzerRunDriver; the C entry point is
// exported too, since the linker pulls in libFuzzer's main object, which names it.
import BulwarkCore
import BulwarkUpgrades
import Glibc

let checks = FuzzChecks.all.merging(UpgradesFuzzChecks.all) { first, _ in first }
let checkName = getenv("BULWARK_FUZZ_CHECK").map { String(cString: $0) } ?? "password-rules"
guard let check = checks[checkName] else {
    fatalError("unknown BULWARK_FUZZ_CHECK '\(checkName)'; known: \(checks.keys.sorted())")
}
let selectedCheck = check

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let problem = selectedCheck(bytes) { fatalError(problem) }
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
_ = LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput)
