import Foundation
import Testing
@testable import BulwarkUpgrades

/// Replays the service layer's saved libFuzzer inputs through the checks
/// its fuzz targets run (`make fuzz FUZZ_TARGET=service-manifest`).
@Suite struct UpgradesFuzzCorpusReplayTests {
    @Test(arguments: ["service-manifest"])
    func savedCorpus(name: String) throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzCorpus/\(name)")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        let check = try #require(UpgradesFuzzChecks.all[name])
        #expect(files.count >= 20)
        for file in files {
            let problem = check(Array(try Data(contentsOf: file)))
            #expect(problem == nil, "\(file.lastPathComponent): \(problem ?? "")")
        }
    }
}
