import Foundation
import Testing
@testable import BulwarkCore

/// A large KeePass document read as two parts at once (`XMLSplit`,
/// `KDBXSplitRead`): the same entries as a read in one go, protected
/// values unmasked from the right place in the stream, groups and the
/// recycle bin known to the second part, and a cut the first part's
/// stream does not confirm read in one go instead.
@Suite struct KDBXSplitTests {
    static func stream() throws -> StreamCiphers.KeyStream { try KDBXHostileTests.stream() }

    /// What a reader sees of an entry, as text.
    static func seen(_ entries: [Entry]) -> [String] {
        entries.map { entry in
            "\(entry.title) \(entry.username) \(entry.password ?? "-") \(entry.tags) \(entry.fields.map { "\($0.name)=\($0.value)\($0.hidden ? "*" : "")" }) "
                + "\(entry.history.map(\.password)) \(entry.snapshots.count) \(entry.attachments.map(\.name))"
        }
    }

    /// The first place two lists differ, or nil (not the lists themselves: thousands of lines).
    static func difference(_ a: [String], _ b: [String]) -> String? {
        if let index = a.indices.first(where: { $0 < b.count && a[$0] != b[$0] }) { return "at \(index): \(a[index]) | \(b[index])" }
        return a.count == b.count ? nil : "\(a.count) against \(b.count)"
    }

    @Test func aLargeDatabaseIsReadInTwoPartsAsInOne() throws {
        let entries = (0..<4_000).map { index in
            var entry = Entry(title: "E\(index) <&>", username: "u\(index)", password: "pw-\(index)-ü", notes: String(repeating: "n", count: index % 50),
                              tags: ["Group \(index % 7)/Sub \(index % 3)"])
            entry.fields = [CustomField(name: "PIN", value: "\(index)", hidden: true), CustomField(name: "Plain", value: "p\(index)")]
            if index % 500 == 3 { entry.history = [PasswordHistoryItem(password: "old-\(index)", changedAt: Date(timeIntervalSince1970: 1_600_000_000), reason: "r")] }
            return entry
        }
        let data = try KDBXExport.write(entries, password: "pw", settings: KDBXRoundTripTests.cheap)
        let container = try KDBXContainer.open(data, password: "pw", keyFile: nil)
        let split = try #require(try KDBXDocument.check(container.xml, findingSplit: true))
        #expect(split.at > container.xml.count / 2 && split.streamOffset > 0)
        // The cut stands before an entry, and the second part opens with the groups it sits in.
        #expect(container.xml.withUnsafeBytes { String(decoding: $0[split.at..<(split.at + 7)], as: UTF8.self) } == "<Entry>")
        #expect(String(decoding: split.opening, as: UTF8.self).hasPrefix("<KeePassFile><Root><Group>") && String(decoding: split.closing, as: UTF8.self).hasSuffix("</Group></Root></KeePassFile>"))
        let inTwo = try #require(container.xml.withUnsafeBytes { KDBXSplitRead.read($0, split: split, stream: container.innerStream, now: Date()) })
        let inOne = KDBXImport.read(try KDBXDocument.read(KDBXContainer.open(data, password: "pw", keyFile: nil).xml,
                                                         stream: KDBXContainer.open(data, password: "pw", keyFile: nil).innerStream), now: Date())
        #expect(inTwo.0.entries.count == 4_000 && Self.difference(Self.seen(inTwo.0.entries), Self.seen(inOne.entries)) == nil)
        // Each entry as it was written (the export writes them group by group).
        #expect(Self.difference(Self.seen(inTwo.0.entries).sorted(), Self.seen(entries).sorted()) == nil)
        // What `import` does: the same again.
        #expect(Self.difference(Self.seen(try KDBXImport.read(data, password: "pw", keyFile: nil, now: Date()).entries), Self.seen(inOne.entries)) == nil)
    }

    /// KeePass's XML with each password masked in document order.
    static func masked(_ count: Int, odd: Int?, binAfter: Bool) throws -> [UInt8] {
        let mask = try stream()
        func protected(_ text: String) -> String { Data(mask.xor(Array(text.utf8))).base64EncodedString() }
        var xml = "<KeePassFile><Meta><RecycleBinUUID>YmluYmluYmluYmluYmluYg==</RecycleBinUUID></Meta><Root><Group><UUID>cm9vdHJvb3Ryb290cm9vdA==</UUID><Name>Root</Name>"
        for group in 0..<2 {
            xml += "<Group><UUID>Z3JvdXBncm91cGdyb3VwZw==</UUID><Name>G\(group)</Name>"
            for index in (group * count / 2)..<((group + 1) * count / 2) {
                xml += "<Entry><String><Key>Title</Key><Value>E\(index)</Value></String>"
                // A value that looks protected to a reader of bytes but is not to libxml2: the cut's count is off.
                xml += index == odd ? #"<String><Key>Odd</Key><Value Note=' Protected="True"'>QUJD</Value></String>"# : ""
                let password = protected("pw-\(index)")
                xml += #"<String><Key>Password</Key><Value Protected="True">\#(password)</Value></String></Entry>"#
            }
            xml += "</Group>"
        }
        let bin = "<Group><UUID>YmluYmluYmluYmluYmluYg==</UUID><Name>Bin</Name><Entry><String><Key>Title</Key><Value>Gone</Value></String></Entry></Group>"
        return Array((binAfter ? xml + bin : xml).utf8) + Array("</Group></Root></KeePassFile>".utf8)
    }

