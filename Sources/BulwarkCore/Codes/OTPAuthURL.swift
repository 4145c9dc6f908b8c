import Foundation

/// A code generator's settings, as an `otpauth://` URL carries them.
public struct OTPConfiguration: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case totp(period: Int)
        case hotp(counter: UInt64)
    }

    /// How the truncated HMAC becomes the code shown: decimal digits (RFC
    /// 4226), or Steam Guard's five characters.
    public enum Encoder: String, Sendable, Equatable {
        case decimal, steam
    }

    public var kind: Kind
    public var secret: [UInt8]
    public var digest: HMACDigest
    public var digits: Int
    public var issuer: String?
    public var account: String
    public var encoder: Encoder

    public init(kind: Kind, secret: [UInt8], digest: HMACDigest = .sha1, digits: Int = 6, issuer: String? = nil, account: String = "",
                encoder: Encoder = .decimal) {
        self.kind = kind
        self.secret = secret
        self.digest = digest
        self.digits = encoder == .steam ? OneTimePassword.steamLength : digits
        self.issuer = issuer
        self.account = account
        self.encoder = encoder
    }

    /// Steam Guard: a 30-second TOTP with SHA-1, shown as five characters.
    public static func steam(secret: [UInt8], account: String = "") -> OTPConfiguration {
        OTPConfiguration(kind: .totp(period: 30), secret: secret, issuer: "Steam", account: account, encoder: .steam)
    }

    /// The code at a moment (TOTP) or at the stored counter (HOTP).
    public func code(at unixSeconds: Int64) -> String {
        switch kind {
        case .totp(let period): code(counter: OneTimePassword.timeStep(at: unixSeconds, period: period))
        case .hotp(let counter): code(counter: counter)
        }
    }

    func code(counter: UInt64) -> String {
        switch encoder {
        case .decimal: OneTimePassword.hotp(secret: secret, counter: counter, digits: digits, digest: digest)
        case .steam: OneTimePassword.steam(secret: secret, counter: counter, digest: digest)
        }
    }

    /// The code after this one: the next period's, or the next counter's;
    /// nil at the end of time or of the counter (there is no next one).
    public func nextCode(at unixSeconds: Int64) -> String? {
        switch kind {
        case .totp(let period):
            let (next, overflow) = unixSeconds.addingReportingOverflow(Int64(period))
            return overflow ? nil : code(at: next)
        case .hotp(let counter):
            let (next, overflow) = counter.addingReportingOverflow(1)
            return overflow ? nil : code(counter: next)
        }
    }
}

/// Why an otpauth URL was refused. Each case has its own message, naming
/// the parameter at fault; none repeats the secret.
public enum OTPAuthURLError: Error, Sendable, Equatable, CustomStringConvertible {
    case notAURL
    case wrongScheme(String)
    case wrongType(String)
    case missingSecret
    case badSecret(character: Character, position: Int)
    case emptySecret
    case badDigits(String)
    case badAlgorithm(String)
    case badPeriod(String)
    case missingCounter
    case badCounter(String)

    public var description: String {
        switch self {
        case .notAURL: "not a URL"
        case .wrongScheme(let s): "unsupported scheme '\(s)' (expected otpauth://, apple-otpauth:// or steam://)"
        case .wrongType(let t): "unknown type '\(t)' (expected totp or hotp)"
        case .missingSecret: "the secret parameter is missing"
        case .badSecret(let c, let p): "the secret parameter is not base32: '\(c)' at position \(p)"
        case .emptySecret: "the secret parameter is empty"
        case .badDigits(let d): "the digits parameter must be 6, 7 or 8, or 5 with encoder=steam (got '\(d)')"
        case .badAlgorithm(let a): "the algorithm parameter must be SHA1, SHA256 or SHA512 (got '\(a)')"
        case .badPeriod(let p): "the period parameter must be a whole number of seconds from 1 to 86400 (got '\(p)')"
        case .missingCounter: "the counter parameter is missing (an hotp URL needs one)"
        case .badCounter(let c): "the counter parameter must be a whole number (got '\(c)')"
        }
    }
}

public enum OTPAuthURL {
    /// Parses `otpauth://totp/LABEL?...`, `otpauth://hotp/LABEL?...` and the
    /// same under `apple-otpauth://`. The issuer comes from the `issuer`
    /// parameter, else from the label's prefix (`Issuer:account`). Steam
    /// Guard comes as KeePassXC writes it (`encoder=steam`, digits 5) or
    /// as Bitwarden does (`steam://SECRET`).
    public static func parse(_ text: String) throws(OTPAuthURLError) -> OTPConfiguration {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.lowercased().hasPrefix("steam://") {
            let secretText = String(trimmed.dropFirst("steam://".count))
            let secret: [UInt8]
            do { secret = try Base32.decode(secretText) } catch { throw .badSecret(character: error.character, position: error.position) }
            guard !secret.isEmpty else { throw .emptySecret }
            return .steam(secret: secret)
        }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme else { throw .notAURL }
        guard ["otpauth", "apple-otpauth"].contains(scheme.lowercased()) else { throw .wrongScheme(scheme) }
        let type = (components.host ?? "").lowercased()
        guard type == "totp" || type == "hotp" else { throw .wrongType(components.host ?? "") }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] where parameters[item.name.lowercased()] == nil {
            parameters[item.name.lowercased()] = item.value ?? ""
        }
        guard let secretText = parameters["secret"] else { throw .missingSecret }
        let secret: [UInt8]
        do { secret = try Base32.decode(secretText) } catch { throw .badSecret(character: error.character, position: error.position) }
        guard !secret.isEmpty else { throw .emptySecret }

