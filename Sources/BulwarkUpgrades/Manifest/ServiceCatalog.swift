import BulwarkAssets
import BulwarkCore
import Foundation

/// The two upgrades an extension can offer.
public enum UpgradeKind: String, Sendable, CaseIterable {
    case strongPassword = "strong-password"
    case signInWithApple = "sign-in-with-apple"

    public var label: String { self == .strongPassword ? "upgrade to a strong password" : "convert to Sign in with Apple" }
}

/// Whether an upgrade is offered for an entry, and if not, why.
public enum Availability: Sendable, Equatable {
    case offered(ServiceManifest)
    case unavailable(String)

    public var manifest: ServiceManifest? { if case .offered(let m) = self { return m }; return nil }
    public var reason: String? { if case .unavailable(let r) = self { return r }; return nil }
}

/// Every service manifest bulwark knows: the built-in demo services, then
/// any from `--services DIR` (or the config file), which replace built-in
/// ones with the same id.
public struct ServiceCatalog: Sendable, ServiceRequirementsProvider {
    public let manifests: [ServiceManifest]

    public init(manifests: [ServiceManifest]) { self.manifests = manifests.sorted { $0.id < $1.id } }

    public static func builtIn() throws -> ServiceCatalog {
        try ServiceCatalog(manifests: Assets.paths(under: "services", suffix: ".json").map { path in
            try ServiceManifest.decode(Assets.data(path) ?? Data(), file: "Assets/" + path)
        })
    }

    /// The built-in manifests plus a directory's `*.json`, each checked.
    public static func load(extraDirectory: String?) throws -> ServiceCatalog {
        var byID = Dictionary(uniqueKeysWithValues: try builtIn().manifests.map { ($0.id, $0) })
        if let extraDirectory {
            let url = URL(fileURLWithPath: extraDirectory)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else {
                throw ServiceManifest.Invalid(file: extraDirectory, reason: "no such directory")
            }
            for name in names.sorted() where name.hasSuffix(".json") {
                let file = url.appendingPathComponent(name)
                let manifest = try ServiceManifest.decode(try Data(contentsOf: file), file: file.path)
                byID[manifest.id] = manifest
            }
        }
        return ServiceCatalog(manifests: Array(byID.values))
    }

    public func manifest(id: String) -> ServiceManifest? { manifests.first { $0.id == id } }

    /// The manifest whose associated domains cover a host.
    public func manifest(forHost host: String) -> ServiceManifest? {
        host.isEmpty ? nil : manifests.first { $0.covers(host) }
    }

    /// An upgrade is offered only when a manifest's associated domains cover
    /// the entry's site and the manifest supports that upgrade.
    public func availability(_ kind: UpgradeKind, for entry: Entry) -> Availability {
        guard !entry.site.isEmpty else { return .unavailable("the entry has no website") }
        guard let manifest = manifest(forHost: entry.site) else {
            return .unavailable("no service extension is associated with \(entry.site)")
        }
        if entry.signInWithApple != nil || entry.password == nil {
            return .unavailable("this account already uses Sign in with Apple")
        }
        if entry.pendingChange != nil { return .unavailable("an upgrade of this account is still being settled") }
        switch kind {
        case .strongPassword where !manifest.supportsStrongPassword:
            return .unavailable("\(manifest.name) does not support upgrading to a strong password")
        case .signInWithApple where !manifest.supportsSignInWithApple:
            return .unavailable("\(manifest.name) does not support Sign in with Apple")
        default:
            return .offered(manifest)
        }
    }

    public func offeredUpgrades(for entry: Entry) -> [UpgradeKind] {
        UpgradeKind.allCases.filter { availability($0, for: entry).manifest != nil }
    }

    // MARK: ServiceRequirementsProvider

    public func passwordRules(for host: String) -> String? { manifest(forHost: host)?.passwordRules }
    public func changePasswordURL(for host: String) -> String? { manifest(forHost: host)?.changePasswordURL }
    public func twoFactorMethod(for host: String) -> String? {
        manifest(forHost: host).flatMap { $0.twoFactor == .none ? nil : $0.twoFactor.rawValue }
    }
}
