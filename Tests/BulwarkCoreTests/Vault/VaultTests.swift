import Foundation
import Testing
@testable import BulwarkCore

@Suite struct VaultTests {
    static func fullEntry() -> Entry {
        var entry = Entry(title: "Northwind Bank ✓", urls: ["https://bank.northwind.example/login", "https://m.northwind.example"],
                          username: "jane@mail.example", password: "correct horse ⚡ battery", notes: "line 1\nline 2, with \"quotes\"",
                          totpURI: "otpauth://totp/Northwind:jane?secret=GEZDGNBVGY3TQOJQ", tags: ["bank", "pin"],
                          category: .finance, created: Date(timeIntervalSince1970: 1_600_000_000))
        entry.changePassword(to: "newer secret", reason: "manual", at: Date(timeIntervalSince1970: 1_700_000_000))
        entry.hiddenFromRecommendations = true
        entry.hiddenUntil = Date(timeIntervalSince1970: 1_800_000_000.5)
        entry.signInWithApple = SignInWithAppleLink(user: "001234.abcd", email: "x7@relay.example", isPrivateRelay: true, state: .revoked)
        entry.pendingChange = PendingChange(kind: .strongPassword, newPassword: "staged ⚡ secret", startedAt: Date(timeIntervalSince1970: 1_750_000_000))
        return entry
    }

