import Foundation
import Testing

/// `bulwark get`: one value for a script, exit 1 when there is none, 2
/// when the name matches several entries (each named with its id).
@Suite struct GetCommandTests {
    @Test func oneValueForAScript() throws {
        let f = try VaultCommandTests.Fixture()
        #expect(try f.run(["add", "--title", "Mail", "--username", "jane", "--url", "https://mail.example", "--notes", "line one",
                           "--entry-password-stdin"], stdin: "master\ns3cret pass\n").status == 0)
        #expect(try f.run(["add", "--title", "Shiny", "--totp", "-"],
                          stdin: "master\notpauth://totp/Shiny:jane?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&digits=8\n").status == 0)
        for (field, expected) in [(nil, "s3cret pass"), ("username", "jane"), ("url", "https://mail.example"), ("notes", "line one")] {
            let got = try f.run(["get", "mail"] + (field.map { ["--field", $0] } ?? []))
            #expect(got.status == 0 && got.stdout == expected + "\n" && got.stderr.isEmpty, "\(String(describing: field)): \(got.stdout)\(got.stderr)")
        }
        let code = try f.run(["get", "Shiny", "--field", "totp"])
        #expect(code.status == 0 && code.stdout.count == 9 && code.stdout.dropLast().allSatisfy(\.isNumber), "\(code.stdout)")
        let json = try f.json(["get", "Mail", "--json"]) as? [String: String]
        #expect(json?["title"] == "Mail" && json?["field"] == "password" && json?["value"] == "s3cret pass" && json?["id"]?.isEmpty == false)
        // None, or nothing in that field: 1, said.
        let missing = try f.run(["get", "Nope"])
        #expect(missing.status == 1 && missing.stdout.isEmpty && missing.stderr == "bulwark: no entry matches 'Nope'.\n", "\(missing.stderr)")
        let empty = try f.run(["get", "Shiny"])
        #expect(empty.status == 1 && empty.stdout.isEmpty && empty.stderr == "bulwark: Shiny has no password.\n", "\(empty.stderr)")
        let noField = try f.run(["get", "Mail", "--field", "pin"])
        #expect(noField.status == 1 && noField.stderr == "bulwark: Mail has no pin.\n")
        // Several: 2, each named with its id; the id picks one.
        #expect(try f.run(["add", "--title", "mail", "--entry-password-stdin"], stdin: "master\nother\n").status == 0)
        let several = try f.run(["get", "MAIL"])
        let ids = try (f.json(["list", "--json"]) as? [[String: Any]] ?? []).filter { ($0["title"] as? String)?.lowercased() == "mail" }
            .compactMap { $0["id"] as? String }
        #expect(several.status == 2 && several.stdout.isEmpty && ids.count == 2)
        #expect(several.stderr.hasPrefix("bulwark: 'MAIL' matches 2 entries: ") && ids.allSatisfy(several.stderr.contains), "\(several.stderr)")
        let byID = try f.run(["get", ids[0]])
        #expect(byID.status == 0 && ["s3cret pass\n", "other\n"].contains(byID.stdout))
    }
}
