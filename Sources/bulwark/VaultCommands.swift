import BulwarkCore
import BulwarkUpgrades
import Foundation

/// init, list, show, add, edit, rm, passwd, import, export.
enum VaultCommands {
    static func path(_ parsed: ParsedCommandLine) -> URL {
        parsed.globals.vault.map { URL(fileURLWithPath: $0) } ?? Vault.defaultPath()
    }

    /// Opens the vault, or prints why not and returns the exit status.
    /// Remembers the vault's change counter for this machine and warns
    /// when the vault is older than it was last seen here; takes backups
    /// as the config file says.
    /// `agent`: the key `bulwark agent` holds opens the vault without
    /// asking (not with --password-stdin: a given password is read, as a
    /// script's next lines follow it); with `agent = on`, a password unlock hands it the key.
    /// `afterMasterPassword`: what the command asks next, asked before the
    /// master password's KDF runs (so that work of its own can run beside
    /// it); not asked when the agent holds the vault's key.
    static func open(_ parsed: ParsedCommandLine, _ input: PasswordInput, agent: Bool = true,
                     afterMasterPassword: ((PasswordInput) throws -> Void)? = nil) -> Result<(Vault, String), ExitCode> {
        let config: Configuration
        switch Output.configuration(parsed) {
        case .failure(let exit): return .failure(exit)
        case .success(let loaded): config = loaded
        }
        var master = ""
        WatchCommand.showNews(path(parsed))
        do {
            var held: Vault?
            if agent && !parsed.globals.passwordStdin, let key = AgentClient.key(for: path(parsed)) {
                do { held = try Vault.open(at: path(parsed), with: .heldKey(key), freshness: .standard()) } catch VaultError.keyChanged {
                    _ = AgentClient.send(.lock(vault: AgentClient.name(path(parsed))))
                    Output.warning("the agent's key no longer opens this vault (its master password was changed); the agent forgot it.")
                }
            }
            let vault: Vault
            if let held { vault = held } else {
                master = try input.next(prompt: "Master password")
                try afterMasterPassword?(input)
                vault = try Vault.open(at: path(parsed), masterPassword: master, freshness: .standard())
                if agent && config.agent { AgentCommand.handOver(vault) }
            }
            vault.backupPolicy = config.backups
            vault.attachmentLimits = config.attachmentLimits
            if let rollback = vault.rollback { Output.warning("\(rollback)") }
            return .success((vault, master))
        } catch let error as VaultError {
            Output.error(describe(error, vaultAt: path(parsed), masterPassword: master))
            return .failure(ExitCode(1))
        } catch {
            Output.error("\(error)")
            return .failure(ExitCode(1))
        }
    }

    /// A vault error, with the way out when the vault is damaged: the
    /// newest backup that opens with this password, check and recover.
    static func describe(_ error: VaultError, vaultAt path: URL, masterPassword: String) -> String {
        guard case .damaged = error else { return error.description }
        var text = error.description
        if !masterPassword.isEmpty, let backup = VaultBackups(vaultPath: path).newestThatOpens(masterPassword: masterPassword) {
            text += " The newest backup that opens is \(backup.id) (\(iso.string(from: backup.date))): 'bulwark restore \(backup.id)' puts it back."
        } else {
            text += " No backup of it opens with this password."
        }
        return text + " 'bulwark check' lists every problem; 'bulwark recover FILE' saves every entry that still decrypts."
    }

    static func withVault(_ parsed: ParsedCommandLine, input given: PasswordInput? = nil, agent: Bool = true,
                          afterMasterPassword: ((PasswordInput) throws -> Void)? = nil,
                          _ body: (Vault, PasswordInput) throws -> Int32) -> Int32 {
        let input = given ?? PasswordInput(fromStdin: parsed.globals.passwordStdin)
        switch open(parsed, input, agent: agent, afterMasterPassword: afterMasterPassword) {
        case .failure(let exit): return exit.code
        case .success(let (vault, master)):
            defer { vault.close() }
            // The command ends with this vault: its entries are left to the
            // process's end, not freed one by one as it closes (80 ms at 100,000).
            defer { KeptUntilExit.keep(vault.rows) }
            // A watched vault's list follows its passwords (nothing is done for one that is not watched).
            defer {
                let watch = WatchStore.standard()
                if watch.isWatched(vault.path) { watch.refresh(vault, corpora: (try? Output.configuration(parsed).get())?.breachCorpora ?? []) }
            }
            defer { if let failure = vault.backupFailure { Output.warning("no backup was taken before this change: \(failure)") } }
            do { return try body(vault, input) } catch let usage as UsageError {
                Output.error(usage.message)
                return 2
            } catch let error as VaultError {
                Output.error(describe(error, vaultAt: vault.path, masterPassword: master))
                return 1
            } catch {
                Output.error("\(error)")
                return 1
            }
        }
    }

