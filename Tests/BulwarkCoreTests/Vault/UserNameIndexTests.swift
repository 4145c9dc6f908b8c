import Foundation
import Testing
@testable import BulwarkCore

/// The vault's index of user names, kept through its own changes, other
/// writers' changes and big ones: the entries a change finds through it
/// are always those a walk through every entry finds.
@Suite struct UserNameIndexTests {
    static let names = ["jane@mail.example", " Jane@Mail.Example", "JANE@MAIL.EXAMPLE\t", "jane", "Jane", "bob",
                        "\u{00A0}jane", "jané", "Jané", "", "  "]

    /// The name as the account-matching compares it (as `AccountEntries.normalizedUser`).
    static func normalized(_ name: String) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        return trimmed.dropFirst().contains("@") ? trimmed.lowercased() : trimmed
    }

    /// For every name: through the index equals the walk, in a change with puts, a delete and new entries.
    func expectTheIndexAgrees(_ vault: Vault, _ random: inout SplitMix64, _ note: String) throws {
        let ids = vault.entries.map(\.id)
        try vault.transaction { change in
            for _ in 0..<3 {
                var edited = try #require(change.entry(id: ids.randomElement(using: &random)!))
                edited.username = Self.names.randomElement(using: &random)!
                try change.save(edited, basedOn: vault.version(of: edited.id))
            }
            try change.remove(id: ids.randomElement(using: &random)!)
            try change.insert([Entry(title: "New", username: Self.names.randomElement(using: &random)!)])
            for name in Set(Self.names.map(Self.normalized)) {
                let same: (Entry) -> Bool = { Self.normalized($0.username) == name }
                #expect(change.entries(withUserNameKey: UserNameKey.of(name), where: same).map(\.id) == change.entries.filter(same).map(\.id),
                        "\(note): \(name.debugDescription)")
            }
            throw CancellationError()  // written not at all
        }
    }

    @Test func theIndexFollowsEveryKindOfChange() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("v.db")
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        vault.backupPolicy = .none
        var random = SplitMix64(seed: 44)
        try vault.save((0..<80).map { Entry(title: "E\($0 % 13)", username: Self.names[$0 % Self.names.count]) })
        try? expectTheIndexAgrees(vault, &random, "first asked")
        for round in 0..<12 {
            // A few changes of its own (kept in the index), many (dropped), another writer's (read in).
            if round % 4 == 3 {
                let other = try Vault.open(at: path, masterPassword: "m")
                other.backupPolicy = .none
                var edited = try #require(other.entries.randomElement(using: &random))
                edited.username = Self.names.randomElement(using: &random)!
                try other.save(edited)
                try other.remove(id: other.entries.randomElement(using: &random)!.id)
                other.close()
                _ = try vault.refresh()
            } else {
                // Every entry (more than the index follows), or two.
                let picked = round % 4 == 2 ? vault.entries : [vault.entries[round], vault.entries[round + 30]]
                try vault.save(picked.map { entry in
                    var entry = entry
                    entry.username = Self.names.randomElement(using: &random)!
                    entry.title = "R\(round)"
                    return entry
                })
                try vault.save(Entry(title: "Added \(round)", username: Self.names.randomElement(using: &random)!))
            }
            try? expectTheIndexAgrees(vault, &random, "round \(round)")
        }
        #expect(vault.userNames != nil)
        // The rows replaced other than by a change (a lock, a load): the index goes with them.
        vault.lock()
        #expect(vault.userNames == nil)
    }
}
