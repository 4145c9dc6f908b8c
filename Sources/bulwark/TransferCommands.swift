import BulwarkCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `bulwark import` and `bulwark export`.
enum TransferCommands {
    static func importFile(_ parsed: ParsedCommandLine) -> Int32 {
        let formats = Commands.importFormats.joined(separator: ", ")
        guard parsed.arguments.count == 1 else { Output.error("usage: " + Commands.usage(of: "import")); return 2 }
        if parsed.flag("--merge") && parsed.flag("--keep-both") {
            Output.error("--merge and --keep-both cannot both be given.")
            return 2
        }
        var file = parsed.arguments[0]
        var isDirectory: ObjCBool = false
        let named = parsed.value("--format").flatMap(ImportFormat.init(rawValue:))
        if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
            // A 1PIF export is a folder holding data.1pif; a pass store is a folder of .gpg files.
            if FileManager.default.fileExists(atPath: file + "/data.1pif"), named == nil || named == .onePasswordPIF {
                file += "/data.1pif"
            } else if named == .pass || (named == nil && PassStore.looksLikeStore(file)) {
                if named == nil { Output.error("reading \(file) as pass (a folder of .gpg files, decrypted by your gpg).") }
                return importStore(parsed, directory: file)
            } else {
                Output.error("\(file) is a folder: give an export file, or a pass store (--format pass). Nothing was imported.")
                return 1
            }
        }
        // The file's bytes are let go once read into entries: an 82 MB export need not be held while the vault is written.
        guard let held = HeldFile(path: file) else { Output.error("cannot read \(file)."); return 1 }
        let format: ImportFormat
        if let named { format = named } else {
            switch ImportFormat.identify(held.bytes) {
            case .success(let identified):
                Output.error("reading \(file) as \(identified.format.rawValue) (from \(identified.explanation)).")
                format = identified.format
            case .failure(let reason):
                Output.error("\(file): not a format bulwark recognises: \(reason); give --format, one of \(formats). Nothing was imported.")
                return 1
            }
        }
        let skipBadRows = parsed.flag("--skip-bad-rows")
        var keyFile: [UInt8]?
        if let path = parsed.value("--key-file") {
            guard format == .kdbx else { Output.error("--key-file is for KeePass databases (--format kdbx)."); return 2 }
            guard let bytes = FileManager.default.contents(atPath: path) else { Output.error("cannot read the key file \(path)."); return 1 }
            do { keyFile = try KeePassKeyFile.key(Array(bytes)) } catch {
                Output.error("\(path): \(error). Nothing was imported.")
                return 1
            }
        }
        // A mapped JSON export's items are found beside the KDF, and a
        // KeePass XML export is parsed there, its items packed (the
        // mapping's pages given back behind either); anything else is
        // read after it: scrypt's 128 MiB and a 100,000-row file at once would pass 200 MB.
        var preparing = held.isMapped && ImportPreparation.helps(format) ? Preparing(held.bytes, format: format) : nil
        // Whether the file has a password of its own: from the preparation's look when there is one.
        let protected = format == .bitwardenJSON && preparing == nil && BitwardenEncryption.isPasswordProtected(held.bytes)
        if preparing == nil { held.release() }
        let prompt = "Password of \(URL(fileURLWithPath: file).lastPathComponent)"
        // A KeePass database's password is asked right after the master password, and its own KDF
        // (AES-KDF rounds, or Argon2's second or so) runs beside scrypt on the other core.
        var askedAhead: String?
        let afterMasterPassword: ((PasswordInput) throws -> Void)? = format != .kdbx ? nil : { input in
            // No password there (the end of standard input): asked again after the unlock, which says first what is wrong with the master password.
            guard let password = try? input.next(prompt: prompt) else { return }
            askedAhead = password
            // A file that can no longer be read is said so by the read after the unlock, by name.
            guard let data = try? held.reread() else { return }
            let key = keyFile
            preparing = Preparing { ImportPreparation.kdbxKey(data, password: password, keyFile: key) }
        }
        return store(parsed, file: file, afterMasterPassword: afterMasterPassword) { input in
            let needsPassword = format.needsFilePassword || protected || preparing?.wait()?.isPasswordProtected == true
            let password = try askedAhead ?? (needsPassword ? input.next(prompt: prompt) : nil)
            defer { held.release() }
            return try Importer.parse(try held.reread(), format: format, skipBadRows: skipBadRows, filePassword: password, keyFile: keyFile,
                                      rawCells: parsed.flag("--raw-cells"), prepared: preparing?.wait())
        }
    }

    /// A pass store, decrypted by the person's gpg before the vault is
    /// unlocked (gpg's pinentry and bulwark's prompt never interleave).
    static func importStore(_ parsed: ParsedCommandLine, directory: String) -> Int32 {
        let read: Importer.Parsed
        do { read = try Importer.parse(passStore: directory) } catch {
            Output.error("\(directory): \(error). Nothing was imported.")
            return 1
        }
        return store(parsed, file: directory) { _ in read }
    }

    /// Reads the items (`read`, after the vault is unlocked), merges or keeps
    /// both where the vault holds the login, writes them in one transaction
    /// and prints the summary.
    static func store(_ parsed: ParsedCommandLine, file: String, afterMasterPassword: ((PasswordInput) throws -> Void)? = nil,
                      read: @escaping (PasswordInput) throws -> Importer.Parsed) -> Int32 {
        VaultCommands.withVault(parsed, afterMasterPassword: afterMasterPassword) { vault, input in
            let result: ImportResult
            do {
                result = Importer.classify(try read(input), existing: vault.entries)
            } catch let error as ImportError {
                Output.error("\(file): \(error). Nothing was imported.")
                return 1
            }
            let choice = matchChoice(parsed, result, input, vault)
            var added = result.entries
            var merged = 0
            var mergeKept: [String] = []
            if choice == .keepBoth { added += result.matches.map(\.incoming) }
            // The merges and the new entries in one transaction, and not into memory: the
            // command ends here. A row another process changed since it was read is a
            // conflict, and nothing is written. Strength is measured by the first analysis.
            let bases = Dictionary(result.matches.map { ($0.existingID, vault.version(of: $0.existingID)) }, uniquingKeysWith: { a, _ in a })
            try vault.transaction(keepInMemory: false) { change in
                if choice == .merge {
                    // Two file rows for one login merge in turn.
                    var targets: [String: Entry] = [:]
                    for match in result.matches {
                        guard let existing = targets[match.existingID] ?? change.entry(id: match.existingID) else { continue }
                        var (entry, kept) = ImportMerge.merged(existing, with: match.incoming, incomingIsDated: match.incomingIsDated)
                        // The file's attachments join the vault's (by name: the vault's stays when both have one).
                        entry.attachments += match.incoming.attachments.filter { file in !entry.attachments.contains { $0.name == file.name } }
                        targets[match.existingID] = entry
                        merged += 1
                        if !kept.isEmpty {
                            let fileStood = ImportMerge.incomingStands(existing, match.incoming, incomingIsDated: match.incomingIsDated)
                            mergeKept.append("\(entry.title): " + LosingSide.describe(kept, whose: fileStood ? "the vault's" : "the file's",
                                                                                       label: ImportMerge.keptLabel(incomingStands: fileStood)))
                        }
                    }
                    let sorted = try change.storeImportedFiles(targets.values.sorted(by: { $0.id < $1.id }), from: result.files)
                    for entry in sorted { try change.save(entry, basedOn: bases[entry.id] ?? nil) }
                }
                try change.insert(try change.storeImportedFiles(added, from: result.files))
            }
            for line in ImportSummary(result: result, added: added, merged: merged, mergeKept: mergeKept, keptBoth: choice == .keepBoth ? result.matches.count : 0).lines {
                print(line)
            }
            KeptUntilExit.keep((result, added))
            return 0
        }
    }

    /// Merge or keep both, for logins the vault already holds: the option,
    /// else the person's answer on a terminal, else keep both (nothing is
    /// lost either way; the summary says which was done and how to choose).
    static func matchChoice(_ parsed: ParsedCommandLine, _ result: ImportResult, _ input: PasswordInput, _ vault: Vault) -> ImportMatchChoice? {
        guard !result.matches.isEmpty else { return nil }
        if parsed.flag("--merge") { return .merge }
        if parsed.flag("--keep-both") { return .keepBoth }
        let count = result.matches.count
        let examples = result.matches.prefix(3).map { TerminalText.visible($0.incoming.title) }.joined(separator: ", ")
        let question = "\(count) login\(count == 1 ? "" : "s") in the file (\(examples)\(count > 3 ? ", …" : "")) \(count == 1 ? "is" : "are") for a site and user name the vault already holds. Merge (the newer values stand; the older password goes to history, other differing values into named fields) or keep both? [m/k]"
        while let answer = input.question(question) {
            if answer.hasPrefix("m") { return .merge }
            if answer.hasPrefix("k") { return .keepBoth }
        }
        return .keepBoth
    }

    static func exportFile(_ parsed: ParsedCommandLine) -> Int32 {
        if parsed.value("--format") == "kdbx" { return exportKDBX(parsed) }
        guard let formatName = parsed.value("--format"), let format = Exporter.Format(rawValue: formatName) else {
            Output.error("export needs --format, one of \(Commands.exportFormats.joined(separator: ", ")).")
            return 2
        }
        guard parsed.arguments.count == 1 else { Output.error("usage: " + Commands.usage(of: "export")); return 2 }
        let protected = parsed.flag("--password-protected")
        if protected && format != .bitwardenJSON {
            Output.error("--password-protected is for --format bitwarden-json (Apple's CSV has no encrypted form).")
            return 2
        }
        let file = parsed.arguments[0]
        // FILE.zip: Bitwarden's export with attachments, or a CXF archive, with the entries' files.
        if file.lowercased().hasSuffix(".zip") {
            guard format != .appleCSV, !protected else {
                Output.error("a .zip export is Bitwarden's (--format bitwarden-json) or CXF's (--format cxf), never password-protected (Bitwarden's own is not); nothing was written.")
                return 2
            }
            return exportArchive(parsed, format: format, file: file)
        }
        return VaultCommands.withVault(parsed) { vault, input in
            let losses = format == .appleCSV ? ExportLoss.appleCSV(vault.entries) : []
            guard ExportLossReport.allowed(losses, format: format.rawValue, parsed) else { return 1 }
            var password: String?
            if protected {
                let typed = try input.next(prompt: "Password for the export")
                if !parsed.globals.passwordStdin, try input.next(prompt: "Repeat it") != typed {
                    Output.error("the two passwords differ. Nothing was written.")
                    return 1
                }
                guard !typed.isEmpty else { throw UsageError(message: "an export password cannot be empty. Nothing was written.", command: nil) }
                password = typed
            }
            let spreadsheetSafe = !parsed.flag("--raw-cells")
            let guarded: [Exporter.GuardedCell]
            do {
                guarded = try ExportFile.write(to: file) { sink in
                    guard let password else { return Exporter.write(vault.entries, format: format, spreadsheetSafe: spreadsheetSafe, to: sink) }
                    // Sealed whole: the plain text exists only in memory, never in the file.
                    let plain = Exporter.write(vault.entries, format: format, spreadsheetSafe: false).data
                    sink.write(String(decoding: try BitwardenEncryption.seal(plain, password: password), as: UTF8.self))
                    return []
                }
            } catch {
                Output.error("cannot write \(file): \(error). Nothing was written.")
                return 1
            }
            print("Exported \(vault.entries.count) entries to \(file)\(protected ? ", sealed with its password" : "").")
            ExportLossReport.summary(losses)
            if !protected { Output.error("warning: \(file) holds every password in plain text. Delete it when you are done with it.") }
            if !guarded.isEmpty {
                let named = guarded.prefix(5).map { "\($0.column) of \($0.title)" }.joined(separator: ", ") + (guarded.count > 5 ? " and \(guarded.count - 5) more" : "")
                Output.warning("\(guarded.count) cell\(guarded.count == 1 ? "" : "s") began with = + - @ or a tab and \(guarded.count == 1 ? "was" : "were") written with a leading ' so that a spreadsheet shows \(guarded.count == 1 ? "it" : "them") instead of running a formula (\(named)). bulwark's import takes the ' away again; remove it before importing the file elsewhere, or export with --raw-cells.")
            }
            return 0
        }
    }
}