    /// `--scrypt-log-n`, refused below the recommended cost unless the
    /// person says they know (a weak KDF makes a guessed master password cheap).
    static func scryptParameters(_ parsed: ParsedCommandLine) throws -> ScryptParameters? {
        guard let n = parsed.number("--scrypt-log-n") else { return nil }
        let parameters = ScryptParameters(logN: n)
        if !parameters.isRecommended && !parsed.flag("--i-know-this-is-weak") {
            throw UsageError(message: "--scrypt-log-n \(n) is below the recommended \(ScryptParameters.standard.logN): each guess at the master password would cost \(1 << (ScryptParameters.standard.logN - n))x less. Add --i-know-this-is-weak to use it anyway; nothing was changed.", command: nil)
        }
        // What --i-know-this-is-weak let through is said, once.
        if !parameters.isRecommended {
            Output.warning("scrypt N=2^\(n) is below the recommended 2^\(ScryptParameters.standard.logN): each guess at the master password costs \(1 << (ScryptParameters.standard.logN - n))x less (--i-know-this-is-weak).")
        }
        return parameters
    }

    static func initialize(_ parsed: ParsedCommandLine) -> Int32 {
        let input = PasswordInput(fromStdin: parsed.globals.passwordStdin)
        do {
            let parameters = try scryptParameters(parsed) ?? .standard
            let first = try input.next(prompt: "New master password")
            let second = try input.next(prompt: "Repeat the master password")
            guard first == second else { Output.error("the two passwords differ; no vault was created."); return 1 }
            guard !first.isEmpty else { Output.error("the master password is empty; no vault was created."); return 1 }
            guard acceptMasterPassword(first, parsed, input) else { return 2 }
            let vault = try Vault.create(at: path(parsed), masterPassword: first, parameters: parameters)
            vault.close()
            print("Created \(vault.path.path) (scrypt N=2^\(parameters.logN), r=\(parameters.r), p=\(parameters.p)).")
            return 0
        } catch let usage as UsageError {
            Output.error(usage.message)
            return 2
        } catch {
            Output.error("\(error)")
            return 1
        }
    }

    /// A weak new master password is said, with why; it is used only when
    /// the person confirms it (on a terminal) or gave --i-know-this-is-weak.
    static func acceptMasterPassword(_ password: String, _ parsed: ParsedCommandLine, _ input: PasswordInput) -> Bool {
        guard let weakness = MasterPasswordAdvice.weakness(of: password) else { return true }
        if parsed.flag("--i-know-this-is-weak") {
            Output.warning(weakness + " (--i-know-this-is-weak).")
            return true
        }
        if !parsed.globals.passwordStdin, let answer = input.question("bulwark: \(weakness). Use it anyway? Type yes to confirm") {
            if answer == "yes" { return true }
        }
        Output.error(weakness + ". Choose a longer one, or add --i-know-this-is-weak. Nothing was changed.")
        return false
    }

    static func passwd(_ parsed: ParsedCommandLine) -> Int32 {
        // The current master password is asked even while the agent holds the key; the agent forgets the old key after.
        withVault(parsed, agent: false) { vault, input in
            defer { _ = AgentClient.send(.lock(vault: AgentClient.name(vault.path))) }
            let parameters = try scryptParameters(parsed)
            let first = try input.next(prompt: "New master password")
            let second = try input.next(prompt: "Repeat the new master password")
            guard first == second, !first.isEmpty else { Output.error("the new passwords differ or are empty; nothing was changed."); return 1 }
            guard acceptMasterPassword(first, parsed, input) else { return 2 }
            try vault.changeMasterPassword(to: first, parameters: parameters)
            print("Master password changed; the vault key was replaced and every entry sealed again under it.")
            let kept = vault.backups.list()
            if !kept.isEmpty {
                Output.warning("the \(kept.count) backup\(kept.count == 1 ? "" : "s") in \(vault.backups.directory.path) made before this change still open with the old master password; delete them if that password is known to others.")
            }
            return 0
        }
    }

    nonisolated(unsafe) static let iso: ISO8601DateFormatter = {  // used from the main thread only
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f
    }()

