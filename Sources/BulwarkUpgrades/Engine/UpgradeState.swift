import BulwarkCore
import Foundation

/// Where an upgrade was started.
public enum UpgradeOrigin: String, Sendable, Equatable {
    case entry, recommendation
    case signInPrompt = "sign-in-prompt"
    case inApp = "in-app"
}

public struct UpgradeRequest: Sendable, Equatable {
    public let entryID: String
    public let kind: UpgradeKind
    public let origin: UpgradeOrigin
    /// For in-app requests: the app's session token (no password is passed).
    public let userInfo: [String: String]?

    public init(entryID: String, kind: UpgradeKind, origin: UpgradeOrigin, userInfo: [String: String]? = nil) {
        self.entryID = entryID
        self.kind = kind
        self.origin = origin
        self.userInfo = userInfo
    }
}

/// The host's Sign in with Apple sheet.
public struct SignInWithAppleSheet: Sendable, Equatable {
    public let serviceName: String
    public let fullName: String
    public let sharedEmail: String
    public var hideEmail: Bool
    /// What the service asks for: the sheet shows only these rows.
    public let scopes: [AppleIDScope]

    public init(serviceName: String, fullName: String, sharedEmail: String, hideEmail: Bool, scopes: [AppleIDScope] = AppleIDScope.allCases) {
        self.serviceName = serviceName
        self.fullName = fullName
        self.sharedEmail = sharedEmail
        self.hideEmail = hideEmail
        self.scopes = scopes
    }

    public var asksForEmail: Bool { scopes.contains(.email) }
}

/// The host's passkey sheet: "Save a passkey for jane on shiny.example?"
public struct PasskeySheet: Sendable, Equatable {
    public let serviceName: String
    public let rpID: String
    public let userName: String
    public let userDisplayName: String

    public init(serviceName: String, rpID: String, userName: String, userDisplayName: String) {
        self.serviceName = serviceName
        self.rpID = rpID
        self.userName = userName
        self.userDisplayName = userDisplayName
    }
}

/// How a finished upgrade ended well.
public struct UpgradeOutcome: Sendable, Equatable {
    public let kind: UpgradeKind
    public let entryID: String
    public let serviceName: String
    /// The service set a password of its own instead of the proposed one.
    public let substituted: Bool
    /// Sign in with Apple: the e-mail the service got, and whether it is the relay.
    public let email: String?
    public let isPrivateRelay: Bool
    /// The titles of the account's other entries that changed with it…
    public var alsoUpdated: [String] = []
    /// …and their ids, for whatever must look at them again (the analysis).
    public var alsoUpdatedIDs: [String] = []

    public var summary: String { headline + (alsoUpdatedLine.map { " " + $0 } ?? "") }

    /// The account's other entries that changed, as a sentence; nil when none did.
    public var alsoUpdatedLine: String? {
        alsoUpdated.isEmpty ? nil : "Also updated, the same account: " + alsoUpdated.joined(separator: ", ") + "."
    }

    /// What happened at the service, without the other entries.
    public var headline: String {
        switch kind {
        case .strongPassword:
            substituted ? "\(serviceName) set a strong password of its own; bulwark saved it."
                        : "\(serviceName) now uses a strong password, saved in bulwark."
        case .signInWithApple:
            "\(serviceName) now uses Sign in with Apple" + (isPrivateRelay ? " with a hidden e-mail." : ".") + " Its password was removed."
        case .passkey:
            "\(serviceName) now signs in with a passkey, saved in bulwark. Its password no longer works (kept in history)."
        }
    }
}

/// Every state of an upgrade the screens can draw. Transient states
/// (authorising, verifying, exchanging) are shown while the service works.
public enum UpgradeState: Sendable, Equatable {
    case authorising
    case stepUp(StepUpScreen)
    case verifying(StepUpScreen)
    case sheet(SignInWithAppleSheet)
    case passkeySheet(PasskeySheet)
    case exchanging
    case completed(UpgradeOutcome)
    case failed(reason: String)
    case cancelled

    /// The host shows this when the service gives no reason.
    public static let defaultFailure = "The upgrade could not be completed. Try again later."

    /// Waiting for the person (a code, the sheet): Cancel works here.
    public var isInteractive: Bool {
        switch self {
        case .stepUp, .sheet, .passkeySheet: true
        default: false
        }
    }

    public var isFinished: Bool {
        switch self {
        case .completed, .failed, .cancelled: true
        default: false
        }
    }

    public var name: String {
        switch self {
        case .authorising: "authorising"
        case .stepUp: "step-up"
        case .verifying: "verifying"
        case .sheet: "sheet"
        case .passkeySheet: "passkey-sheet"
        case .exchanging: "exchanging"
        case .completed: "completed"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}

/// The person whose Apple ID signs in with Apple in the demo.
public struct AppleIDAccount: Sendable, Equatable {
    public let email: String
    public let fullName: String
    public init(email: String, fullName: String) {
        self.email = email
        self.fullName = fullName
    }
}