extension TransferCommands {
    /// `export --format bitwarden-json|cxf FILE.zip`: the export and every file the entries hold, in one archive.
    static func exportArchive(_ parsed: ParsedCommandLine, format: Exporter.Format, file: String) -> Int32 {
        VaultCommands.withVault(parsed) { vault, _ in
            let count: Int
            do {
                count = try ArchiveExport.write(vault.entries, format: format, to: file) { entry, attachment, index in
                    try vault.attachmentChunk(attachment, of: entry, index)
                }
            } catch let error as AttachmentError {
                Output.error("\(error). Nothing was written.")
                return 1
            } catch let error as ArchiveExport.Failure {
                Output.error("\(error). Nothing was written.")
                return 1
            }
            print("Exported \(vault.entries.count) entries and \(count) file\(count == 1 ? "" : "s") to \(file).")
            Output.error("warning: \(file) holds every password and file in plain text. Delete it when you are done with it.")
            return 0
        }
    }

    /// `export --format kdbx FILE`: a KeePass database with a password of
    /// its own, asked twice like a new master password (with
    /// --password-stdin, one line after the master password).
    static func exportKDBX(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 1 else { Output.error("usage: bulwark export --format kdbx [--cipher aes|chacha20] [--allow-loss] FILE"); return 2 }
        let cipher = parsed.value("--cipher") ?? "aes"
        let file = parsed.arguments[0]
        return VaultCommands.withVault(parsed) { vault, input in
            // Said before the file's password is asked for: nothing is asked for nothing.
            let losses = ExportLoss.kdbx(vault.entries)
            guard ExportLossReport.allowed(losses, format: "kdbx", parsed) else { return 1 }
            let password = try input.next(prompt: "Password for the KeePass database")
            if !parsed.globals.passwordStdin, try input.next(prompt: "Repeat it") != password {
                Output.error("the two passwords differ. Nothing was written.")
                return 1
            }
            guard !password.isEmpty else { throw UsageError(message: "a KeePass database's password cannot be empty here. Nothing was written.", command: nil) }
            do {
                var settings = KDBXExport.Settings.calibrated()
                settings.chacha20 = cipher == "chacha20"
                let data = try KDBXExport.write(vault.entries, password: password, settings: settings) { entry, attachment in
                    var bytes: [UInt8] = []
                    try vault.readAttachment(attachment, of: entry) { bytes += $0 }
                    return bytes
                }
                try ExportFile.write(to: file) { sink in sink.append(Array(data)) }
            } catch {
                Output.error("cannot write \(file): \(error). Nothing was written.")
                return 1
            }
            print("Exported \(vault.entries.count) entries to \(file), a KeePass database (KDBX 4, Argon2id, \(cipher == "aes" ? "AES-256" : "ChaCha20")) sealed with its password.")
            ExportLossReport.summary(losses)
            return 0
        }
    }
}

