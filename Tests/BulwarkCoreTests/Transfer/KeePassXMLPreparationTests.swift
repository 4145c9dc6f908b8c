import Foundation
import Testing
@testable import BulwarkCore

/// A KeePass XML export read beside the KDF (`KDBXPreparedXML`): its items
/// packed and unpacked unchanged, the prepared read the same as the read in
/// one go (batches in order, the trash, history, files), a refusal the same
/// refusal, and a mapped export's pages given back behind the parse.
@Suite struct KeePassXMLPreparationTests {
    /// Everything an item holds, as text (its tuples are not Equatable).
    static func described(_ item: KDBXDocument.Item) -> String {
        let strings = item.strings.map { "\($0.key)=\($0.value)\($0.protected ? " (protected)" : "")" }
        let dates = [item.created, item.modified, item.expires].map { $0.map { "\($0.timeIntervalSinceReferenceDate)" } ?? "-" }
        return "\(strings) \(item.tags) \(item.group) \(dates) \(item.expiresSet) \(item.inRecycleBin) "
            + "\(item.attachments.map { "\($0.name)@\($0.ref)" }) [\(item.history.map(described).joined(separator: "; "))]"
    }

    @Test func packedItemsComeBackAsTheyWere() {
        var old = KDBXDocument.Item()
        old.strings = [("Password", "older", true)]
        old.modified = Date(timeIntervalSinceReferenceDate: 0.1)
        var full = KDBXDocument.Item()
        full.strings = [("Title", "Bank ✓", false), ("Password", "", true), ("Notes", String(repeating: "long note ", count: 300), false), ("", "a", false)]
        full.tags = ["a;b", "ünï"]
        full.group = ["Root", "Money/Banks"]
        full.created = Date(timeIntervalSinceReferenceDate: -62_135_596_800)
        full.modified = Date(timeIntervalSinceReferenceDate: 1_234_567.891)
        full.expires = Date(timeIntervalSinceReferenceDate: 9e9)
        full.expiresSet = true
        full.attachments = [("codes.txt", 0), ("big", 1_000_000)]
        full.history = [old, KDBXDocument.Item()]
        var binned = KDBXDocument.Item()
        binned.inRecycleBin = true
        let items = [full, KDBXDocument.Item(), binned] + (0..<300).map { index -> KDBXDocument.Item in
            var item = KDBXDocument.Item()
            item.strings = (0..<index % 7).map { ("K\($0)", "v\(index)", $0 % 2 == 0) }
            return item
        }
        let packed = KDBXPackedItems(items)
        #expect(packed.count == items.count)
        #expect(packed.items().map(Self.described) == items.map(Self.described))
        #expect(KDBXPackedItems([]).items().isEmpty)
    }