    @Test func everyFieldRoundTrips() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("vault.db")
        let entry = Self.fullEntry()
        var plain = Entry(title: "Plain", category: nil)
        plain.password = nil
        plain.pendingChange = PendingChange(kind: .signInWithApple, newPassword: nil, startedAt: Date(timeIntervalSince1970: 1_750_000_001))
        let card = Entry(title: "Visa", notes: "a card", kind: .card,
                         fields: [CustomField(name: "Number", value: "4111 1111", hidden: true), CustomField(name: "Brand", value: "Visa, \"classic\"")])
        do {
            let vault = try Vault.create(at: path, masterPassword: "master ünïcode", parameters: testParameters)
            try vault.save([entry, plain, card])
            vault.close()
        }
        let reopened = try Vault.open(at: path, masterPassword: "master ünïcode")
        #expect(reopened.entries.count == 3)
        #expect(try reopened.find(card.id) == card && reopened.find(entry.id).kind == .login)
        #expect(try reopened.find(entry.id) == entry)
        #expect(try reopened.find("plain") == plain)
        #expect(reopened.parameters == testParameters)
        #expect(try reopened.find(entry.id).history == [PasswordHistoryItem(password: "correct horse ⚡ battery",
                                                                             changedAt: Date(timeIntervalSince1970: 1_700_000_000), reason: "manual")])
    }

    /// The app lists `vault.entries` as they are: by title without regard
    /// to case, then by id, after every write and after opening.
    @Test func entriesAreKeptInTitleOrder() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("vault.db")
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        func order(_ entries: [Entry]) -> [String] { entries.map { "\($0.title)/\($0.id)" } }
        try vault.save([Entry(id: "3", title: "beta"), Entry(id: "2", title: "Alpha"), Entry(id: "1", title: "alpha"),
                        Entry(id: "4", title: "Zulu")])
        #expect(order(vault.entries) == ["alpha/1", "Alpha/2", "beta/3", "Zulu/4"])
        var zulu = try vault.find("4")
        zulu.title = "Aardvark"
        try vault.save(zulu)
        #expect(order(vault.entries) == ["Aardvark/4", "alpha/1", "Alpha/2", "beta/3"])
        try vault.remove(id: "1")
        vault.close()
        #expect(order(try Vault.open(at: path, masterPassword: "m").entries) == ["Aardvark/4", "Alpha/2", "beta/3"])
    }

    /// A write the file refuses changes nothing, in memory or on disk:
    /// for an edit (changed in place) and for an addition alike.
    @Test func aRefusedWriteChangesNothing() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("vault.db")
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        try vault.save([Entry(id: "1", title: "Bank", password: "one"), Entry(id: "2", title: "Mail", password: "two")])
        let before = vault.entries
        let other = try SQLiteDatabase(path: path.path, create: false)
        try other.execute("CREATE TRIGGER refuse BEFORE INSERT ON entries BEGIN SELECT RAISE(ABORT, 'refused'); END")
        var edited = try vault.find("1")
        edited.title = "Aardvark Bank"
        edited.password = "changed"
        #expect(throws: VaultError.self) { try vault.save(edited) }
        #expect(vault.entries == before)
        #expect(throws: VaultError.self) { try vault.save(Entry(id: "3", title: "New")) }
        #expect(vault.entries == before)
        try other.execute("DROP TRIGGER refuse")
        vault.close()
        #expect(try Vault.open(at: path, masterPassword: "m").entries == before)
    }

    /// Property: the in-place permutation equals gathering by the order.
    @Test func permutingInPlaceEqualsGathering() {
        var rng = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 3, 10, 257] {
            for _ in 0..<20 {
                let entries = (0..<count).map { Entry(id: "e\($0)", title: "t\(Int.random(in: 0..<5, using: &rng))") }
                let order = Array(entries.indices).shuffled(using: &rng)
                var permuted = entries
                Vault.permute(&permuted, by: order)
                #expect(permuted.map(\.id) == order.map { entries[$0].id })
            }
        }
    }

    @Test func wrongMasterPasswordChangesNothing() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("vault.db")
        let vault = try Vault.create(at: path, masterPassword: "right", parameters: testParameters)
        try vault.save(Self.fullEntry())
        vault.close()
        let before = try Data(contentsOf: path)
        #expect(throws: VaultError.wrongPassword) { try Vault.open(at: path, masterPassword: "wrong") }
        #expect(try Data(contentsOf: path) == before)
        #expect(try Vault.open(at: path, masterPassword: "right").entries.count == 1)
    }

    @Test func removeEditAndMasterPasswordChange() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("vault.db")
        let vault = try Vault.create(at: path, masterPassword: "one", parameters: testParameters)
        var a = Entry(title: "A", password: "pa"), b = Entry(title: "B", password: "pb")
        try vault.save([a, b])
        a.username = "changed"
        try vault.save(a)
        try vault.remove(id: b.id)
        try vault.changeMasterPassword(to: "two", parameters: ScryptParameters(logN: 11))
        vault.close()
        #expect(throws: VaultError.wrongPassword) { try Vault.open(at: path, masterPassword: "one") }
        let reopened = try Vault.open(at: path, masterPassword: "two")
        #expect(reopened.entries.map(\.username) == ["changed"])
        #expect(reopened.parameters.logN == 11)
        #expect(throws: VaultError.entryNotFound(b.id)) { try reopened.remove(id: b.id) }
    }

    @Test func findByIdOrUniqueTitle() throws {
        let dir = TemporaryDirectory()
        let vault = try Vault.create(at: dir.file("v.db"), masterPassword: "m", parameters: testParameters)
        let x = Entry(title: "Twin"), y = Entry(title: "twin"), z = Entry(title: "Solo")
        try vault.save([x, y, z])
        #expect(try vault.find("SOLO").id == z.id)
        #expect(try vault.find(x.id).id == x.id)
        #expect(throws: VaultError.ambiguousEntry("Twin", [x.id, y.id].sorted())) { _ = try vault.find("Twin") }
        #expect(throws: VaultError.entryNotFound("nope")) { _ = try vault.find("nope") }
    }

    @Test func lockDropsEverythingAndIdleLocks() throws {
        let dir = TemporaryDirectory()
        let vault = try Vault.create(at: dir.file("v.db"), masterPassword: "m", parameters: testParameters)
        try vault.save(Entry(title: "A", password: "p"))
        let start = Date(timeIntervalSince1970: 1000)
        vault.touch(now: start)
        #expect(vault.lockIfIdle(now: start.addingTimeInterval(299)) == false)
        #expect(vault.lockIfIdle(now: start.addingTimeInterval(300)) == true)
        #expect(vault.isLocked && vault.entries.isEmpty)
        #expect(throws: VaultError.locked) { try vault.save(Entry(title: "B")) }
    }

    @Test func filesAreOwnerOnlyAndHoldNoPlaintext() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("nested/dir/vault.db")
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        let secret = "Sup3r-Secret-Pa55word", username = "unique.user.name@mail.example"
        try vault.save(Entry(title: "Visible Title XYZ", urls: ["https://very-distinct-site.example"], username: username,
                             password: secret, notes: "note-marker-123", tags: ["tag-marker-456"]))
        // While open, WAL mode keeps -wal and -shm beside the database.
        let files = ["", "-wal", "-shm"].map { path.path + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        #expect(files.count == 3)
        for file in files {
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as! Int
            #expect(mode == 0o600, "\(file) has mode \(String(mode, radix: 8))")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            for marker in [secret, username, "Visible Title XYZ", "very-distinct-site", "note-marker-123", "tag-marker-456"] {
                #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(marker) in \(file)")
            }
        }
        let dirMode = try FileManager.default.attributesOfItem(atPath: path.deletingLastPathComponent().path)[.posixPermissions] as! Int
        #expect(dirMode == 0o700)
        vault.close()
    }

    @Test func creatingOverAnExistingVaultIsRefused() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("v.db")
        _ = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        #expect(throws: VaultError.alreadyExists(path.path)) { try Vault.create(at: path, masterPassword: "x", parameters: testParameters) }
        #expect(throws: VaultError.notFound(dir.file("none.db").path)) { try Vault.open(at: dir.file("none.db"), masterPassword: "m") }
    }

    @Test func defaultPathFollowsTheEnvironment() {
        #expect(Vault.defaultPath(environment: ["BULWARK_VAULT": "/x/v.db", "XDG_DATA_HOME": "/d"]).path == "/x/v.db")
        #expect(Vault.defaultPath(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]).path == "/d/bulwark/vault.db")
        #expect(Vault.defaultPath(environment: ["HOME": "/h"]).path == "/h/.local/share/bulwark/vault.db")
    }

    @Test func categoriesAreGuessedFromTheSite() {
        #expect(Entry(title: "Northwind", urls: ["https://bank.northwind.example"]).category == .finance)
        #expect(Entry(title: "Fastmail", urls: ["https://fastmail.example"]).category == .email)
        #expect(Entry(title: "Tax Office", urls: ["https://tax.gov.example"]).category == .government)
        #expect(Entry(title: "City Health Portal").category == .health)
        #expect(Entry(title: "Old Game").category == .other)
        #expect(Entry(title: "Old Game", category: .social).categoryIsManual)
    }
}