    static func list(_ parsed: ParsedCommandLine) -> Int32 {
        withVault(parsed) { vault, _ in
            ServiceWiring.refreshAppleIDStates(parsed, vault)
            if parsed.flag("--json") {
                // Written entry by entry: a listing of 100,000 never builds the whole document.
                let sink = ByteSink(descriptor: 1)
                sink.write("[")
                for (index, e) in vault.entries.enumerated() {
                    var json = JSONWriter(terminalSafe: true, baseDepth: 1)
                    json.beginObject()
                    json.key("category"); json.string(e.category.rawValue)
                    json.key("id"); json.string(e.id)
                    json.key("modified"); json.string(ISODate.string(e.modified))
                    json.key("tags"); json.strings(e.tags)
                    json.key("title"); json.string(e.title)
                    json.key("urls"); json.strings(e.urls)
                    json.key("username"); json.string(e.username)
                    json.endObject()
                    sink.write(index == 0 ? "\n  " : ",\n  ")
                    json.move(to: sink)
                }
                sink.write(vault.entries.isEmpty ? "]\n" : "\n]\n")
                guard sink.flush() else { Output.error("cannot write the listing: standard output was closed."); return 1 }
            } else {
                // The title first, as people look for it; the id (what scripts pass back) only when asked.
                let ids = parsed.flag("--ids")
                for e in vault.entries {
                    print(([e.title, e.username, e.site] + (ids ? [e.id] : [])).joined(separator: "\t"))
                }
            }
            return 0
        }
    }

    static func json(_ e: Entry, reveal: Bool) -> [String: Any] {
        var object: [String: Any] = [
            "id": e.id, "title": e.title, "username": e.username, "urls": e.urls, "category": e.category.rawValue,
            "tags": e.tags, "notes": e.notes, "created": iso.string(from: e.created), "modified": iso.string(from: e.modified),
            "password_changed": iso.string(from: e.passwordChanged), "hidden_from_recommendations": e.hiddenFromRecommendations,
            "hidden_until": e.hiddenUntil.map { iso.string(from: $0) as Any } ?? NSNull(),
            "has_password": e.password != nil, "has_totp": e.totpURI != nil,
            "sign_in_with_apple": e.signInWithApple.map { ["user": $0.user, "email": $0.email, "state": $0.state.rawValue, "signed_out": $0.isSignedOut,
                                                            "email_forwarding": $0.emailForwarding] as Any } ?? NSNull(),
            "kind": e.kind.rawValue,
            // A hidden field's value only with --reveal, like the password.
            "fields": e.fields.map { field -> [String: Any] in
                var object: [String: Any] = ["name": field.name, "hidden": field.hidden]
                if !field.hidden || reveal { object["value"] = field.value }
                return object
            },
            "signs_in_with": e.signsInWith.map { $0 as Any } ?? NSNull(),
            "expires": e.expires.map { iso.string(from: $0) as Any } ?? NSNull(),
            // Earlier versions another program kept whole (KeePass's history); hidden values only with --reveal.
            "earlier_versions": e.snapshots.map { snapshot -> [String: Any] in
                ["at": iso.string(from: snapshot.at), "values": snapshot.values.map { value -> [String: Any] in
                    var object: [String: Any] = ["name": value.name, "hidden": value.hidden]
                    if !value.hidden || reveal { object["value"] = value.value }
                    return object
                }]
            },
            // What each file is; its bytes come out only through 'attachment get'.
            "attachments": e.attachments.map { ["name": $0.name, "size": $0.size, "media_type": $0.mediaType,
                                                "created": iso.string(from: $0.created), "modified": iso.string(from: $0.modified)] as [String: Any] },
            // Never the private key: that leaves the vault only in an export.
            "passkeys": e.passkeys.map { ["id": $0.id, "rp_id": $0.rpID, "user_name": $0.userName, "created": iso.string(from: $0.created)] },
        ]
        if reveal {
            object["password"] = e.password.map { $0 as Any } ?? NSNull()
            object["totp"] = e.totpURI.map { $0 as Any } ?? NSNull()
            object["history"] = e.history.map { ["password": $0.password, "changed_at": iso.string(from: $0.changedAt), "reason": $0.reason] }
        }
        return object
    }