    @Test func theSecondPartKnowsItsGroupsAndTheRecycleBin() throws {
        let xml = try Self.masked(20_000, odd: nil, binAfter: true)
        let split = try #require(try KDBXDocument.check(xml, findingSplit: true))
        #expect(String(decoding: split.opening, as: UTF8.self).contains("<Meta><RecycleBinUUID>YmluYmluYmluYmluYmluYg==</RecycleBinUUID></Meta>"))
        let read = try #require(xml.withUnsafeBytes { KDBXSplitRead.read($0, split: split, stream: try? Self.stream(), now: Date()) }).0
        #expect(read.entries.count == 20_000 && read.inTrash == 1)
        #expect(Self.difference(read.entries.map { $0.password ?? "-" }, (0..<20_000).map { "pw-\($0)" }) == nil)
        #expect(read.entries[0].tags == ["G0"] && read.entries[19_999].tags == ["G1"])
    }

    /// A plain XML export (no stream: values written as they are) is cut
    /// and read in two parts too, each value where it was.
    @Test func aPlainExportIsReadInTwoPartsToo() throws {
        let xml = String(decoding: try Self.masked(20_000, odd: nil, binAfter: true), as: UTF8.self)
            .replacingOccurrences(of: #"<Value Protected="True">"#, with: #"<Value ProtectInMemory="True">"#)
        let bytes = Array(xml.utf8)
        let split = try #require(try KDBXDocument.check(bytes, findingSplit: true))
        #expect(split.streamOffset == 0)
        let inTwo = try #require(bytes.withUnsafeBytes { KDBXSplitRead.read($0, split: split, stream: nil, now: Date()) }).0
        let inOne = KDBXImport.read(try KDBXDocument.read(bytes, stream: nil), now: Date())
        #expect(inTwo.entries.count == 20_000 && inTwo.inTrash == 1 && inOne.inTrash == 1)
        #expect(Self.difference(Self.seen(inTwo.entries), Self.seen(inOne.entries)) == nil)
        #expect(try KDBXImport.readXML(Data(bytes), now: Date()).entries.count == 20_000)
    }

    @Test func aCutTheFirstPartDoesNotConfirmIsReadInOneGo() throws {
        let xml = try Self.masked(20_000, odd: 5, binAfter: false)
        let split = try #require(try KDBXDocument.check(xml, findingSplit: true))
        // Read in two, the second part's stream would start three bytes late: refused.
        #expect(xml.withUnsafeBytes { KDBXSplitRead.read($0, split: split, stream: try? Self.stream(), now: Date()) } == nil)
        let read = try KDBXImport.read(xml: xml, stream: try Self.stream(), now: Date())
        #expect(Self.difference(read.entries.map { $0.password ?? "-" }, (0..<20_000).map { "pw-\($0)" }) == nil)
    }

    @Test func theDecodedLengthIsFoundationsDecodedLength() {
        for text in ["", "QUJD", "QUI=", "QQ==", " QUJD\n", "QUJ", "QU=D", "Q===", "QUJD QUJD", "Zm9v\r\n", "Zg", "@@@@"] {
            let counted = Array(text.utf8).withUnsafeBufferPointer { XMLSplit.Finder.decodedCount($0) }
            #expect(counted == (Data(base64Encoded: KDBXDocument.trimmed(text))?.count ?? 0), "\(text)")
        }
    }

    @Test func aSmallOrUncuttableDocumentIsReadInOneGo() throws {
        #expect(try KDBXDocument.check(try Self.masked(10, odd: nil, binAfter: false), findingSplit: true) == nil)
        // A protected value holding an entity before the middle: the stream's place cannot be counted from bytes.
        let entity = String(decoding: try Self.masked(20_000, odd: nil, binAfter: false), as: UTF8.self)
            .replacingOccurrences(of: "<Key>Title</Key><Value>E7</Value>", with: #"<Key>Title</Key><Value Protected="True">&#65;</Value>"#)
        #expect(try KDBXDocument.check(Array(entity.utf8), findingSplit: true) == nil)
        // A document declaring an encoding other than UTF-8 (which a part on its own could not know) is read in one go.
        let masked = try Self.masked(20_000, odd: nil, binAfter: false)
        #expect(try KDBXDocument.check(Array(#"<?xml version="1.0" encoding="UTF-8"?>"#.utf8) + masked, findingSplit: true) != nil)
        #expect(try KDBXDocument.check(Array(#"<?xml version="1.0" encoding="ISO-8859-1"?>"#.utf8) + masked, findingSplit: true) == nil)
    }

    /// The shape checked in two halves at once says what the check in one
    /// go says: nothing of a good document (and the same cut), the same
    /// message for a problem in either half or across the join.
    @Test func theCheckInHalvesSaysWhatTheCheckInOneGoSays() throws {
        let good = String(decoding: try Self.masked(20_000, odd: nil, binAfter: true), as: UTF8.self)
        // Between entries, a tenth and nine tenths of the way in.
        func entry(after fraction: Double) throws -> String.Index {
            try #require(good.range(of: "<Entry>", range: good.index(good.startIndex, offsetBy: Int(Double(good.utf8.count) * fraction))..<good.endIndex)).lowerBound
        }
        let at = try entry(after: 0.9), early = try entry(after: 0.1)
        let late = String(good[at...]), before = String(good[..<at])
        let lastEntry = try #require(good.range(of: "</Entry>", options: .backwards))
        let variants: [(String, String)] = [
            ("good", good),
            ("a comment late", before + "<!-- c -->" + late),
            ("a mismatched end late", good.replacingCharacters(in: lastEntry, with: "</Entri>")),
            ("never closed", String(good.dropLast("</KeePassFile>".count))),
            ("an element closed across the join by another name", good.replacingOccurrences(of: "<Root>", with: "<Root><Wrap>").replacingOccurrences(of: "</Root>", with: "</Wrop></Root>")),
            ("an element closed across the join", good.replacingOccurrences(of: "<Root>", with: "<Root><Wrap>").replacingOccurrences(of: "</Root>", with: "</Wrap></Root>")),
            ("deep across the join", String(good[..<early]) + String(repeating: "<d>", count: 70) + String(good[early..<at])
                + String(repeating: "<e>", count: 70) + String(repeating: "</e>", count: 70) + String(repeating: "</d>", count: 70) + late),
            ("a '<' in an attribute late", before + "<a b='<'/>" + late),
        ]
        for (name, text) in variants {
            let bytes = Array(text.utf8)
            #expect(bytes.count > 2 * XMLShape.twoCoresFrom, "\(name)")
            let (once, halves) = bytes.withUnsafeBufferPointer { buffer in
                var first: XMLSplit.Finder? = XMLSplit.Finder(buffer), second: XMLSplit.Finder? = XMLSplit.Finder(buffer)
                let once = XMLShape.check(buffer, depthLimit: KDBXDocument.depthLimit, finding: &first)
                var joined = false
                let halves = XMLShape.checkOnTwoCores(buffer, depthLimit: KDBXDocument.depthLimit, finding: &second, joined: &joined)
                return ("\(once ?? "fine") \(first?.found?.at ?? -1)", "\(halves ?? "fine") \(second?.found?.at ?? -1) \(joined)")
            }
            // A good document's halves are joined; any other is checked again in one go, which names its problem.
            let fine = name == "good" || name == "an element closed across the join"
            #expect(once + " \(fine)" == halves, "\(name): \(once) | \(halves)")
            #expect(once.hasPrefix("fine ") == fine, "\(name)")
        }
    }

    /// A database's key worked out ahead (as `import` does beside the
    /// vault's KDF) opens it as the password does; a key from another
    /// password is refused as that password is; a file that is not a
    /// database has no key ahead, and its read says why.
    @Test func aKeyWorkedOutAheadOpensTheSameDatabase() throws {
        let entries = (0..<20).map { Entry(title: "E\($0)", username: "u\($0)", password: "pw-\($0)") }
        let data = try KDBXExport.write(entries, password: "pw", settings: KDBXRoundTripTests.cheap)
        let ahead = try #require(ImportPreparation.kdbxKey(data, password: "pw", keyFile: nil))
        let once = try Importer.parse(data, format: .kdbx, filePassword: "pw"), read = try Importer.parse(data, format: .kdbx, filePassword: "pw", prepared: ahead)
        #expect(Self.seen(read.candidates) == Self.seen(once.candidates) && read.candidates.count == 20)
        let other = try #require(ImportPreparation.kdbxKey(data, password: "not pw", keyFile: nil))
        #expect(throws: ImportError(line: nil, message: "wrong password or key file (the header's HMAC does not match)")) {
            try Importer.parse(data, format: .kdbx, filePassword: "not pw", prepared: other)
        }
        #expect(ImportPreparation.kdbxKey(Data("not a database".utf8), password: "pw", keyFile: nil) == nil)
    }
}
