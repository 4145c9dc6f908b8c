import Foundation

/// Checks too costly for every run (an assertion's kind), on in debug
/// builds and, in any build, when `BULWARK_SELF_CHECKS=1`, which the test
/// runner sets for its test processes and every program they start, so a
/// release binary under test (BULWARK_BIN) makes them too. Unlike an
/// assertion they stay on where debug code is optimised (Package.swift).
/// A failed check stops the program with its message, as an assertion
/// does; the message names code, never a vault's contents.
public enum SelfCheck {
    public static let enabled: Bool = {
        #if DEBUG
        return true
        #else
        return ProcessInfo.processInfo.environment["BULWARK_SELF_CHECKS"] == "1"
        #endif
    }()

    public static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                               file: StaticString = #fileID, line: UInt = #line) {
        guard enabled, !condition() else { return }
        fatalError(message(), file: file, line: line)
    }
}
