import Foundation

/// The properties the fuzz targets check, kept in the core so that the
/// saved corpora replay through exactly the same code in `make test`.
/// Each returns nil when all is well, else what went wrong.
public enum FuzzChecks {
    /// The checks by the names `make fuzz FUZZ_TARGET=…` and the corpus folders use.
    public static let all: [String: @Sendable ([UInt8]) -> String?] = [
        "password-rules": passwordRules,
        "otpauth-url": otpauthURL,
        "sms-code": smsCode,
        "pwned-passwords": pwnedPasswords,
        "import-csv": importCSV,
        "import-json": importJSON,
        "import-1pux": import1PUX,
        "import-cxf": importCXF,
        "import-other": importOther,
        "json-tape": jsonTape,
        "agent-request": agentRequest,
        "ssh-agent-message": sshAgentMessage,
        "kdbx-xml": kdbxXML,
        "kdbx-file": kdbxFile,
        "terminal-text": terminalText,
        "qr-image": qrImage,
        "cbor": cbor,
        "webauthn-options": webAuthnOptions,
        "jws": jws,
    ]

    /// Any bytes as an image file: refused with one of the reader's own
    /// failures, or a QR code's text within its bound; never a crash, a
    /// hang or an unbounded allocation (libpng, libjpeg-turbo and zbar
    /// behind bulwark's C wrapper).
    public static func qrImage(_ data: [UInt8]) -> String? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-fuzz-qr-\(getpid()).img").path
        guard FileManager.default.createFile(atPath: path, contents: Data(data)) else { return nil }
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let text = try QRCodeImage.text(atPath: path)
            return text.utf8.count > 4096 ? "a QR text of \(text.utf8.count) bytes passed the 4 KiB bound" : nil
        } catch {
            return nil
        }
    }

    /// Any bytes as a breach corpus: refused with a format error, or, when
    /// every line is well-formed and sorted (the whole-file check passes),
    /// the binary search over the bytes never fails and agrees with the
    /// index for every hash in the file and for neighbours of each.
    public static func pwnedPasswords(_ data: [UInt8]) -> String? {
        guard let indexed = try? PwnedPasswordsFile(name: "fuzz", data: Data(data)),
              let searched = try? PwnedPasswordsFile(name: "fuzz", data: Data(data), wholeReadLimit: 0) else { return nil }
        var probes: [[UInt8]] = [[UInt8](repeating: 0, count: 20), [UInt8](repeating: 0xFF, count: 20)]
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let hex = Array(line.utf8.prefix(40))
            guard hex.count == 40 else { continue }
            let digest = stride(from: 0, to: 40, by: 2).compactMap { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16) }
            guard digest.count == 20 else { continue }
            probes.append(digest)
            var near = digest
            near[19] = near[19] &+ 1
            probes.append(near)
        }
        for digest in probes.prefix(200) {
            let expected: Int?, found: Int?
            do { expected = try indexed.count(ofSHA1: digest) } catch { return "the index failed on a file it accepted" }
            do { found = try searched.count(ofSHA1: digest) } catch { return "the search failed on a file the whole-file check accepted" }
            if found != expected { return "search and index disagree on \(digest.hex): \(String(describing: found)) vs \(String(describing: expected))" }
        }
        return nil
    }

    /// Any bytes: parsing never crashes; rules that parse print a canonical
    /// form that reads back the same; a generator either refuses the rules or
    /// makes a password that satisfies them.
    public static func passwordRules(_ data: [UInt8]) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        guard let rules = try? PasswordRules.parse(text) else { return nil }
        guard let again = try? PasswordRules.parse(rules.description), again == rules else {
            return "canonical form does not read back: \(rules.description)"
        }
        // Very long rules are legal but slow to generate for; the parser is the target.
        if (rules.maxLength ?? 0) > 256 || rules.required.count > 8 { return nil }
        guard var generator = try? PasswordGenerator(rules: rules) else { return nil }
        let password = generator.next()
        let broken = rules.violations(of: password)
        return broken.isEmpty ? nil : "generated password breaks \(rules.description): \(broken)"
    }

    /// Any bytes: a URL that parses builds back to a URL that parses to the
    /// same configuration, and its codes have the configured length.
    public static func otpauthURL(_ data: [UInt8]) -> String? {
        guard let configuration = try? OTPAuthURL.parse(String(decoding: data, as: UTF8.self)) else { return nil }
        let built = OTPAuthURL.build(configuration)
        guard let again = try? OTPAuthURL.parse(built) else { return "built URL does not parse: \(built)" }
        guard again == configuration else { return "round trip changed the configuration: \(built)" }
        let code = configuration.code(at: 1_000_000_000)
        return code.count == configuration.digits && (configuration.encoder == .steam || code.allSatisfy(\.isNumber)) ? nil : "bad code length"
    }

    /// Any bytes: a binding that parses has a code, lower-case hosts, and is
    /// offered to its own domain and never to a lookalike.
    public static func smsCode(_ data: [UInt8]) -> String? {
        guard let bound = DomainBoundCode.parse(message: String(decoding: data, as: UTF8.self)) else { return nil }
        if bound.code.isEmpty || bound.domain != bound.domain.lowercased() { return "bad parse" }
        if bound.embeddedDomain == nil && !bound.isOffered(forSite: bound.domain) { return "not offered to its own domain" }
        for lookalike in ["x" + bound.domain, bound.domain + "x", "x-" + bound.domain] where bound.isOffered(forSite: lookalike) {
            return "offered to the lookalike \(lookalike)"
        }
        return nil
    }

    /// Any bytes as each CSV format: refused with a line and a reason, or
    /// read into entries whose TOTP (if any) parses, as `add` requires;
    /// written back as Apple CSV, they read back as the same entries.
    public static func importCSV(_ data: [UInt8]) -> String? {
        for format in ImportFormat.allCases where format.columns != nil {
            guard let result = try? Importer.read(Data(data), format: format, existing: [], now: Date(timeIntervalSince1970: 0)) else { continue }
            if let problem = importedEntriesAreValid(result, format) { return problem }
        }
        return nil
    }

    /// Any bytes as Bitwarden JSON: the same properties.
    public static func importJSON(_ data: [UInt8]) -> String? {
        guard let result = try? Importer.read(Data(data), format: .bitwardenJSON, existing: [], now: Date(timeIntervalSince1970: 0)) else { return nil }
        return importedEntriesAreValid(result, .bitwardenJSON)
    }

    /// Any bytes as a Credential Exchange Format document (read by bulwark's
    /// own JSON reader, `JSONStream`): refused with a reason, or read into
    /// entries that pass the checks every import's do.
    public static func importCXF(_ data: [UInt8]) -> String? {
        guard let result = try? Importer.read(Data(data), format: .cxf, existing: [], now: Date(timeIntervalSince1970: 0)) else { return nil }
        return importedEntriesAreValid(result, .cxf)
    }

    /// Any bytes as each of the other readers (Enpass's, Dashlane's and
    /// Proton Pass's JSON, 1PIF, KeePassX's XML, a keychain dump, and any
    /// format the detection names): refused with a reason, or entries that
    /// pass the checks every import's do.
    public static func importOther(_ data: [UInt8]) -> String? {
        let formats: [ImportFormat] = [.enpassJSON, .dashlaneJSON, .protonPassJSON, .onePasswordPIF, .keepassxXML, .appleKeychain]
        for format in formats + [ImportFormat.detect(Data(data))].compactMap({ $0 }) where format != .kdbx {
            guard let result = try? Importer.read(Data(data), format: format, existing: [], now: Date(timeIntervalSince1970: 0)) else { continue }
            if let problem = importedEntriesAreValid(result, format) { return problem }
        }
        return nil
    }

    /// Any bytes as a request to `bulwark agent`: refused with a reason
    /// that quotes no more than 40 bytes of it, or a request that reads
    /// back the same from its own line.
    /// Also the app's side of SSH approvals: a question that reads reads back the same from its own line, made visible.
    public static func agentRequest(_ data: [UInt8]) -> String? {
        if let question = SSHApprovalQuestion.parse(data, id: 1) {
            guard SSHApprovalQuestion.parse(Array(question.line.dropLast()), id: 1) == question else { return "an approval question does not read back from its own line" }
            guard (question.key + question.process).unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else { return "an approval question holds a control character" }
        }
        do {
            let request = try AgentRequest.parse(data)
            return (try? AgentRequest.parse(request.line)) == request ? nil : "a request does not read back from its own line"
        } catch {
            return error.reason.utf8.count > 120 ? "a refusal of \(error.reason.utf8.count) bytes" : nil
        }
    }

    /// Any bytes as a message to `bulwark ssh-agent` holding one Ed25519
    /// key: an answer of one of the protocol's types, a list naming the
    /// one key, and never a crash.
    public static func sshAgentMessage(_ data: [UInt8]) -> String? {
        guard let key = fuzzSSHKey else { return "no Ed25519 key" }
        var connection = SSHAgentProtocol.Connection()
        let answer = SSHAgentProtocol.answer(data, identities: [SSHAgentIdentity(key: key, comment: "fuzz")], connection: &connection) { _ in }
        guard let type = answer.first, [5, 6, 12, 14].contains(type) else { return "an answer of type \(answer.first.map(String.init) ?? "none")" }
        return type == 12 && answer.count != 1 + 4 + 4 + key.publicBlob.count + 4 + 4 ? "the list is not the one key" : nil
    }

    nonisolated(unsafe) static let fuzzSSHKey = try? SSHPrivateKey.generateEd25519()

    /// Any bytes as one JSON value laid out flat (`JSONTape`, how an
    /// Enpass export's items are read): taken exactly when the reader
    /// (`JSONStream`) takes the same bytes, and every value on the tape
    /// then read back without a crash, each container's elements in bounds.
    public static func jsonTape(_ data: [UInt8]) -> String? {
        let readerTakes = (try? JSONStream.parse(Data(data))) != nil
        return data.withUnsafeBufferPointer { buffer -> String? in
            var tape = JSONTape()
            do { try tape.read(buffer) } catch {
                return readerTakes ? "the tape refused what the reader took (\((error as? JSONStream.Failure)?.message ?? "\(error)"))" : nil
            }
            guard readerTakes else { return "the tape took what the reader refused" }
            var pending = [tape.root]
            while let node = pending.popLast() {
                _ = tape.text(node)
                _ = tape.integer(node)
                pending += tape.elements(node)
                tape.members(node, JSONTape.Names(["a", "title", ""])) { _, value in pending.append(value) }
            }
            return nil
        }
    }

    /// Any bytes as a 1PUX archive's `export.data` (the ZIP around it is
    /// libzip's, whose CRC check a mutated archive would never pass): refused
    /// with a reason, or read into entries with titles, each with its kind.
    public static func import1PUX(_ data: [UInt8]) -> String? {
        guard let read = try? OnePasswordPUX.read(exportData: Data(data), now: Date(timeIntervalSince1970: 0), skipBadRows: true) else { return nil }
        for entry in read.entries {
            if entry.title.isEmpty { return "1password-1pux: an entry without a title" }
            if entry.kind.holdsPassword && entry.password == nil { return "1password-1pux: a login without a password value" }
        }
        return nil
    }

    /// Any bytes as a KeePass database's XML (behind the container's
    /// HMACs, which a mutated file never passes): refused with a reason, or
    /// read into entries with titles whose TOTP, if any, is a string.
    public static func kdbxXML(_ data: [UInt8]) -> String? {
        guard let stream = try? StreamCiphers.KeyStream(chacha20: [UInt8](repeating: 7, count: 32), nonce: [UInt8](repeating: 9, count: 12)),
              let document = try? KDBXDocument.read(data, stream: stream) else { return nil }
        for item in document.items {
            let entry = KDBXImport.entry(item, now: Date(timeIntervalSince1970: 0))
            if entry.title.isEmpty { return "kdbx: an entry without a title" }
        }
        return nil
    }

    /// The first 40 bytes as five KDBX 4 times (raw Int64s, as the file
    /// holds them in base64), the rest as the inside of an entry, sealed in
    /// a real KDBX 4 container (fast Argon2) and imported as a person
    /// would: refused with a reason, or valid entries; never a trap. The
    /// kdbx-xml target never reached the times' arithmetic (a time of
    /// Int64.min ended the import with SIGILL); this one starts there.
    public static func kdbxFile(_ data: [UInt8]) -> String? {
        var times = [UInt8](repeating: 0, count: 40)
        for (index, byte) in data.prefix(40).enumerated() { times[index] = byte }
        func time(_ slot: Int) -> String { Data(times[(slot * 8)..<(slot * 8 + 8)]).base64EncodedString() }
        let inside = String(decoding: data.dropFirst(40), as: UTF8.self)
        let xml = "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<KeePassFile><Meta><Generator>fuzz</Generator></Meta><Root>"
            + "<Group><UUID>AAAAAAAAAAAAAAAAAAAAAA==</UUID><Name>fuzz</Name><Entry><UUID>AQEBAQEBAQEBAQEBAQEBAQ==</UUID>"
            + "<Times><CreationTime>\(time(0))</CreationTime><LastModificationTime>\(time(1))</LastModificationTime>"
            + "<LastAccessTime>\(time(2))</LastAccessTime><ExpiryTime>\(time(3))</ExpiryTime><Expires>False</Expires>"
            + "<LocationChanged>\(time(4))</LocationChanged></Times>" + inside + "</Entry></Group></Root></KeePassFile>\n"
        var settings = KDBXExport.Settings()
        settings.memoryKiB = 64
        settings.parallelism = 1
        settings.iterations = 1
        let streamKey = [UInt8](repeating: 3, count: 64)
        guard let file = try? KDBXExport.seal(xml: Array(xml.utf8), streamKey: streamKey, password: "fuzz", settings: settings) else {
            return "a container could not be sealed"
        }
        guard let result = try? Importer.read(file, format: .kdbx, existing: [], now: Date(timeIntervalSince1970: 0), filePassword: "fuzz") else { return nil }
        if let problem = importedEntriesAreValid(result, .kdbx) { return problem }
        for entry in result.entries where entry.created.timeIntervalSince1970 < -62_135_596_800 || entry.modified.timeIntervalSince1970 > 253_402_300_800 {
            return "kdbx: a time outside years 1 to 9999 was kept"
        }
        return nil
    }

    static func importedEntriesAreValid(_ result: ImportResult, _ format: ImportFormat) -> String? {
        for entry in result.entries {
            if let uri = entry.totpURI, (try? OTPAuthURL.parse(uri)) == nil { return "\(format.rawValue): an invalid TOTP was stored" }
            if entry.title.isEmpty { return "\(format.rawValue): an entry without a title" }
        }
        return nil
    }

    /// Any text: what the sanitiser shows holds no control, bidi control or
    /// invisible character, and is never shorter than what it replaced.
    public static func terminalText(_ data: [UInt8]) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        for lines in [false, true] {
            let shown = TerminalText.visible(text, lines: lines)
            let scalars = Array(shown.unicodeScalars)
            for (index, scalar) in scalars.enumerated() {
                if lines && (scalar == "\n" || scalar == "\t") { continue }
                let before = index > 0 ? scalars[index - 1] : nil, after = index + 1 < scalars.count ? scalars[index + 1] : nil
                if TerminalText.escape(scalar, between: before, and: after) != nil { return "U+\(String(scalar.value, radix: 16)) reached the terminal" }
            }
            if shown.unicodeScalars.count < text.unicodeScalars.count { return "the sanitiser dropped characters" }
        }
        return nil
    }
}