/// What an export cannot carry: each entry and what of it, on standard
/// error; without --allow-loss nothing is written and the exit is 1, with
/// it the file is written and the summary names the same.
enum ExportLossReport {
    static func allowed(_ losses: [ExportLoss.Item], format: String, _ parsed: ParsedCommandLine) -> Bool {
        guard !losses.isEmpty else { return true }
        for item in losses { Output.stderr("  \(item.title): \(item.lost.joined(separator: ", "))\n") }
        let entries = "\(losses.count) entr\(losses.count == 1 ? "y" : "ies")"
        if parsed.flag("--allow-loss") {
            Output.warning("\(format) cannot carry all of \(entries) (named above): written without it, as --allow-loss asks.")
            return true
        }
        Output.error("\(format) cannot carry all of \(entries) (named above). Nothing was written: export --format bitwarden-json carries everything, or give --allow-loss to write \(format) without it.")
        return false
    }

    static func summary(_ losses: [ExportLoss.Item]) {
        guard !losses.isEmpty else { return }
        let what = losses.count == 1 ? "\(losses[0].title)'s \(losses[0].lost.joined(separator: ", "))" : "part of \(losses.count) entries, named above"
        print("Not written (the format has no place for it): \(what).")
    }
}

/// An export file: written under a temporary name beside it (`mode` from
/// the start, 0600 unless said; O_EXCL and O_NOFOLLOW, so never through a
/// link someone left there), then renamed over FILE (a link there is
/// replaced, its target never written), so a failed or killed export never
/// leaves a half-written file under the name asked for. `throughDevices`:
/// a pipe or device at FILE (`/dev/stdout`) is written straight through.
enum ExportFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func write<T>(to path: String, mode: mode_t = 0o600, throughDevices: Bool = true, _ body: (ByteSink) throws -> T) throws -> T {
        var status = stat()
        if throughDevices && stat(path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG {
            // A pipe or a device (/dev/stdout): written straight through.
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
            defer { close(descriptor) }
            let sink = ByteSink(descriptor: descriptor)
            let result = try body(sink)
            guard sink.flush() else { throw Failure(description: "the output refused the data") }
            return result
        }
        let temporary = path + ".bulwark-\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        var done = false
        defer {
            close(descriptor)
            if !done { unlink(temporary) }
        }
        let sink = ByteSink(descriptor: descriptor)
        let result = try body(sink)
        // The mode as asked, whatever the umask (bulwark's keeps its own files private).
        guard sink.flush(), fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else { throw Failure(description: "the disk refused the data (\(String(cString: strerror(errno))))") }
        guard rename(temporary, path) == 0 else { throw Failure(description: String(cString: strerror(errno))) }
        done = true
        return result
    }
}

