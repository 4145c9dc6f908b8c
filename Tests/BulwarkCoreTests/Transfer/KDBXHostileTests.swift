import Foundation
import Testing
@testable import BulwarkCore

/// What a hostile KeePass file can try, refused quickly with a message:
/// a gzip bomb, a DTD or entities, deep nesting, and every key file form.
@Suite struct KDBXHostileTests {
    /// A megabyte of zeros, gzip-compressed by Python's gzip module to about a kilobyte.
    static let bomb = Array(Data(base64Encoded: "H4sIAAAAAAACA+3BMQEAAADCoPVPbQhfoAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAPgMc6jinAAAQAA==")!)

    @Test func aGzipBombStopsAtItsLimit() throws {
        #expect(throws: Gzip.Failure.self) { try Gzip.inflate(Self.bomb, limit: 64 << 10) }
        let inflated = try Gzip.inflate(Self.bomb, limit: 2 << 20)
        #expect(inflated.count == 1 << 20 && inflated.allSatisfy { $0 == 0 })
        // Inflated into room of the trailer's size: exactly at the limit is taken, a byte under is refused.
        #expect(try Gzip.inflate(Self.bomb, limit: 1 << 20).count == 1 << 20)
        #expect(throws: Gzip.Failure.self) { try Gzip.inflate(Self.bomb, limit: (1 << 20) - 1) }
        // A trailer that claims less (64 KiB of 1 MiB): inflated past the room it gave, then refused by zlib's length check.
        var understated = Self.bomb
        #expect(Array(understated.suffix(4)) == [0, 0, 0x10, 0])
        understated[understated.count - 2] = 0x01
        let refused = #expect(throws: Gzip.Failure.self) { _ = try Gzip.inflate(understated, limit: 2 << 20).count }
        #expect(refused?.description == "the compressed content is damaged (zlib: -3)")
        var damaged = Self.bomb
        damaged[20] ^= 0xFF
        #expect(throws: Gzip.Failure.self) { try Gzip.inflate(damaged, limit: 2 << 20) }
    }

    /// Output of 24 MB, inflated a step at a time with its pages made ready
    /// on another core, comes out whole; a trailer that claims three times
    /// as much is taken for what the content holds.
    @Test func aLargeOutputIsInflatedWholeInSteps() throws {
        let original = (0..<(24 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) & 0x3F }
        let compressed = try KDBXExport.deflate([original])
        #expect(try Gzip.inflate(compressed, limit: 64 << 20) == original)
        var overstated = compressed
        let claim = UInt32(120 << 20)
        for (index, byte) in withUnsafeBytes(of: claim.littleEndian, Array.init).enumerated() { overstated[overstated.count - 4 + index] = byte }
        #expect(throws: Gzip.Failure.self) { try Gzip.inflate(overstated, limit: 128 << 20) }  // zlib's length check: 24 MB is not 120
        #expect(throws: Gzip.Failure.self) { try Gzip.inflate(compressed, limit: 23 << 20) }
    }

    static func stream() throws -> StreamCiphers.KeyStream { try StreamCiphers.KeyStream(chacha20: [UInt8](repeating: 1, count: 32), nonce: [UInt8](repeating: 2, count: 12)) }