/// Vaults written by format 1 (nine boxes per entry, committed as a
/// fixture before format 2) and format 2 (one box per entry, no versions,
/// written by the bulwark of commit d80810d) open, and are converted in place.
@Suite struct VaultFormatTests {
    @Test(arguments: ["vault-v1.db", "vault-v2.db"])
    func anOlderVaultIsConvertedOnFirstOpen(fixture: String) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("vault.db")
        try FileManager.default.copyItem(at: SharedData.repositoryRoot.appendingPathComponent("Tests/BulwarkCoreTests/Fixtures/\(fixture)"), to: path)
        let before = try Data(contentsOf: path)
        #expect(throws: VaultError.wrongPassword) { try Vault.open(at: path, masterPassword: "not it") }
        #expect(try Data(contentsOf: path) == before)  // a wrong password converts nothing

        let vault = try Vault.open(at: path, masterPassword: "fixture")
        let bank = try vault.find("Northwind Bank")
        #expect(bank.password == "second-secret" && bank.history.map(\.password) == ["first-secret"] && bank.notes == "two\nlines")
        #expect(bank.totpURI == "otpauth://totp/Northwind:jane?secret=JBSWY3DPEHPK3PXP" && bank.tags == ["money"] && bank.category == .finance)
        let shiny = try vault.find("Shiny")
        #expect(shiny.hiddenFromRecommendations && shiny.hiddenUntil != nil && shiny.password == "shiny-secret")
        let expected = vault.entries
        vault.close()

        let reopened = try Vault.open(at: path, masterPassword: "fixture")
        #expect(reopened.entries == expected)
        reopened.close()
        // Now format 4 (3's tables): a version beside each sealed box, every row at version 1.
        let db = try SQLiteDatabase(path: path.path, create: false)
        #expect(try db.query("PRAGMA user_version").first?.first?.integer == Int64(Vault.schemaVersion))
        #expect(try db.query("SELECT name FROM pragma_table_info('entries')").compactMap { $0.first?.text } == ["id", "version", "sealed"])
        #expect(try db.query("SELECT DISTINCT version FROM entries").compactMap { $0.first?.integer } == [1])
        if fixture == "vault-v2.db" {
            // Its notes (the strength memo) are carried over, still readable.
            let converted = try Vault.open(at: path, masterPassword: "fixture")
            #expect(converted.noteBytes("strength-memo") != nil)
        }
    }
}

/// Titles in natural order: numbers as numbers, case ignored.
@Suite struct NaturalTitleOrderTests {
    @Test func numbersCompareAsNumbers() {
        let titles = ["Site 10009", "site 2", "Site 1001", "Site 10", "Site 9", "Site 09", "Site", "Site 1001b", "Alpha", "site 2 a"]
        let entries = titles.enumerated().map { Entry(id: String(format: "%02d", $0.offset), title: $0.element) }
        #expect(Vault.sorted(entries).map(\.title) == ["Alpha", "Site", "site 2", "site 2 a", "Site 9", "Site 09", "Site 10", "Site 1001", "Site 1001b", "Site 10009"])
    }