/// The lines an import prints: what came in, by kind; what was merged or
/// kept beside an existing login; what was left out and why; what the
/// source had that bulwark cannot hold.
struct ImportSummary {
    let result: ImportResult
    let added: [Entry]
    let merged: Int
    /// Per merged entry, what of the side that did not stand was kept.
    var mergeKept: [String] = []
    let keptBoth: Int

    var lines: [String] {
        var counts: [EntryKind: Int] = [:]
        for entry in added { counts[entry.kind, default: 0] += 1 }
        let kinds = EntryKind.allCases.compactMap { kind in counts[kind].map { Self.count($0, kind) } }
        var first = "Imported \(added.count) entr\(added.count == 1 ? "y" : "ies")" + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))")
        if merged > 0 { first += "; merged \(merged) into the logins \(merged == 1 ? "it matches" : "they match") (the newer side's values stand, the vault's where the file has no dates; nothing of the other side is lost)" }
        if keptBoth > 0 { first += "; \(keptBoth) of them \(keptBoth == 1 ? "is a login" : "are logins") the vault already held, kept beside \(keptBoth == 1 ? "it" : "them") (--merge merges instead)" }
        if result.duplicates > 0 { first += "; skipped \(result.duplicates) exact duplicate\(result.duplicates == 1 ? "" : "s")" }
        if result.inTrash > 0 { first += "; left out \(result.inTrash) item\(result.inTrash == 1 ? "" : "s") in the source's trash" }
        var lines = [first + "."]
        for note in mergeKept { lines.append("  Merged \(note).") }
        for note in result.rowNotes { lines.append("  \(note.prefix(1).uppercased() + note.dropFirst()).") }
        for note in result.keptAside { lines.append("  Kept aside: \(note).") }
        for note in result.notHeld { lines.append("  Not kept: \(note).") }
        return lines  // `print` here makes vault text visible, never raw
    }

    static func count(_ n: Int, _ kind: EntryKind) -> String {
        let names: [EntryKind: (String, String)] = [.login: ("login", "logins"), .secureNote: ("secure note", "secure notes"), .card: ("card", "cards"),
                                                    .identity: ("identity", "identities"), .sshKey: ("SSH key", "SSH keys"), .other: ("other", "others")]
        let (one, many) = names[kind] ?? (kind.rawValue, kind.rawValue)
        return "\(n) \(n == 1 ? one : many)"
    }
}