    @Test func aDTDOrEntitiesAreRefusedBeforeParsing() throws {
        let billionLaughs = #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><KeePassFile>&lol2;</KeePassFile>"#
        #expect(throws: ImportError(line: nil, message: "the database's XML declares a DTD or entities, which KeePass never writes; refused")) {
            try KDBXDocument.read(Array(billionLaughs.utf8), stream: try Self.stream())
        }
        // An element name that is not UTF-8 crashed FoundationXML's parser (the kdbx-xml fuzzer's find).
        let badName = Array("<KeePassFile><Strin".utf8) + [0xE7] + Array("><Key>a</Key></KeePassFile>".utf8)
        #expect(throws: ImportError(line: nil, message: "the database's XML is not valid UTF-8")) {
            try KDBXDocument.read(badName, stream: try Self.stream())
        }
        // A mismatched end tag crashed FoundationXML's parser (the fuzzer's second find): refused before it.
        #expect(throws: ImportError(line: nil, message: "the database's XML is malformed (a malformed tag)")) {
            try KDBXDocument.read(Array("<G>True</RlAg==</yRcceleBiRcceleBinUUID></MAAQ==g".utf8), stream: try Self.stream())
        }
        #expect(throws: ImportError(line: nil, message: "the database's XML is malformed (an end tag that does not close the open element)")) {
            try KDBXDocument.read(Array("<KeePassFile><Root></Meta></KeePassFile>".utf8), stream: try Self.stream())
        }
        for good in ["<a x=\"1 > 2\"><b/><c>t</c></a>", "<?xml version=\"1.0\"?><a></a>", "\u{FEFF}<?xml version=\"1.0\"?>\n<a/>",
                     "<a  x = 'y'\n z=\"w\" ><b x=\"1\"/></a >"] {
            #expect(XMLShape.check(Array(good.utf8), depthLimit: 8) == nil, "\(good)")
        }
        for bad in ["<a>", "<a></b>", "</a>", "<a><1/></a>", "<a x=\"<\"></a>", "<a", "<a><!-- x --></a>", "<?h?>ssxd", "<a/><?xml version=\"1.0\"?>",
                    "<a><![CDATA[x]]></a>", "<?xml </et</Name><a/>", "<a b]?xml <?ev?>x</a>", "<a b=c></a>", "<a b></a>", "</a b=\"1\">"] {
            #expect(XMLShape.check(Array(bad.utf8), depthLimit: 8) != nil, "\(bad)")
        }
        let deep = "<KeePassFile>" + String(repeating: "<a>", count: 500) + String(repeating: "</a>", count: 500) + "</KeePassFile>"
        #expect(throws: ImportError(line: nil, message: "the database's XML is malformed (nesting deeper than 128 levels)")) {
            try KDBXDocument.read(Array(deep.utf8), stream: try Self.stream())
        }
    }

    /// The shape check's UTF-8 pass, eight ASCII bytes at a time: every
    /// multi-byte form, at every offset of a word, and each kind of damage.
    @Test func utf8IsCheckedAtEveryOffset() {
        for padding in 0..<9 {
            let prefix = Array(repeating: UInt8(ascii: "a"), count: padding)
            for good in ["é", "€", "𝄞", "aé€𝄞z", ""] {
                let bytes = prefix + Array(good.utf8) + prefix
                #expect(bytes.withUnsafeBufferPointer(XMLShape.isUTF8), "\(padding) \(good)")
            }
            for bad: [UInt8] in [[0xE2, 0x82], [0xC3], [0x80], [0xF0, 0x9D, 0x84], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF]] {
                #expect(!(prefix + bad).withUnsafeBufferPointer(XMLShape.isUTF8), "\(padding) \(bad)")
                #expect(!(prefix + bad + prefix).withUnsafeBufferPointer(XMLShape.isUTF8), "\(padding) \(bad) then ASCII")
            }
        }
    }

    /// What the shape check lets through and libxml2 refuses is named with its line and libxml2's code.
    @Test func libxml2sRefusalIsNamed() throws {
        let undeclared = Array("<KeePassFile>\n<Root>&nope;</Root></KeePassFile>".utf8)
        #expect(throws: ImportError(line: 2, message: "the database's XML is malformed (libxml2 error 26)")) {
            try KDBXDocument.read(undeclared, stream: try Self.stream())
        }
    }

    @Test func keyFilesInEveryFormKeePassReads() throws {
        let raw = [UInt8](0..<32)
        #expect(try KeePassKeyFile.key(raw) == raw)
        #expect(try KeePassKeyFile.key(Array(raw.hex.utf8)) == raw)
        let other = Array("a key file that is any other file".utf8)
        #expect(try KeePassKeyFile.key(other) == Digest.sha256(other))
        let v1 = "<?xml version=\"1.0\"?><KeyFile><Meta><Version>1.00</Version></Meta><Key><Data>\(Data(raw).base64EncodedString())</Data></Key></KeyFile>"
        #expect(throws: ImportError.self) { try KeePassKeyFile.key(Array(v1.utf8)) }  // "1.00" is not a version KeePass writes
        let v1ok = v1.replacingOccurrences(of: "1.00", with: "1.0")
        #expect(try KeePassKeyFile.key(Array(v1ok.utf8)) == raw)
        let hash = Array(Digest.sha256(raw).prefix(4)).hex.uppercased()
        let spaced = stride(from: 0, to: 64, by: 8).map { String(Array(raw.hex)[$0..<$0 + 8]) }.joined(separator: " ").uppercased()
        let v2 = "<?xml version=\"1.0\" encoding=\"utf-8\"?><KeyFile><Meta><Version>2.0</Version></Meta><Key><Data Hash=\"\(hash)\">\(spaced)</Data></Key></KeyFile>"
        #expect(try KeePassKeyFile.key(Array(v2.utf8)) == raw)
        let badHash = v2.replacingOccurrences(of: hash, with: "00000000")
        #expect(throws: ImportError(line: nil, message: "the key file is damaged (its hash check does not match its data)")) { try KeePassKeyFile.key(Array(badHash.utf8)) }
    }

    /// KeePass's AES-KDF through OpenSSL, checked against the same rounds
    /// done by Python's cryptography (AES-256-ECB, 1,000 rounds, then SHA-256).
    @Test func aesKDFMatchesAnIndependentComputation() throws {
        let key = [UInt8](repeating: 0x11, count: 32), seed = [UInt8](repeating: 0x22, count: 32)
        #expect(try StreamCiphers.aesKDF(key, seed: seed, rounds: 1000).hex == "bcc2a946b95dae2acb6dfe94f0bc76f9fe6927958c957a4a481a5479bfffef0d")
    }

    /// A database whose XML passes 10 MB (libxml2's limit for one buffer
    /// without its "huge" option) still reads: the parser is fed a stream.
    @Test func xmlOverTenMegabytesReads() throws {
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?><KeePassFile><Root><Group><UUID>AQ==</UUID><Name>Root</Name>"
        let notes = String(repeating: "n", count: 2_000)
        for i in 0..<6_000 {
            xml += "<Entry><String><Key>Title</Key><Value>E\(i)</Value></String><String><Key>Notes</Key><Value>\(notes)</Value></String></Entry>"
        }
        xml += "</Group></Root></KeePassFile>"
        #expect(xml.utf8.count > 12_000_000)
        let document = try KDBXDocument.read(Array(xml.utf8), stream: try Self.stream())
        #expect(document.items.count == 6_000 && document.items.last?.strings.first?.value == "E5999")
    }
}
