import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `bulwark import` and `export` as a user meets them: the summary by
/// kind, merging into logins the vault holds, other programs' protected
/// and zipped exports, and a password-protected export.
@Suite struct ImportCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BulwarkCoreTests/Fixtures/transfer")

    @Test func aLoginTheVaultHoldsIsKeptBesideItOrMerged() throws {
        let f = try VaultCommandTests.Fixture()
        _ = try f.run(["add", "--title", "Shiny", "--url", "https://shiny.example", "--username", "jane", "--entry-password-stdin"],
                      stdin: "master\nold-Passw0rd-1\n")
        let csv = f.dir.appendingPathComponent("chrome.csv")
        try "name,url,username,password,note\nShiny Store,https://shiny.example,jane,new-Passw0rd-2,from chrome\n".write(to: csv, atomically: true, encoding: .utf8)
        // A script (no terminal to ask): both are kept, and it says how to merge.
        let kept = try f.run(["import", "--format", "chrome-csv", csv.path])
        #expect(kept.stdout == "Imported 1 entry (1 login); 1 of them is a login the vault already held, kept beside it (--merge merges instead).\n")
        #expect((try f.json(["list", "--json"]) as! [Any]).count == 2)

        let g = try VaultCommandTests.Fixture()
        _ = try g.run(["add", "--title", "Shiny", "--url", "https://shiny.example", "--username", "jane", "--entry-password-stdin"],
                      stdin: "master\nold-Passw0rd-1\n")
        let merged = try g.run(["import", "--format", "chrome-csv", "--merge", csv.path])
        // Chrome's rows have no dates: the vault's values stand, the row's are kept and named.
        #expect(merged.stdout == "Imported 0 entries; merged 1 into the logins it matches (the newer side's values stand, the vault's where the file has no dates; nothing of the other side is lost).\n"
                + "  Merged Shiny: the file's password is in its history; the file's title is in a field marked (from the import).\n")
        let shown = try g.json(["show", "Shiny", "--json", "--reveal"]) as! [String: Any]
        #expect(shown["password"] as? String == "old-Passw0rd-1" && shown["notes"] as? String == "from chrome")
        #expect((shown["history"] as! [[String: Any]]).map { $0["password"] as! String } == ["new-Passw0rd-2"])
        #expect((shown["fields"] as! [[String: Any]]).map { "\($0["name"]!)=\($0["value"]!)" } == ["Title (from the import)=Shiny Store"])
        #expect((try g.json(["list", "--json"]) as! [Any]).count == 1)
        #expect(try g.run(["import", "--merge", "--keep-both", csv.path]).status == 2)

        // Two rows of the file for the same login merge in turn, in one write: one entry, nothing lost.
        let h = try VaultCommandTests.Fixture()
        _ = try h.run(["add", "--title", "Shiny", "--url", "https://shiny.example", "--username", "jane", "--entry-password-stdin"],
                      stdin: "master\nold-Passw0rd-1\n")
        try "name,url,username,password,note\nShiny A,https://shiny.example,jane,row-Passw0rd-2,\nShiny B,https://shiny.example/login,jane,row-Passw0rd-3,\n"
            .write(to: csv, atomically: true, encoding: .utf8)
        let twice = try h.run(["import", "--format", "chrome-csv", "--merge", csv.path])
        #expect(twice.stdout.hasPrefix("Imported 0 entries; merged 2 into the logins they match (the newer side's values stand, the vault's where the file has no dates; nothing of the other side is lost).\n"))
        let one = try h.json(["list", "--json"]) as! [[String: Any]]
        #expect(one.count == 1)
        let whole = try h.json(["show", one[0]["id"] as! String, "--json", "--reveal"]) as! [String: Any]
        let passwords = [whole["password"] as! String] + (whole["history"] as! [[String: Any]]).map { $0["password"] as! String }
        #expect(Set(passwords) == ["old-Passw0rd-1", "row-Passw0rd-2", "row-Passw0rd-3"])
        #expect(whole["urls"] as? [String] == ["https://shiny.example", "https://shiny.example/login"] || whole["urls"] as? [String] == ["https://shiny.example/login", "https://shiny.example"])
    }

    @Test func aPasswordProtectedBitwardenExportTakesItsPasswordOnTheNextLine() throws {
        let f = try VaultCommandTests.Fixture()
        let file = Self.fixtures.appendingPathComponent("bitwarden-argon2id.json").path
        let wrong = try f.run(["import", file], stdin: "master\nnot it\n")
        #expect(wrong.status == 1)
        #expect(wrong.stderr.hasSuffix("bulwark: \(file): wrong password for this Bitwarden export (its key check did not match). Nothing was imported.\n"))
        let right = try f.run(["import", file], stdin: "master\ncorrect horse battery staple\n")
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.stderr == "bulwark: reading \(file) as bitwarden-json (from its encrypted key (a password-protected Bitwarden export)).\n")
        #expect(right.stdout == "Imported 2 entries (1 login, 1 secure note).\n")
        #expect(try f.run(["code", "Northwind"]).stdout.split(separator: " ").first?.count == 5)

        // Out again, sealed with a password of its own, and in again elsewhere.
        let sealed = f.dir.appendingPathComponent("sealed.json").path
        let exported = try f.run(["export", "--format", "bitwarden-json", "--password-protected", sealed], stdin: "master\nexport-pass\n")
        #expect(exported.status == 0 && exported.stdout == "Exported 2 entries to \(sealed), sealed with its password.\n")
        let sealedText = try String(contentsOfFile: sealed, encoding: .utf8)
        #expect(!exported.stderr.contains("plain text") && !sealedText.contains("bank-Pass-1"))
        let g = try VaultCommandTests.Fixture()
        let back = try g.run(["import", sealed], stdin: "master\nexport-pass\n")
        #expect(back.stdout == "Imported 2 entries (1 login, 1 secure note).\n")
        #expect((try g.json(["show", "Northwind", "--json", "--reveal"]) as! [String: Any])["password"] as? String == "bank-Pass-1")
        #expect(try f.run(["export", "--format", "apple-csv", "--password-protected", sealed]).status == 2)
    }

    /// Bitwarden's export with attachments comes in with its files, one copy of a file two items hold.
    @Test func bitwardensZIPWithAttachmentsBringsTheFiles() throws {
        let f = try VaultCommandTests.Fixture()
        let file = Self.fixtures.appendingPathComponent("bitwarden-attachments.zip").path
        let result = try f.run(["import", file])
        #expect(result.status == 0 && result.stderr == "bulwark: reading \(file) as bitwarden-json (from its ZIP's data.json (Bitwarden's export with attachments)).\n",
                "\(result.stderr)")
        #expect(try f.run(["attachment", "get", "Northwind", "statement.pdf"]).stdout == "%PDF-1.4 statement")
        #expect(try f.run(["attachment", "get", "Door code", "codes.txt"]).stdout == "1111-2222\n")
    }

    @Test func a1PUXArchiveIsDetectedAndSummedUpByKind() throws {
        let f = try VaultCommandTests.Fixture()
        let file = Self.fixtures.appendingPathComponent("1password.1pux").path
        let result = try f.run(["import", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "bulwark: reading \(file) as 1password-1pux (from its ZIP's export.data).\n")
        #expect(result.stdout == """
        Imported 7 entries (2 logins, 2 secure notes, 1 card, 1 identity, 1 other); left out 1 item in the source's trash.

        """)
        // The archive's files are the entries' now.
        #expect(try f.run(["attachment", "get", "Passport scan", "passport.pdf"]).stdout == "%PDF")
        #expect(try f.run(["attachment", "get", "Mail", "codes.txt"]).stdout == "1111-2222\n")
        // A card's number is hidden unless revealed.
        let card = try f.json(["show", "Visa", "--json"]) as! [String: Any]
        let number = (card["fields"] as! [[String: Any]]).first { $0["name"] as? String == "Number" }!
        #expect(number["hidden"] as? Bool == true && number["value"] == nil)
    }

    /// Enpass's export, whose items are found beside the KDF and read on
    /// every core after it: the same entries, and a broken item named by its line.
    @Test func anEnpassExportIsReadWholeThroughTheBinary() throws {
        let f = try VaultCommandTests.Fixture()
        let file = Self.fixtures.appendingPathComponent("formats/enpass.json").path
        let result = try f.run(["import", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Imported 3 entries (1 login, 1 secure note, 1 card)"), "\(result.stdout)")
        let mail = try f.json(["show", "Mail", "--json", "--reveal"]) as! [String: Any]
        #expect((mail["tags"] as? [String]) == ["Work/Servers", "Favorites"])
        #expect((mail["fields"] as! [[String: Any]]).map { "\($0["name"]!)=\($0["value"]!)" } == ["Security answer=Smith"])

        let broken = f.dir.appendingPathComponent("broken.json")
        try "{\"folders\": [],\n \"items\": [{\"title\": \"A\", \"category\": \"login\", \"fields\": []},\n  {\"title\": \"B\" \"category\": \"login\"}]}\n"
            .write(to: broken, atomically: true, encoding: .utf8)
        let refused = try f.run(["import", "--format", "enpass-json", broken.path])
        #expect(refused.status == 1 && refused.stderr == "bulwark: \(broken.path): line 3: not valid JSON (expected , or } in an object). Nothing was imported.\n")
        #expect((try f.json(["list", "--json"]) as! [Any]).count == 3)
    }

    @Test func aCXFDocumentIsDetectedSummedUpAndWrittenBack() throws {
        let f = try VaultCommandTests.Fixture()
        let file = Self.fixtures.appendingPathComponent("cxf-archive.zip").path
        let result = try f.run(["import", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "bulwark: reading \(file) as cxf (from its ZIP (neither 1Password's, Proton Pass's, Dashlane's nor Bitwarden's), read for a CXF document).\n")
        #expect(result.stdout == """
        Imported 10 entries (1 login, 3 secure notes, 3 identities, 1 SSH key, 2 others).
          Future: the credential type quantum-key is not one CXF 1.0 defines; kept as the hidden field cxf:quantum-key.
          Future: the extension example-colour is not one CXF 1.0 defines; kept as the hidden field cxf-extension:example-colour.
          Not kept: the file tampered.txt of Scans (its bytes are not the ones its integrityHash names: corrupted).

        """)
        #expect(try f.run(["attachment", "get", "Scans", "passport.pdf"]).stdout == "%PDF")
        let out = f.dir.appendingPathComponent("vault.cxf.json").path
        let exported = try f.run(["export", "--format", "cxf", out])
        #expect(exported.status == 0 && exported.stdout == "Exported 10 entries to \(out).\n")
        let g = try VaultCommandTests.Fixture()
        #expect(try g.run(["import", out]).stdout == "Imported 10 entries (1 login, 3 secure notes, 3 identities, 1 SSH key, 2 others).\n")
        let wifi = try g.json(["show", "Home Wi-Fi", "--json", "--reveal"]) as! [String: Any]
        #expect(wifi["password"] as? String == "correct horse battery")
    }

    /// A NordPass export (once read as Chrome's, its folder rows empty logins): the choice and why, then the items.
    @Test func aNordPassExportSaysWhyItIsNotChromes() throws {
        let f = try VaultCommandTests.Fixture()
        let file = Self.fixtures.appendingPathComponent("formats/nordpass.csv").path
        let result = try f.run(["import", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "bulwark: reading \(file) as nordpass-csv (from its header's cardholdername, cardnumber, full_name, additional_urls and custom_fields columns; chrome-csv's columns are there too, but not those).\n")
        #expect(result.stdout == "Imported 4 entries (1 login, 1 secure note, 1 card, 1 identity).\n")
    }

    /// A file no reader takes: the closest format and its first difference, a non-zero exit, nothing imported.
    @Test func anUnknownFileNamesTheClosestFormat() throws {
        let f = try VaultCommandTests.Fixture()
        let file = f.dir.appendingPathComponent("odd.csv").path
        try "Title,Website,Login,Secret\nMail,https://a.example,jane,hunter2\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try f.run(["import", file])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("bulwark: \(file): not a format bulwark recognises: the closest is keeper-csv, whose header has folder, title, login, password and website address; this one has no 'folder' column (its header names Title,Login; columns 2, 4 are no column name bulwark knows, not shown); give --format, one of apple-csv,"), "\(result.stderr)")
        #expect(!result.stderr.contains("hunter2") && result.stderr.hasSuffix(". Nothing was imported.\n"))
    }

    @Test func anExportReplacesItsFileWholeAndLeavesNothingHalfWritten() throws {
        let f = try VaultCommandTests.Fixture()
        _ = try f.run(["add", "--title", "A", "--entry-password-stdin"], stdin: "master\nsecret\n")
        let out = f.dir.appendingPathComponent("export.csv").path
        try "old contents".write(toFile: out, atomically: true, encoding: .utf8)
        #expect(chmod(out, 0o644) == 0)
        let result = try f.run(["export", "--format", "apple-csv", out])
        #expect(result.status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "Title,URL,Username,Password,Notes,OTPAuth\r\nA,,,secret,,\r\n")
        #expect(try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.dir.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
        let missing = f.dir.appendingPathComponent("no/such/dir/x.json").path
        let refused = try f.run(["export", "--format", "bitwarden-json", missing])
        #expect(refused.status == 1 && refused.stderr == "bulwark: cannot write \(missing): No such file or directory. Nothing was written.\n")
    }

    /// Apple's CSV has no place for tags, kinds, fields, old passwords or
    /// passkeys: the export names each entry and what of it would be lost,
    /// writes nothing and exits 1, unless --allow-loss.
    @Test func anExportThatCannotCarryAnEntryWholeNamesItAndWritesNothing() throws {
        let f = try VaultCommandTests.Fixture()
        _ = try f.run(["add", "--title", "Plain", "--entry-password-stdin"], stdin: "master\nsecret\n")
        _ = try f.run(["add", "--title", "Tagged", "--tag", "work", "--tag", "home", "--entry-password-stdin"], stdin: "master\nsecret\n")
        _ = try f.run(["edit", "Tagged", "--entry-password-stdin"], stdin: "master\nnewer-Passw0rd\n")
        let out = f.dir.appendingPathComponent("export.csv").path
        let refused = try f.run(["export", "--format", "apple-csv", out])
        #expect(refused.status == 1)
        #expect(refused.stderr == "  Tagged: 2 tags, 1 old password\n"
                + "bulwark: apple-csv cannot carry all of 1 entry (named above). Nothing was written: export --format bitwarden-json carries everything, or give --allow-loss to write apple-csv without it.\n")
        #expect(!FileManager.default.fileExists(atPath: out))
        let allowed = try f.run(["export", "--format", "apple-csv", "--allow-loss", out])
        #expect(allowed.status == 0)
        #expect(allowed.stdout == "Exported 2 entries to \(out).\nNot written (the format has no place for it): Tagged's 2 tags, 1 old password.\n")
        #expect(allowed.stderr.hasPrefix("  Tagged: 2 tags, 1 old password\nbulwark: warning: apple-csv cannot carry all of 1 entry (named above): written without it, as --allow-loss asks.\n"))
        #expect(FileManager.default.fileExists(atPath: out))
        // Bitwarden's JSON carries everything: no word of loss, exit 0.
        let json = try f.run(["export", "--format", "bitwarden-json", out + ".json"])
        #expect(json.status == 0 && json.stderr.hasPrefix("bulwark: warning: \(out).json holds every password"))
    }

    /// The listing is written entry by entry, in the same shape as before.
    @Test func listJSONIsStreamedInTheSameShape() throws {
        let f = try VaultCommandTests.Fixture()
        _ = try f.run(["add", "--title", "Shiny \u{1B}[31m", "--url", "https://shiny.example", "--username", "jane", "--tag", "work",
                       "--entry-password-stdin"], stdin: "master\nsecret\n")
        let listed = try f.run(["list", "--json"])
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
        let id = try #require(rows?.first?["id"] as? String), modified = try #require(rows?.first?["modified"] as? String)
        #expect(listed.stdout == """
        [
          {
            "category" : "other",
            "id" : "\(id)",
            "modified" : "\(modified)",
            "tags" : [
              "work"
            ],
            "title" : "Shiny \\u001b[31m",
            "urls" : [
              "https://shiny.example"
            ],
            "username" : "jane"
          }
        ]

        """)
        let empty = try VaultCommandTests.Fixture().run(["list", "--json"])
        #expect(empty.stdout == "[]\n")
    }
}
