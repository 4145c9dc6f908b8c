import Foundation

/// What `import` reads of an export before the vault is unlocked, on
/// another core while the master password's KDF runs: a large JSON
/// export's index of items (Enpass's), so that only the items' own
/// reading, shared across the cores, is left for after the unlock.
public struct ImportPreparation: Sendable {
    let items: JSONItemIndex?

    /// Whether `format` has anything to prepare.
    public static func helps(_ format: ImportFormat) -> Bool { format == .enpassJSON }

    /// The preparation of `data`, or nil when there is none to make (a
    /// document that is not valid JSON is left to `Importer.parse`, which names where).
    public static func make(_ data: Data, format: ImportFormat) -> ImportPreparation? {
        guard format == .enpassJSON, let index = try? JSONItemIndex.make(data, paths: [EnpassJSON.itemsPath]) else { return nil }
        return ImportPreparation(items: index)
    }
}
