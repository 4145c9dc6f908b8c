/// How urgent a recommendation is. High Priority is critical and high.
public enum Severity: Int, Sendable, CaseIterable, Comparable {
    case low, medium, high, critical

    public var label: String {
        switch self {
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        case .critical: "critical"
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    var raised: Severity { Severity(rawValue: min(rawValue + 1, Severity.critical.rawValue))! }
}

/// The severity rules (the README's table, tested row by row):
/// 1. Each warning has a base: breached high; reused, weak medium;
///    insecure-url, old, no-2fa low; passkey-available (an opportunity) low.
/// 2. A breached password that is also reused is critical.
/// 3. Every warning is raised one step when the account is e-mail, identity,
///    finance, government or health; a reuse warning also when any account
///    in its group is.
///    An opportunity (passkey-available) is never raised: alone it stays low.
/// 4. The recommendation takes its worst warning's severity, one step
///    higher when other accounts sign in through this one (identity-provider).
public enum SeverityRules {
    public static func base(_ kind: WarningKind) -> Severity {
        switch kind {
        case .breached: .high
        case .reused, .weak: .medium
        case .insecureURL, .old, .noTwoFactor, .passkeyAvailable, .identityProvider: .low
        }
    }

    public static func severity(of warnings: [Warning], sensitiveAccount: Bool, sensitiveGroup: Bool) -> Severity? {
        guard !warnings.isEmpty else { return nil }
        let kinds = Set(warnings.map(\.kind))
        let each = warnings.map { warning -> Severity in
            let raise = warning.kind != .passkeyAvailable && (sensitiveAccount || (warning.kind == .reused && sensitiveGroup))
            return raise ? base(warning.kind).raised : base(warning.kind)
        }
        let worst = each.max()!
        if kinds.contains(.breached) && kinds.contains(.reused) { return .critical }
        return kinds.contains(.identityProvider) ? worst.raised : worst
    }
}