    static func show(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 1 else { Output.error("usage: bulwark show ENTRY [--json] [--reveal]"); return 2 }
        return withVault(parsed) { vault, _ in
            ServiceWiring.refreshAppleIDStates(parsed, vault)
            let e = try vault.find(parsed.arguments[0])
            let reveal = parsed.flag("--reveal")
            if parsed.flag("--json") {
                var object = json(e, reveal: reveal)
                if case .success(let catalog) = ServiceWiring.catalog(parsed) {
                    object["upgrades"] = catalog.offeredUpgrades(for: e).map(\.rawValue)
                }
                Output.json(object)
                return 0
            }
            var rows: [(String, String)] = [("Title", e.title), ("Username", e.username), ("URLs", e.urls.joined(separator: " ")),
                                            ("Category", e.category.label), ("Tags", e.tags.joined(separator: ", "))]
            let none = e.signInWithApple != nil ? "(none: Sign in with Apple)" : e.signsInWith.map { "(none: signs in through \(Domain.normalize($0)))" } ?? "(none)"
            rows.append(("Password", e.password.map { reveal ? $0 : String(repeating: "•", count: 8) } ?? none))
            if e.totpURI != nil { rows.append(("TOTP", reveal ? e.totpURI! : "set")) }
            if e.kind != .login { rows.insert(("Kind", e.kind.label), at: 0) }
            for field in e.fields { rows.append((field.name, field.hidden && !reveal ? String(repeating: "•", count: 8) : field.value)) }
            if let expires = e.expires { rows.append(("Expires", iso.string(from: expires) + (expires <= Date() ? " (expired)" : ""))) }
            if !e.notes.isEmpty { rows.append(("Notes", e.notes)) }
            if !e.attachments.isEmpty { rows.append(("Files", e.attachments.map { "\($0.name) (\(ByteSize.text($0.size)))" }.joined(separator: ", "))) }
            rows.append(("Modified", iso.string(from: e.modified)))
            rows.append(("History", "\(e.history.count) old password\(e.history.count == 1 ? "" : "s")"
                         + (e.snapshots.isEmpty ? "" : ", \(e.snapshots.count) earlier version\(e.snapshots.count == 1 ? "" : "s") (from KeePass)")))
            // A label as long as a custom field's name ("Signature approval") still leaves a space before its value.
            let column = max(10, (rows.map { $0.0.count }.max() ?? 0) + 1)
            for (name, value) in rows { print(name.padding(toLength: column, withPad: " ", startingAt: 0) + value) }
            return 0
        }
    }

    /// Applies --title, --url, --username, --notes, --tag, --category, --totp
    /// and a new password (--generate or --entry-password-stdin) to an entry.
    static func apply(_ parsed: ParsedCommandLine, to entry: inout Entry, input: PasswordInput, isNew: Bool) throws {
        if let title = parsed.value("--title") { entry.title = title }
        if let urls = parsed.values("--url") { entry.urls = urls }
        if let username = parsed.value("--username") { entry.username = username }
        if let notes = parsed.value("--notes") { entry.notes = notes }
        if let tags = parsed.values("--tag") { entry.tags = tags }
        if let issuer = parsed.value("--signs-in-with") {
            guard issuer.isEmpty || (URL(string: issuer)?.scheme == "https" && URL(string: issuer)?.host?.isEmpty == false) else {
                throw UsageError(message: "--signs-in-with takes an identity provider's issuer, an https URL (such as https://id.nimbus.example).", command: nil)
            }
            entry.signsInWith = issuer.isEmpty ? nil : issuer
        }
        if let text = parsed.value("--expires") {
            guard text.isEmpty || text == "never" || ISODate.parse(text) != nil || ISODate.parse(text + "T00:00:00Z") != nil else {
                throw UsageError(message: "--expires takes a day (2030-01-31), a time (2030-01-31T12:00:00Z), or never.", command: nil)
            }
            entry.expires = text.isEmpty || text == "never" ? nil : ISODate.parse(text) ?? ISODate.parse(text + "T00:00:00Z")
        }
        if let name = parsed.value("--category") {
            guard let category = AccountCategory(rawValue: name) else {
                throw UsageError(message: "--category must be one of \(AccountCategory.allCases.map(\.rawValue).joined(separator: ", ")).", command: nil)
            }
            entry.category = category
            entry.categoryIsManual = true
        } else if !entry.categoryIsManual {
            entry.category = CategoryGuess.guess(title: entry.title, urls: entry.urls)
        }
        var newPassword: String?
        if parsed.flag("--generate") {
            var generator = try PasswordGenerator()
            newPassword = generator.next()
        } else if parsed.flag("--entry-password-stdin") {
            newPassword = try input.next(prompt: "Entry password")
        } else if isNew, entry.kind == .login, input.isTerminal, parsed.value("--signs-in-with") == nil, parsed.value("--totp") == nil,
                  parsed.value("--totp-qr") == nil {
            // A login added on a terminal without a password option: its password is asked, twice, as the master password is.
            let typed = try input.next(prompt: "Password for \(entry.title) (empty for none)")
            if !typed.isEmpty {
                guard try input.next(prompt: "Repeat it") == typed else { throw UsageError(message: "the two passwords differ. Nothing was added.", command: nil) }
                newPassword = typed
            }
        }
        if let newPassword {
            if isNew { entry.password = newPassword } else { entry.changePassword(to: newPassword, reason: "edited") }
        }
        // After the entry's password: the TOTP URI is the last secret read.
        if let image = parsed.value("--totp-qr") {
            guard !parsed.flag("--totp") else { throw UsageError(message: "give --totp - or --totp-qr IMAGE, not both.", command: nil) }
            let uri: String
            do { uri = try QRCodeImage.text(atPath: image) } catch { throw UsageError(message: "--totp-qr \(image): \(error).", command: nil) }
            do { _ = try OTPAuthURL.parse(uri) } catch {
                throw UsageError(message: "--totp-qr \(image): the QR code is not a verification code's URL (\(error)).", command: nil)
            }
            entry.totpURI = uri
        }
        if let totp = parsed.value("--totp") {
            if totp.isEmpty { entry.totpURI = nil } else {
                guard totp == "-" else { throw SecretArgument.refused("--totp", safe: "--totp -") }
                let uri = try input.next(prompt: "TOTP URI (otpauth://…)")
                do { _ = try OTPAuthURL.parse(uri) } catch { throw UsageError(message: "--totp: \(error)", command: nil) }
                entry.totpURI = uri
            }
        }
        entry.modified = Date()
    }

