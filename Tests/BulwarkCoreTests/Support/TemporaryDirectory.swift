import Foundation
@testable import BulwarkCore

/// A fresh directory per test, removed afterwards.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// Cheap scrypt for tests that open many vaults; the product's default stays 2^17.
let testParameters = ScryptParameters(logN: 10)

/// A flag one thread sets and another reads.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    var value: Bool { lock.withLock { raised } }
    func set() { lock.withLock { raised = true } }
}
