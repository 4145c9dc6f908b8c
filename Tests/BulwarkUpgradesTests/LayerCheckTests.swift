import Foundation
import Testing

/// `Tests/check-layers.sh` run on a copy of the sources: clean as they are,
/// and failing, naming the file, when a mock is named where it must not be.
@Suite struct LayerCheckTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A copy of `Sources/` in a temporary directory, and the check's output and status on it after `change`.
    func check(after change: (URL) throws -> Void) throws -> (status: Int32, output: String) {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-layers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Sources"), to: copy.appendingPathComponent("Sources"))
        try change(copy)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.root.appendingPathComponent("Tests/check-layers.sh").path, copy.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    func append(_ text: String, to path: String, in copy: URL) throws {
        let file = copy.appendingPathComponent(path)
        let before = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        try (before + text).write(to: file, atomically: true, encoding: .utf8)
    }

    @Test func theSourcesAsTheyArePass() throws {
        let result = try check { _ in }
        #expect(result.status == 0)
        #expect(result.output == "layer check: ok\n")
    }

    @Test func theEngineNamingAMockFails() throws {
        let result = try check { copy in
            try append("\nfunc sneak(_ world: ServiceWorld) throws -> MockBackend? { nil }\n",
                       to: "Sources/BulwarkUpgrades/Engine/Sneak.swift", in: copy)
        }
        #expect(result.status == 1)
        #expect(result.output.contains("layer check: the engine names a mock or the demo:\n  Sources/BulwarkUpgrades/Engine/Sneak.swift:2:"))
    }

    @Test func aRealCommandNamingTheDemoFails() throws {
        let result = try check { copy in
            try append("\nlet sneaked = DemoSetup.appleID\n", to: "Sources/bulwark/UpgradeCommand.swift", in: copy)
        }
        #expect(result.status == 1)
        #expect(result.output.contains("layer check: a real command names a mock or the demo (wire it in ServiceWiring.swift):\n  Sources/bulwark/UpgradeCommand.swift:"))
    }

    @Test func theCoreNamingAMockFails() throws {
        let result = try check { copy in
            try append("\n// MockIdentityProvider\n", to: "Sources/BulwarkCore/Vault/Vault.swift", in: copy)
        }
        #expect(result.status == 1)
        #expect(result.output.contains("layer check: the core names a mock or the demo:"))
    }
}