    @Test func theOrderIsTotalAndConsistent() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "B", "0", "00", "7", "10", "x1", " ", "é", "99", "0100"]
        let keys = (0..<300).map { _ in Vault.sortKey((0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()) }
        for a in keys.prefix(60) {
            #expect(Vault.compare(a, a) == 0)
            for b in keys.prefix(60) {
                #expect((Vault.compare(a, b) < 0) == (Vault.compare(b, a) > 0))
                if Vault.compare(a, b) == 0 { #expect(a == b) }
            }
        }
    }
}

/// Passkeys kept in an entry's box: an eleventh part, only when there are any.
@Suite struct PasskeyStorageTests {
    @Test func aPasskeySurvivesTheVaultAndOthersAreUntouched() throws {
        let dir = TemporaryDirectory()
        let vault = try Vault.create(at: dir.file("v.db"), masterPassword: "m", parameters: testParameters)
        // A card with custom fields: the tenth part must survive beside the eleventh.
        var entry = Entry(title: "Shop", urls: ["https://shop.example"], username: "jane", kind: .identity,
                          fields: [CustomField(name: "PIN", value: "4321", hidden: true)])
        let plain = Vault.box(entry)  // ten parts: no passkeys, no eleventh
        entry.passkeys = [Passkey(credentialID: Array(repeating: 5, count: 16), rpID: "shop.example", userHandle: [1, 2], userName: "jane",
                                  userDisplayName: "Jane", privateKey: try P256PrivateKey.generate().pkcs8, created: Date(timeIntervalSince1970: 1_800_000_000.25))]
        #expect(Vault.box(entry).count > plain.count)
        var without = entry
        without.passkeys = []
        #expect(Vault.box(without) == plain)
        try vault.save(entry)
        vault.close()
        let reopened = try Vault.open(at: dir.file("v.db"), masterPassword: "m")
        #expect(reopened.entries.first?.passkeys == entry.passkeys)
        #expect(reopened.entries.first?.kind == .identity)
        #expect(reopened.entries.first?.fields == entry.fields)
    }
}

/// Format 4 has format 3's tables; the number rose so that an older bulwark
/// says "newer" of boxes it cannot read (passkeys, kinds) instead of "damaged".
@Suite struct FormatFourTests {
    /// Rewrites a fresh vault's header and version as format `schema` (the checksum kept right).
    static func relabel(_ path: URL, as schema: Int) throws {
        let db = try SQLiteDatabase(path: path.path, create: false)
        defer { db.close() }
        var (header, _) = try Vault.Header.readUnchecked(from: db)
        header.schema = schema
        try db.query("UPDATE meta SET value = ? WHERE key = 'schema'", [.blob(Array(String(schema).utf8))])
        try db.query("UPDATE meta SET value = ? WHERE key = 'header_sha256'", [.blob(header.checksum)])
        try db.execute("PRAGMA user_version = \(schema)")
        // Before format 5 there was no table of attachments' chunks.
        if schema < 5 { try db.execute("DROP TABLE blobs") }
    }

    @Test(arguments: [3, 4]) func anOlderFormatBecomesTheCurrentWithNoRowRewritten(schema: Int) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("v.db")
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        try vault.save(Entry(title: "Shop", urls: ["https://shop.example"], username: "jane", password: "p"))
        let expected = vault.entries
        vault.close()
        try Self.relabel(path, as: schema)
        let before = try SQLiteDatabase(path: path.path, create: false)
        let rows = try before.query("SELECT id, version, sealed FROM entries")
        before.close()
        let reopened = try Vault.open(at: path, masterPassword: "m")
        #expect(reopened.entries == expected)
        reopened.close()
        let db = try SQLiteDatabase(path: path.path, create: false)
        defer { db.close() }
        #expect(try db.query("PRAGMA user_version").first?.first?.integer == 5)
        #expect(try db.query("SELECT count(*) FROM blobs").first?.first?.integer == 0)  // format 5's table made
        #expect(try db.query("SELECT id, version, sealed FROM entries") == rows)  // the boxes as they were
        #expect(try Vault.open(at: path, masterPassword: "m").entries == expected)
    }

    @Test func aNewerFormatIsRefusedAsNewer() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("v.db")
        try Vault.create(at: path, masterPassword: "m", parameters: testParameters).close()
        try Self.relabel(path, as: 6)
        #expect(throws: VaultError.newerFormat(6)) { try Vault.open(at: path, masterPassword: "m") }
    }
}
