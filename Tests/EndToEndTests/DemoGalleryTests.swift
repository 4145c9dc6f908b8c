import Foundation
import Testing

/// docs/demo is `bulwark demo --gallery` as checked in: written again here,
/// it must match file for file and byte for byte, so a change to a screen,
/// a scenario or the player cannot leave the pictures stale.
@Suite struct DemoGalleryTests {
    static let checkedIn = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/demo")

    @Test func theCheckedInGalleryIsWhatTheDemoWritesNow() throws {
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-gallery-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: fresh) }
        let result = try Binary.run(["demo", "--gallery", fresh.path])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: fresh.path).sorted()
        let kept = try FileManager.default.contentsOfDirectory(atPath: Self.checkedIn.path).sorted()
        #expect(written.count == 29 && written.contains("player.html") && written.contains("upgrade-to-passkey.svg"))
        #expect(kept == written, "docs/demo holds other files than the gallery: run make demo-artifacts")
        for name in written {
            let now = try Data(contentsOf: fresh.appendingPathComponent(name))
            let before = try? Data(contentsOf: Self.checkedIn.appendingPathComponent(name))
            #expect(before == now, "docs/demo/\(name) is stale: run make demo-artifacts and commit it")
        }
        // The page shows every picture and links each into the player.
        let page = try String(contentsOf: Self.checkedIn.appendingPathComponent("README.md"), encoding: .utf8)
        for name in written where name.hasSuffix(".svg") {
            let scenario = String(name.dropLast(4))
            #expect(page.contains("](\(name))") && page.contains("player.html#\(scenario)/1"))
        }
    }
}
