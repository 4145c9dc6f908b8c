import BulwarkCore
import Foundation

enum CodeCommand {
    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        if let uri = parsed.value("--uri") {
            guard parsed.arguments.isEmpty else { Output.error("give ENTRY or --uri -, not both."); return 2 }
            guard uri == "-" else { Output.error(SecretArgument.refused("--uri", safe: "--uri -").message); return 2 }
            do { return show(uri: try SecretArgument.input(parsed).next(prompt: "otpauth:// URI"), parsed) } catch {
                Output.error("\(error)")
                return 1
            }
        }
        guard parsed.arguments.count == 1 else { Output.error("usage: bulwark code ENTRY | --uri - [--at UNIX_SECONDS] [--json]"); return 2 }
        return VaultCommands.withVault(parsed) { vault, _ in
            let entry = try vault.find(parsed.arguments[0])
            guard let uri = entry.totpURI else {
                Output.error("\(entry.title) has no verification code set up.")
                return 1
            }
            return show(uri: uri, parsed)
        }
    }

    static func show(uri: String, _ parsed: ParsedCommandLine) -> Int32 {
        var now = Int64(Date().timeIntervalSince1970)
        if let text = parsed.value("--at") {
            guard let at = Int64(text), at >= 0 else {
                Output.error("--at takes whole seconds since 1970, not '\(text)'.")
                return 2
            }
            now = at
        }
        let configuration: OTPConfiguration
        do {
            configuration = try OTPAuthURL.parse(uri)
        } catch {
            Output.error("invalid otpauth URL: \(error).")
            return 1
        }
        let code = configuration.code(at: now)
        var remaining: Int?
        if case .totp(let period) = configuration.kind { remaining = OneTimePassword.secondsRemaining(at: now, period: period) }
        if parsed.flag("--json") {
            var object: [String: Any] = [
                "code": code,
                "next_code": configuration.nextCode(at: now).map { $0 as Any } ?? NSNull(),
                "digits": configuration.digits,
                "algorithm": configuration.digest.rawValue,
                "seconds_remaining": remaining.map { $0 as Any } ?? NSNull(),
            ]
            switch configuration.kind {
            case .totp(let period): object["type"] = "totp"; object["period"] = period
            case .hotp(let counter): object["type"] = "hotp"; object["counter"] = counter
            }
            Output.json(object)
        } else if let remaining {
            print("\(code) (valid for \(remaining) more second\(remaining == 1 ? "" : "s"))")
        } else if case .hotp(let counter) = configuration.kind {
            print("\(code) (counter \(counter))")
        }
        return 0
    }
}
