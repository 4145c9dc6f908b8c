import Foundation

/// The files of Assets/, built into the binary (see Sources/EmbedAssetsPlugin).
/// Paths are relative to Assets/, for example `services/shiny.json`.
public enum Assets {
    /// Every embedded path, sorted.
    public static var paths: [String] { EmbeddedAssetFiles.base64.keys.sorted() }

    /// The bytes of one embedded file, or nil when there is none.
    public static func data(_ path: String) -> Data? {
        EmbeddedAssetFiles.base64[path].flatMap { Data(base64Encoded: $0) }
    }

    /// The paths under a folder, for example every `services/*.json`.
    public static func paths(under folder: String, suffix: String = "") -> [String] {
        paths.filter { $0.hasPrefix(folder + "/") && $0.hasSuffix(suffix) }
    }
}

#if BULWARK_NO_EMBEDDED_ASSETS
/// Fuzz builds embed nothing (see Package.swift).
enum EmbeddedAssetFiles {
    static let base64: [String: String] = [:]
}
#endif
