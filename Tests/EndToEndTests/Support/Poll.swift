import Foundation

/// Waits for a condition the test cannot be told of (a port that starts
/// listening, an agent that ends, a buffer tmux fills): asked again every
/// `every` seconds until it holds, or false once `seconds` have passed. The
/// only pause the end-to-end tests take between asks; none waits a fixed time.
enum Poll {
    static func until(seconds: Double, every: Double = 0.05, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if try condition() { return true }
            guard Date() < deadline else { return false }
            var pause = timespec(tv_sec: 0, tv_nsec: Int(every * 1e9))
            nanosleep(&pause, nil)
        }
    }
}