    static func add(_ parsed: ParsedCommandLine) -> Int32 {
        guard let title = parsed.value("--title"), !title.isEmpty else { Output.error("add needs --title."); return 2 }
        return withVault(parsed) { vault, input in
            var entry = Entry(title: title)
            try apply(parsed, to: &entry, input: input, isNew: true)
            try vault.save(entry)
            print(entry.id)
            // A login without a password is never made without a word about it.
            if entry.kind == .login, entry.password == nil, entry.signsInWith == nil, entry.totpURI == nil {
                Output.warning("\(entry.title) was added without a password: 'bulwark edit' with --generate or --entry-password-stdin gives it one.")
            }
            suggestOwner(of: entry, in: vault.entries)
            return 0
        }
    }

    /// A code whose issuer names another entry better than this one: said,
    /// with the entries it looks like (the code is kept where it was asked).
    static func suggestOwner(of entry: Entry, in entries: [Entry]) {
        guard let (issuer, others) = CodeOwner.misplaced(entry, in: entries) else { return }
        // Output sanitises what it writes: the issuer and titles are file and vault text.
        Output.warning("the code says it is \(issuer)'s, and \(entry.title) does not look like \(issuer)"
                       + (others.isEmpty ? "." : "; entries that do: " + others.joined(separator: ", ") + "."))
    }

    static func edit(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 1 else { Output.error("usage: bulwark edit ENTRY [options]"); return 2 }
        return withVault(parsed) { vault, input in
            let id = try vault.find(parsed.arguments[0]).id
            let newPassword = parsed.flag("--generate") || parsed.flag("--entry-password-stdin")
            let catalog = newPassword ? try? ServiceWiring.catalog(parsed).get() : nil
            // The edit applies to the row as the file holds it when the write begins; a new
            // password is the account's, and its other entries get it in the same transaction.
            let (entry, also) = try vault.transaction { change -> (Entry, [Entry]) in
                guard let edited = try change.update([id], { entry in try apply(parsed, to: &entry, input: input, isNew: false) }).first else {
                    throw VaultError.entryNotFound(id)
                }
                guard newPassword else { return (edited, []) }
                return (edited, try AccountEntries.sharePassword(of: edited, in: change, manifest: catalog?.manifest(forHost: edited.site),
                                                                 sharing: catalog?.sharing(nil) ?? SharedCredentials()))
            }
            print("Saved \(entry.title)." + (also.isEmpty ? "" : " Also updated, the same account: \(also.map(\.title).joined(separator: ", "))."))
            if parsed.flag("--totp") || parsed.flag("--totp-qr") { suggestOwner(of: entry, in: vault.entries) }
            return 0
        }
    }

    static func remove(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 1 else { Output.error("usage: bulwark rm ENTRY"); return 2 }
        return withVault(parsed) { vault, _ in
            let entry = try vault.find(parsed.arguments[0])
            try vault.remove(id: entry.id)
            print("Deleted \(entry.title).")
            return 0
        }
    }
}
