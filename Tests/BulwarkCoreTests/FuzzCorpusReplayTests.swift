import Foundation
import Testing
@testable import BulwarkCore

/// Replays every saved libFuzzer input (`make fuzz` grows the corpora)
/// through the same checks the fuzz targets run.
@Suite struct FuzzCorpusReplayTests {
    static func corpus(_ name: String) throws -> [URL] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzCorpus/\(name)")
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func passwordRulesCorpus() throws {
        let files = try Self.corpus("password-rules")
        #expect(files.count >= 100)
        for file in files {
            let problem = FuzzChecks.passwordRules(Array(try Data(contentsOf: file)))
            #expect(problem == nil, "\(file.lastPathComponent): \(problem ?? "")")
        }
    }
}
