import Foundation
import Testing
@testable import BulwarkCore

/// bulwark → KDBX 4 → bulwark, in the core (cheap Argon2), for what the
/// end-to-end test against keepassxc-cli does not reach.
@Suite struct KDBXRoundTripTests {
    static var cheap: KDBXExport.Settings {
        var settings = KDBXExport.Settings()
        settings.memoryMiB = 8
        settings.iterations = 2
        return settings
    }

    @Test func repeatedAndReservedFieldNamesStayUniqueAndNothingIsLost() throws {
        var entry = Entry(title: "Bank", urls: ["https://bank.example"], username: "jane", password: "pw-1", notes: "n", tags: ["Money/Banks", "x"])
        entry.fields = [CustomField(name: "PIN", value: "1111", hidden: true), CustomField(name: "PIN", value: "2222"),
                        CustomField(name: "Notes", value: "a field called Notes"), CustomField(name: "bad\u{1}key", value: "v")]
        let data = try KDBXExport.write([entry], password: "pw", settings: Self.cheap)
        let read = try KDBXImport.read(data, password: "pw", keyFile: nil, now: Date())
        let back = try #require(read.entries.first)
        #expect(back.fields == [CustomField(name: "PIN", value: "1111", hidden: true), CustomField(name: "PIN (2)", value: "2222"),
                                CustomField(name: "Notes (2)", value: "a field called Notes"), CustomField(name: "bad\u{FFFD}key", value: "v")])
        #expect(back.notes == "n" && back.tags == ["Money/Banks", "x"] && back.password == "pw-1")
        #expect(throws: ImportError.self) { try KDBXImport.read(data, password: "not pw", keyFile: nil, now: Date()) }
    }

    /// Twenty fields of one name (past the short list the writer keeps
    /// names in) come back numbered in order, and an entry's id is its
    /// KeePass UUID whichever way the id's hex is written.
    @Test func manyFieldsOfOneNameAndTheEntrysUUID() throws {
        var entry = Entry(title: "Many")
        entry.fields = (1...20).map { CustomField(name: "PIN", value: "\($0)") } + [CustomField(name: "PIN (3)", value: "x")]
        let data = try KDBXExport.write([entry], password: "pw", settings: Self.cheap)
        let back = try #require(try KDBXImport.read(data, password: "pw", keyFile: nil, now: Date()).entries.first)
        #expect(back.fields.map(\.name) == ["PIN"] + (2...20).map { "PIN (\($0))" } + ["PIN (3) (2)"])
        #expect(back.fields.map(\.value) == (1...20).map { "\($0)" } + ["x"])
        for id in (0..<200).map({ _ in EntryID.random() }) + ["6BA7B810-9DAD-11D1-80B4-00C04FD430C8", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"] {
            let foundation = try #require(UUID(uuidString: id))
            #expect(KDBXXMLWriter.uuidBytes(id) == withUnsafeBytes(of: foundation.uuid) { Array($0) }, "\(id)")
        }
        for other in ["", "6ba7b810-9dad-11d1-80b4-00c04fd430c", "6ba7b810x9dad-11d1-80b4-00c04fd430c8", "6ba7b810-9dad-11d1-80b4-00c04fd430cg", "not a uuid at all, 36 chars long...."] {
            #expect(KDBXXMLWriter.uuidBytes(other) == nil, "\(other)")
        }
    }

    /// An expiry is KeePass's own; tags holding ; or , and a group holding / come back as they were.
    @Test func expiryOddTagsAndSlashedGroupsRoundTrip() throws {
        var entry = Entry(title: "Bank", username: "jane", password: "pw", tags: ["Money/Banks", "a;b", "c, d", "plain"])
        entry.expires = Date(timeIntervalSince1970: 1_900_000_000)
        let data = try KDBXExport.write([entry], password: "pw", settings: Self.cheap)
        let imported = try KDBXImport.read(data, password: "pw", keyFile: nil, now: Date())
        let back = try #require(imported.entries.first)
        #expect(back.expires == entry.expires && back.tags == ["Money/Banks", "plain", "a;b", "c, d"] && back.fields.isEmpty)
        // KeePass's group "TV/Radio" under "Media" is one group, not two, and goes back as one.
        let xml = #"<?xml version="1.0" encoding="UTF-8"?><KeePassFile><Root><Group><Name>Root</Name><Group><Name>Media</Name><Group><Name>TV/Radio</Name>"#
            + #"<Entry><String><Key>Title</Key><Value>Stream</Value></String><Times><ExpiryTime>2030-01-01T00:00:00Z</ExpiryTime><Expires>False</Expires></Times></Entry>"#
            + "</Group></Group></Group></Root></KeePassFile>"
        let parsed = try KDBXImport.readXML(Data(xml.utf8), now: Date())
        let read = try #require(parsed.entries.first)
        #expect(read.tags == ["Media/TV\u{2215}Radio"] && read.expires == nil)
        let again = try KDBXImport.read(try KDBXExport.write([read], password: "pw", settings: Self.cheap), password: "pw", keyFile: nil, now: Date())
        #expect(again.entries.first?.tags == ["Media/TV\u{2215}Radio"])
        let stream = try StreamCiphers.KeyStream(chacha20: Array(repeating: 1, count: 32), nonce: Array(repeating: 2, count: 12))
        let written = String(decoding: KDBXXMLWriter(stream: stream, now: Date()).document([read]), as: UTF8.self)
        #expect(written.contains("<Name>Media</Name>") && written.contains("<Name>TV/Radio</Name>"))
    }

    /// KeePass's history is kept whole: a version that changed more than the password is an earlier
    /// version with every value; a password change is an old password; both go back to KeePass as they were.
    @Test func historyIsKeptWholeBothWays() throws {
        func version(_ time: String, _ url: String, _ password: String) -> String {
            "<Entry><Times><LastModificationTime>\(time)</LastModificationTime></Times><String><Key>Title</Key><Value>Mail</Value></String>"
                + "<String><Key>UserName</Key><Value>jane</Value></String><String><Key>Password</Key><Value ProtectInMemory=\"True\">\(password)</Value></String>"
                + "<String><Key>URL</Key><Value>\(url)</Value></String></Entry>"
        }
        let xml = #"<?xml version="1.0" encoding="UTF-8"?><KeePassFile><Root><Group><Name>Root</Name><Entry>"#
            + "<Times><CreationTime>2020-01-01T00:00:00Z</CreationTime><LastModificationTime>2023-01-01T00:00:00Z</LastModificationTime></Times>"
            + "<String><Key>Title</Key><Value>Mail</Value></String><String><Key>UserName</Key><Value>jane</Value></String>"
            + #"<String><Key>Password</Key><Value ProtectInMemory="True">pw-3</Value></String><String><Key>URL</Key><Value>https://mail.example</Value></String>"#
            + "<History>" + version("2021-01-01T00:00:00Z", "https://old-mail.example", "pw-1") + version("2022-01-01T00:00:00Z", "https://mail.example", "pw-2")
            + "</History></Entry></Group></Root></KeePassFile>"
        let parsed = try KDBXImport.readXML(Data(xml.utf8), now: Date())
        let entry = try #require(parsed.entries.first)
        #expect(entry.history.map(\.password) == ["pw-2", "pw-1"])
        #expect(entry.snapshots == [EntrySnapshot(at: Date(timeIntervalSince1970: 1_609_459_200),
                                                  values: [CustomField(name: "Title", value: "Mail"), CustomField(name: "UserName", value: "jane"),
                                                           CustomField(name: "Password", value: "pw-1", hidden: true),
                                                           CustomField(name: "URL", value: "https://old-mail.example")])])
        let again = try KDBXImport.read(try KDBXExport.write([entry], password: "pw", settings: Self.cheap), password: "pw", keyFile: nil, now: Date())
        let back = try #require(again.entries.first)
        #expect(back.snapshots == entry.snapshots && back.history.map(\.password) == ["pw-2", "pw-1"])
        #expect(back.history.map(\.changedAt) == entry.history.map(\.changedAt))
    }

    @Test func aLargeVaultSpansSeveralBlocks() throws {
        // Random notes, so that gzip leaves more than one 1 MiB block.
        let entries = (0..<3_000).map { Entry(title: "E\($0)", username: "u\($0)", password: String(repeating: "p\($0)", count: 40),
                                               notes: (0..<20).map { _ in EntryID.random() }.joined()) }
        let data = try KDBXExport.write(entries, password: "pw", settings: Self.cheap)
        #expect(data.count > 1_200_000)
        let read = try KDBXImport.read(data, password: "pw", keyFile: nil, now: Date())
        #expect(read.entries.count == 3_000 && read.entries.last?.password == String(repeating: "p2999", count: 40))
        #expect(read.entries.map(\.notes) == entries.map(\.notes))
    }

    /// KeePassXC's passkey (its KPEX_PASSKEY_ strings) becomes the entry's,
    /// and bulwark writes one back the same way.
    @Test func keepassXCPasskeysBothWays() throws {
        let key = try P256PrivateKey.generate()
        let passkey = Passkey(credentialID: Array(repeating: 3, count: 16), rpID: "site.example", userHandle: [1, 2, 3], userName: "jane",
                              userDisplayName: "jane", privateKey: key.pkcs8, created: Date(timeIntervalSince1970: 1_700_000_000))
        var entry = Entry(title: "Site", urls: ["https://site.example"], username: "jane", password: "p", created: passkey.created)
        entry.passkeys = [passkey]
        let read = try KDBXImport.read(try KDBXExport.write([entry], password: "pw", settings: Self.cheap), password: "pw", keyFile: nil, now: Date())
        #expect(read.entries.first?.passkeys == [passkey])
        #expect(read.entries.first?.fields.isEmpty == true)
        let pem = KeePassXCPasskey.pem(key.pkcs8)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n") && pem.split(separator: "\n").dropFirst().dropLast().allSatisfy { $0.count <= 64 })
        #expect(KeePassXCPasskey.fromPEM(pem) == key.pkcs8)
    }

    /// KeePass 2.47's own TOTP and HOTP fields become the entry's code;
    /// KeePassXC's passkey attributes that make no whole passkey stay hidden fields.
    @Test func keepassOTPFieldsAndPasskeyAttributes() throws {
        var item = KDBXDocument.Item()
        item.strings = [("Title", "Site", false), ("UserName", "jane", false), ("Password", "p", true),
                        ("TimeOtp-Secret-Base32", "JBSWY3DPEHPK3PXP", true), ("TimeOtp-Length", "8", false), ("TimeOtp-Period", "60", false),
                        ("TimeOtp-Algorithm", "HMAC-SHA-256", false), ("KPEX_PASSKEY_USERNAME", "jane", false), ("KPEX_PASSKEY_RELYING_PARTY", "site.example", false)]
        let entry = KDBXImport.entry(item, now: Date())
        let code = try OTPAuthURL.parse(try #require(entry.totpURI))
        let secret = try Base32.decode("JBSWY3DPEHPK3PXP")
        #expect(code.kind == .totp(period: 60) && code.digits == 8 && code.digest == .sha256 && code.secret == secret)
        #expect(entry.fields == [CustomField(name: "KPEX_PASSKEY_USERNAME", value: "jane", hidden: true),
                                 CustomField(name: "KPEX_PASSKEY_RELYING_PARTY", value: "site.example", hidden: true)])
        var hotp = KDBXDocument.Item()
        hotp.strings = [("Title", "H", false), ("HmacOtp-Secret-Hex", "3132333435363738393031323334353637383930", true), ("HmacOtp-Counter", "5", false)]
        let counter = try OTPAuthURL.parse(try #require(KDBXImport.entry(hotp, now: Date()).totpURI))
        #expect(counter.kind == .hotp(counter: 5) && counter.code(at: 0) == "254676")  // RFC 4226's test secret at counter 5
    }

    /// The header's choices, changed in a file bulwark wrote: an unknown
    /// cipher, and Argon2 work past the limit, each refused before any work.
    @Test func unknownCiphersAndGreedyArgon2AreRefused() throws {
        let data = [UInt8](try KDBXExport.write([Entry(title: "A", password: "p")], password: "pw", settings: Self.cheap))
        var unknown = data
        let aes = KDBXExport.hexBytes(KDBXContainer.aesCipher)
        let at = try #require((0..<(unknown.count - 16)).first { Array(unknown[$0..<$0 + 16]) == aes })
        unknown[at] ^= 0xFF
        #expect(throws: ImportError(line: nil, message: "the database uses a cipher bulwark does not know (cec1f2e6bf714350be5805216afc5aff)")) {
            try KDBXImport.read(Data(unknown), password: "pw", keyFile: nil, now: Date())
        }
        let twofish = KDBXExport.hexBytes(KDBXContainer.twofishCipher)
        var withTwofish = data
        withTwofish.replaceSubrange(at..<at + 16, with: twofish)
        #expect(throws: ImportError.self) { try KDBXImport.read(Data(withTwofish), password: "pw", keyFile: nil, now: Date()) }
        var unknownKDF = data
        let argon = KDBXExport.hexBytes(KDBXContainer.argon2id)
        let k = try #require((0..<(unknownKDF.count - 16)).first { Array(unknownKDF[$0..<$0 + 16]) == argon })
        unknownKDF[k] ^= 0xFF
        let named = Array(unknownKDF[k..<k + 16]).hex
        #expect(throws: ImportError(line: nil, message: "the database uses a key derivation bulwark does not know (\(named))")) {
            try KDBXImport.read(Data(unknownKDF), password: "pw", keyFile: nil, now: Date())
        }
        var greedy = data
        let passes: [UInt8] = [0x05, 0x01, 0x00, 0x00, 0x00, 0x49, 0x08, 0x00, 0x00, 0x00]  // UInt64 "I"
        let i = try #require((0..<(greedy.count - passes.count)).first { Array(greedy[$0..<$0 + passes.count]) == passes })
        greedy.replaceSubrange(i + 10..<i + 18, with: [100, 0, 0, 0, 0, 0, 0, 0])
        let memory: [UInt8] = [0x05, 0x01, 0x00, 0x00, 0x00, 0x4D, 0x08, 0x00, 0x00, 0x00]
        let m = try #require((0..<(greedy.count - memory.count)).first { Array(greedy[$0..<$0 + memory.count]) == memory })
        greedy.replaceSubrange(m + 10..<m + 18, with: [0, 0, 0, 64, 0, 0, 0, 0])  // 1 GiB
        let started = Date()
        #expect(throws: ImportError(line: nil, message: "the Argon2 parameters ask for 1024 MiB, 100 passes and 2 lanes; bulwark refuses more than 1024 MiB, 100 passes, 64 lanes, or 32 GiB of passes in all (about 10 s here)")) {
            try KDBXImport.read(Data(greedy), password: "pw", keyFile: nil, now: Date())
        }
        #expect(Date().timeIntervalSince(started) < 1)
    }
}
