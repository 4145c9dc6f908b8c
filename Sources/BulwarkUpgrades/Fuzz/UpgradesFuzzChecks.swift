import BulwarkCore
import Foundation

/// The fuzz checks of the service layer, beside the core's (`FuzzChecks`).
public enum UpgradesFuzzChecks {
    public static let all: [String: @Sendable ([UInt8]) -> String?] = [
        "service-manifest": serviceManifest,
    ]

    /// Any bytes as a service manifest: refused with a reason naming the
    /// file, or a manifest whose latency is within bounds and whose
    /// password rules parse (as the catalog and the mocks rely on).
    public static func serviceManifest(_ data: [UInt8]) -> String? {
        guard let manifest = try? ServiceManifest.decode(Data(data), file: "fuzz.json") else { return nil }
        if !(0...ServiceManifest.Behaviour.maximumLatencyMs).contains(manifest.behaviour.latencyMs) { return "a latency out of bounds was accepted" }
        if let rules = manifest.passwordRules, (try? PasswordRules.parse(rules)) == nil { return "rules that do not parse were accepted" }
        if manifest.id.isEmpty { return "a manifest without an id was accepted" }
        return nil
    }
}
