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

    @Test(arguments: ["password-rules", "otpauth-url", "sms-code", "pwned-passwords", "import-csv", "import-json", "import-1pux", "import-cxf", "import-other", "json-tape", "agent-request", "ssh-agent-message", "kdbx-xml", "kdbx-file", "terminal-text", "cbor", "webauthn-options", "jws"])
    func savedCorpus(name: String) throws {
        let files = try Self.corpus(name)
        let check = try #require(FuzzChecks.all[name])
        #expect(files.count >= 20)
        for file in files {
            let problem = check(Array(try Data(contentsOf: file)))
            #expect(problem == nil, "\(file.lastPathComponent): \(problem ?? "")")
        }
    }
}
