import Foundation

/// Work started on its own thread now and waited for later (`wait`
/// rethrows its error): the demo writes its vault while its unlock screen
/// is already drawn.
final class BackgroundWork: @unchecked Sendable {  // `failure` is written before `done` is signalled, read after
    private let done = DispatchSemaphore(value: 0)
    private var failure: Error?
    private var finished = false
    private let lock = NSLock()

    init(_ work: @escaping @Sendable () throws -> Void) {
        let thread = Thread { [self] in
            do { try work() } catch { failure = error }
            done.signal()
        }
        thread.start()
    }

    /// Waits until the work is done (at once after the first wait).
    func wait() throws {
        try lock.withLock {
            if !finished {
                done.wait()
                finished = true
            }
            if let failure { throw failure }
        }
    }
}