    /// 2,500 entries (three batches), one in the recycle bin, one with
    /// history, one with a file the export carries in `Meta/Binaries`.
    static func document() -> String {
        let file = Data("the file".utf8).base64EncodedString()
        var xml = #"<?xml version="1.0" encoding="UTF-8"?><KeePassFile><Meta><RecycleBinUUID>YmluYmluYmluYmluYmluYg==</RecycleBinUUID>"#
            + #"<Binaries><Binary ID="0">\#(file)</Binary></Binaries></Meta><Root><Group><Name>Root</Name>"#
        for index in 0..<2_500 {
            xml += "<Entry><Times><CreationTime>2020-01-01T00:00:00Z</CreationTime></Times><String><Key>Title</Key><Value>E\(index) &amp; co</Value></String>"
                + #"<String><Key>Password</Key><Value ProtectInMemory="True">pw-\#(index)</Value></String>"#
            if index == 7 { xml += #"<Binary><Key>codes.txt</Key><Value Ref="0"/></Binary>"# }
            if index == 8 {
                xml += "<History><Entry><Times><LastModificationTime>2019-01-01T00:00:00Z</LastModificationTime></Times>"
                    + "<String><Key>Password</Key><Value>old</Value></String></Entry></History>"
            }
            xml += "</Entry>"
        }
        return xml + "<Group><UUID>YmluYmluYmluYmluYmluYg==</UUID><Name>Recycle Bin</Name><Entry><String><Key>Title</Key><Value>Gone</Value></String></Entry></Group>"
            + "</Group></Root></KeePassFile>"
    }

    @Test func aPreparedReadIsTheSameRead() throws {
        let data = Data(Self.document().utf8)
        let now = Date(timeIntervalSince1970: 1)
        let prepared = try #require(ImportPreparation.make(data, format: .keepassXML))
        let once = try Importer.parse(data, format: .keepassXML, now: now), ahead = try Importer.parse(data, format: .keepassXML, now: now, prepared: prepared)
        func seen(_ parsed: Importer.Parsed) -> [String] {
            parsed.candidates.map { "\($0.title) \($0.password ?? "-") \($0.tags) \($0.history.map(\.password)) \($0.attachments.map(\.name)) \($0.created)" }
                + parsed.result.notHeld + ["trash \(parsed.result.inTrash)", "files \(parsed.result.files.count)"]
        }
        #expect(ahead.candidates.count == 2_500 && seen(ahead) == seen(once))
        #expect(ahead.candidates[2_499].title == "E2499 & co" && ahead.candidates[8].history.map(\.password) == ["old"])
        #expect(ahead.candidates[7].attachments.map(\.name) == ["codes.txt"] && ahead.result.inTrash == 1 && ahead.result.files.count == 1)
    }

    @Test func aRefusedDocumentIsRefusedTheSameWay() throws {
        let masked = Data(#"<KeePassFile><Root><Group><Entry><String><Key>Password</Key><Value Protected="True">QUJDRA==</Value></String></Entry></Group></Root></KeePassFile>"#.utf8)
        let broken = Data("<KeePassFile><Root><Group><Entry></Group></Root></KeePassFile>".utf8)
        for data in [masked, broken] {
            let prepared = try #require(ImportPreparation.make(data, format: .keepassXML))
            var once: ImportError?, ahead: ImportError?
            do { _ = try Importer.parse(data, format: .keepassXML) } catch { once = error }
            do { _ = try Importer.parse(data, format: .keepassXML, prepared: prepared) } catch { ahead = error }
            #expect(once != nil && ahead == once, "\(String(describing: ahead))")
        }
    }

    /// Read beside the KDF, a mapped export's pages are given back behind
    /// the parse (scrypt's 128 MiB and a whole 56 MB export would pass 200 MB).
    static let note = String(repeating: "a note to fill the pages ", count: 48)

    /// A file of `count` entries with long notes (numbered), in one write, and its mapping.
    static func mapped(_ count: Int) throws -> (URL, Data) {
        let entries = (0..<count).map { "<Entry><String><Key>Title</Key><Value>E\($0)</Value></String><String><Key>Notes</Key><Value>\(note)\($0)</Value></String></Entry>" }
        let url = try MappedExportTests.file(Array(("<KeePassFile><Root><Group><Name>Root</Name>" + entries.joined() + "</Group></Root></KeePassFile>").utf8))
        return (url, try #require(MappedExport(path: url.path)).data)
    }

    @Test func aMappedExportIsGivenBackBehindTheParse() throws {
        let (url, data) = try Self.mapped(10_000)
        defer { try? FileManager.default.removeItem(at: url) }
        let note = Self.note
        #expect(data.count > 2 * MappedExport.step)
        let prepared = try #require(ImportPreparation.make(data, format: .keepassXML))
        let givenBack = data.withUnsafeBytes { MappedExport.givenBack($0.baseAddress!) } ?? 0
        #expect(givenBack >= data.count / MappedExport.step * MappedExport.step - MappedExport.step)
        let read = try Importer.parse(data, format: .keepassXML, prepared: prepared)
        #expect(read.candidates.count == 10_000 && read.candidates.last?.notes == note + "9999")
    }

    /// How much of the mapping holding `address` is in memory (its `Rss` in /proc/self/smaps), in KiB.
    static func resident(_ address: UnsafeRawPointer) -> Int? {
        // Read to its end (a file of /proc says it is empty, and a read by its size gets nothing).
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps"), let bytes = try? handle.readToEnd() else { return nil }
        let smaps = String(decoding: bytes, as: UTF8.self)
        let target = UInt(bitPattern: address)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let range = line.split(separator: " ").first?.split(separator: "-")
            if let range, range.count == 2, let low = UInt(range[0], radix: 16), let high = UInt(range[1], radix: 16) {
                inside = (low..<high).contains(target)
            } else if inside, line.hasPrefix("Rss:") {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
            }
        }
        return nil
    }

    /// The shape check goes back to names just behind it: given back a step
    /// behind, the pages it touches again are not kept. (Given back at once,
    /// each such touch mapped again the whole huge page holding it, which
    /// a file written in one go is kept in, and half the file stayed in memory.)
    @Test func theShapeCheckHoldsAFewStepsOfAMappedExport() throws {
        let (url, data) = try Self.mapped(20_000)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(data.count > 24 * MappedExport.step)
        let kept = try data.withUnsafeBytes { raw in
            #expect(XMLShape.check(raw.bindMemory(to: UInt8.self), depthLimit: KDBXDocument.depthLimit) == nil)
            return try #require(Self.resident(raw.baseAddress!))
        }
        #expect(kept <= 6 * MappedExport.step / 1024, "\(kept) KiB of \(data.count / 1024) KiB kept")
    }
}
