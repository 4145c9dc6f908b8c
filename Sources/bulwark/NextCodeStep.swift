import BulwarkCore
import Foundation

/// A TOTP code from the vault that the service or provider says was used
/// already (a sign-in or upgrade a moment before, in the same time step):
/// the command waits for the next step, says so, and gives its code.
enum NextCodeStep {
    /// The next step's code for the entry's TOTP, after waiting for it;
    /// nil when the entry has no time-based code.
    static func code(totpURI: String?, clock: () -> Date, name: String) -> String? {
        guard let uri = totpURI, let config = try? OTPAuthURL.parse(uri), case .totp(let period) = config.kind else { return nil }
        let now = clock().timeIntervalSince1970
        let wait = Double(period) - now.truncatingRemainder(dividingBy: Double(period)) + 0.2
        Output.stderr("bulwark: \(name): this step's code was used already; waiting \(Int(wait.rounded(.up))) s for the next.\n")
        Thread.sleep(forTimeInterval: wait)
        return config.code(at: Int64(clock().timeIntervalSince1970))
    }
}
