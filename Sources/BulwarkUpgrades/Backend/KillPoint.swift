import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Named moments of an upgrade where the crash test kills the process.
/// Only debug builds (the ones `make test` runs) honour
/// `BULWARK_KILL_AT=NAME`; a release build compiles this to nothing.
public enum KillPoint {
    public static let all = ["staged", "backend-authorised", "backend-committed", "linked", "passkey-staged", "passkey-registered", "settled"]

    public static func reach(_ name: String) {
        #if DEBUG
        if let target = ProcessInfo.processInfo.environment["BULWARK_KILL_AT"], target == name {
            kill(getpid(), SIGKILL)
        }
        #endif
    }
}
