import Foundation
import Testing

/// Every user-visible change is one vault transaction: an edit whose new
/// password reaches the account's other entries (Shiny and Shiny Store are
/// one account), and an import that merges and adds. Killed with SIGKILL at
/// every step of a vault write, the first time or the second it is reached
/// (the edit once committed twice: a kill between left the account's two
/// entries with different passwords), the vault holds all of the change or
/// none of it.
@Suite struct OneChangeOneWriteTests {
    typealias Fixture = VaultCommandTests.Fixture
    static let points = ["write-synced", "write-planned", "write-rows", "write-deleted", "write-indexed"]

    static func passwords(_ f: Fixture, _ titles: [String]) throws -> [String] {
        try titles.map { title in
            let shown = try f.json(["show", title, "--json", "--reveal"]) as! [String: Any]
            return shown["password"] as? String ?? ""
        }
    }

    @Test(arguments: [1, 2])
    func anEditThatReachesTheAccountIsAllOrNone(occurrence: Int) throws {
        for point in Self.points {
            let f = try Fixture(demoServices: true)
            for (title, url) in [("Shiny", "https://shiny.example"), ("Shiny Store", "https://shinystore.example")] {
                #expect(try f.run(["add", "--title", title, "--url", url, "--username", "jane", "--entry-password-stdin"],
                                  stdin: "master\nold-Passw0rd-1\n").status == 0)
            }
            let edit = try Binary.run(["edit", "Shiny", "--entry-password-stdin", "--vault", f.vault, "--password-stdin"],
                                      stdin: "master\nnew-Passw0rd-2\n", environment: ["BULWARK_KILL_AT": "\(point)#\(occurrence)"])
            let after = try Self.passwords(f, ["Shiny", "Shiny Store"])
            #expect(after == ["old-Passw0rd-1", "old-Passw0rd-1"] || after == ["new-Passw0rd-2", "new-Passw0rd-2"],
                    "killed at \(point)#\(occurrence) (exit \(edit.status)): \(after)")
            // The first occurrence is inside the one transaction: killed, nothing written.
            if occurrence == 1 { #expect(edit.status != 0 && after == ["old-Passw0rd-1", "old-Passw0rd-1"], "\(point)") }
            #expect(try f.run(["check"]).status == 0)
        }
    }

    /// An import that merges one login and adds another: both or neither.
    @Test func anImportThatMergesAndAddsIsAllOrNone() throws {
        for point in Self.points {
            let f = try Fixture()
            #expect(try f.run(["add", "--title", "Shiny", "--url", "https://shiny.example", "--username", "jane", "--entry-password-stdin"],
                              stdin: "master\nold-Passw0rd-1\n").status == 0)
            let csv = f.dir.appendingPathComponent("chrome.csv")
            try "name,url,username,password,note\nShiny,https://shiny.example,jane,file-Passw0rd-2,\nNew,https://new.example,jane,pw,\n"
                .write(to: csv, atomically: true, encoding: .utf8)
            for occurrence in [1, 2] {
                _ = try Binary.run(["import", "--merge", csv.path, "--vault", f.vault, "--password-stdin"], stdin: "master\n",
                                   environment: ["BULWARK_KILL_AT": "\(point)#\(occurrence)"])
                let listed = (try f.json(["list", "--json"]) as! [[String: Any]]).map { $0["title"] as! String }.sorted()
                let history = ((try f.json(["show", "Shiny", "--json", "--reveal"]) as! [String: Any])["history"] as! [Any]).count
                #expect((listed == ["Shiny"] && history == 0) || (listed == ["New", "Shiny"] && history == 1), "\(point)#\(occurrence): \(listed), \(history)")
            }
        }
    }
}
