import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// F on an entry: its files listed by name, size and type; Enter saves the
/// one selected to a path typed (whole, beside what is there, never over
/// it); a attaches a file from a path. Through the live session and vault.
@Suite struct FilesDialogTests {
    static let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 11) })

    func fixture(width: Int = 80, height: Int = 24) async throws -> (AppFixture, URL) {
        let f = try AppFixture(width: width, height: height)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let entry = Entry(title: "Bank", urls: ["https://bank.example"], username: "jane", password: "pw", created: AppFixture.now)
        f.store.send(.vault(.updated(try f.session.save(entry, basedOn: nil), banner: nil)))
        await f.store.settle()
        for (name, data) in [("recovery codes.pdf", Self.bytes), ("key.asc", Data("-----BEGIN PGP-----\n".utf8))] {
            let file = folder.appendingPathComponent(name)
            try data.write(to: file)
            let (snapshot, _) = try f.session.attachFile(entryID: entry.id, path: file.path)
            f.store.send(.vault(.updated(snapshot, banner: nil)))
        }
        await f.store.settle()
        await f.selectEntry("Bank")
        return (f, folder)
    }

    @Test(arguments: [(80, 24), (60, 16)])
    func theDialogListsTheFiles(width: Int, height: Int) async throws {
        let (f, folder) = try await fixture(width: width, height: height)
        defer { try? FileManager.default.removeItem(at: folder) }
        await f.press(.char("F"))
        f.golden("files")
        await f.press(.enter)
        f.golden("files-save")
        await f.press(.escape, .char("d"))
        f.golden("files-remove")
    }

    /// d asks first, saying the bytes leave the vault (no other entry holds
    /// them); n keeps the file, y takes it from the entry.
    @Test func dRemovesAFileOnceAsked() async throws {
        let (f, folder) = try await fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        await f.press(.char("F"), .down, .char("d"))
        #expect(f.state.files?.confirmRemove == "key.asc" && f.state.files?.removeKeepsBytes == false)
        #expect(AppView.render(f.state).textDump().contains("Remove key.asc from Bank? Its bytes leave the vault"))
        await f.press(.char("n"))
        #expect(f.state.files?.confirmRemove == nil && f.state.entry(id: f.state.files?.entryID)?.attachments.count == 2)
        await f.press(.char("d"), .char("y"))
        #expect(f.state.banner == Banner(ok: true, text: "Removed key.asc from Bank."), "\(String(describing: f.state.banner))")
        let left = f.state.entry(id: f.state.files?.entryID)?.attachments.map(\.name)
        #expect(left == ["recovery codes.pdf"] && f.state.files?.list.selected == 0)
    }

    @Test func enterSavesTheFileWholeAndNeverOverAnother() async throws {
        let (f, folder) = try await fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        await f.press(.char("F"), .enter, .ctrl("u"))
        await f.type(out.path)  // a folder: the file goes in it under its own name
        await f.press(.enter)
        #expect(f.state.banner == Banner(ok: true, text: "Saved recovery codes.pdf (68.4 KiB) to \(out.path)/recovery codes.pdf."), "\(String(describing: f.state.banner))")
        #expect(FileManager.default.contents(atPath: out.path + "/recovery codes.pdf") == Self.bytes)
        // Again: the file is there now, and stays as it is.
        await f.press(.enter, .ctrl("u"))
        await f.type(out.path)
        await f.press(.enter)
        #expect(f.state.banner?.ok == false && f.state.banner?.text.hasPrefix("Could not save recovery codes.pdf: ") == true)
        // a attaches from a path; the dialog lists it.
        let extra = folder.appendingPathComponent("photo.png")
        try Data([1, 2, 3]).write(to: extra)
        await f.press(.char("a"))
        await f.type(extra.path)
        await f.press(.enter)
        #expect(f.state.banner == Banner(ok: true, text: "Attached photo.png (3 bytes)."))
        #expect(f.state.entry(id: f.state.files?.entryID)?.attachments.map(\.name) == ["recovery codes.pdf", "key.asc", "photo.png"])
    }
}