        var digest = HMACDigest.sha1
        if let name = parameters["algorithm"] {
            guard let found = HMACDigest(rawValue: name.uppercased().replacingOccurrences(of: "-", with: "")) else { throw .badAlgorithm(name) }
            digest = found
        }
        let encoder: OTPConfiguration.Encoder = parameters["encoder"]?.lowercased() == "steam" ? .steam : .decimal
        var digits = 6
        if let text = parameters["digits"] {
            let allowed = encoder == .steam ? OneTimePassword.steamLength...OneTimePassword.steamLength : 6...8
            guard let n = Int(text), allowed.contains(n) else { throw .badDigits(text) }
            digits = n
        }
        let kind: OTPConfiguration.Kind
        if type == "totp" {
            var period = 30
            if let text = parameters["period"] {
                guard let n = Int(text), (1...86_400).contains(n) else { throw .badPeriod(text) }
                period = n
            }
            kind = .totp(period: period)
        } else {
            guard let text = parameters["counter"] else { throw .missingCounter }
            guard let n = UInt64(text) else { throw .badCounter(text) }
            kind = .hotp(counter: n)
        }
        // The label is the path without its one leading slash, already
        // percent-decoded: an account may itself begin with a slash (%2F).
        let path = components.path
        let label = String(path.hasPrefix("/") ? path.dropFirst() : path[...])
        let issuerParameter = parameters["issuer"].flatMap { $0.isEmpty ? nil : $0 }
        var issuer = issuerParameter
        var account = label
        if label.hasPrefix(":") {
            // A bare leading colon: no issuer in the label, and the rest is the
            // account whatever colons it holds (how `build` writes such a label).
            account = String(label.dropFirst())
        } else if let issuerParameter, label.hasPrefix(issuerParameter + ":") {
            // The issuer may itself hold a colon: strip exactly the issuer named.
            account = String(label.dropFirst(issuerParameter.count + 1))
        } else if let colon = label.firstIndex(of: ":") {
            let prefix = String(label[..<colon]).trimmingCharacters(in: .whitespaces)
            account = String(label[label.index(after: colon)...])
            if issuer == nil && !prefix.isEmpty { issuer = prefix }
        }
        account = account.trimmingCharacters(in: .whitespaces)
        return OTPConfiguration(kind: kind, secret: secret, digest: digest, digits: digits, issuer: issuer, account: account, encoder: encoder)
    }

    /// Bitwarden's form for Steam Guard, `steam://SECRET`; nil for any other code.
    public static func bitwardenSteam(_ uri: String) -> String? {
        guard let configuration = try? parse(uri), configuration.encoder == .steam,
              case .totp(30) = configuration.kind, configuration.digest == .sha1 else { return nil }
        return "steam://" + Base32.encode(configuration.secret)
    }

    /// Builds the URL back (for export): `otpauth://TYPE/Issuer:account?secret=…&issuer=…&algorithm=…&digits=…&period|counter=…`.
    public static func build(_ configuration: OTPConfiguration) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":/?#@")
        func encode(_ text: String, _ set: CharacterSet) -> String { text.addingPercentEncoding(withAllowedCharacters: set) ?? text }
        var query = CharacterSet.urlQueryAllowed
        query.remove(charactersIn: "&=+?#")
        // `Issuer:account`; with no issuer, or one the label cannot carry, a
        // bare leading colon keeps a colon in the account from reading as one.
        let prefix = configuration.issuer.map { $0.contains(":") ? "" : encode($0, allowed) } ?? ""
        let needsPrefix = configuration.issuer != nil || configuration.account.contains(":")
        let label = (needsPrefix ? prefix + ":" : "") + encode(configuration.account, allowed)
        var items = ["secret=" + Base32.encode(configuration.secret)]
        if let issuer = configuration.issuer { items.append("issuer=" + encode(issuer, query)) }
        items.append("algorithm=" + configuration.digest.rawValue)
        items.append("digits=\(configuration.digits)")
        if configuration.encoder == .steam { items.append("encoder=steam") }
        switch configuration.kind {
        case .totp(let period): return "otpauth://totp/\(label)?" + (items + ["period=\(period)"]).joined(separator: "&")
        case .hotp(let counter): return "otpauth://hotp/\(label)?" + (items + ["counter=\(counter)"]).joined(separator: "&")
        }
    }
}

/// A code typed or pasted by a person: an `otpauth://` or
/// `apple-otpauth://` URL, a `steam://` secret, or a bare base32 secret (as
/// sites show under their QR code), made the URL the vault keeps.
public enum TOTPInput {
    public static func normalized(_ text: String, issuer: String, account: String) throws(OTPAuthURLError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if !trimmed.contains(":") {
            // Sites print the secret in groups of four, often lower-case.
            let compact = trimmed.replacingOccurrences(of: " ", with: "").uppercased()
            let secret: [UInt8]
            do { secret = try Base32.decode(compact) } catch {
                // Said at its place in what the person typed, spaces and case included.
                let typed = Array(trimmed)
                let position = typed.firstIndex { $0 != " " && Character($0.uppercased()) == error.character }.map { $0 + 1 } ?? error.position
                throw .badSecret(character: position <= typed.count ? typed[position - 1] : error.character, position: position)
            }
            guard !secret.isEmpty else { throw .emptySecret }
            return OTPAuthURL.build(OTPConfiguration(kind: .totp(period: 30), secret: secret, issuer: issuer.isEmpty ? nil : issuer, account: account))
        }
        let configuration = try OTPAuthURL.parse(trimmed)
        if trimmed.lowercased().hasPrefix("steam://") { return OTPAuthURL.build(.steam(secret: configuration.secret, account: account)) }
        return trimmed
    }
}
