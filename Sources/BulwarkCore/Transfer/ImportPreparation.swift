import Foundation

/// What `import` reads of an export before the vault is unlocked, on
/// another core while the master password's KDF runs: a large JSON
/// export's index of items (Enpass's, CXF's, Bitwarden's), or a KeePass XML
/// export's parse, so that only the items' own reading, shared across the
/// cores, is left for after the unlock.
public struct ImportPreparation: Sendable {
    let items: JSONItemIndex?
    /// A KeePass XML export's items, parsed and packed.
    var keepassXML: KDBXPreparedXML?
    /// A KeePass database's key after its own KDF.
    var kdbxKey: TransformedKey?

    /// A secret key, wiped when the last holder lets it go.
    final class TransformedKey: @unchecked Sendable {  // written once, at its making
        var bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        deinit { bytes.wipe() }
    }

    /// A KeePass database's key after its own KDF (AES-KDF rounds, or
    /// Argon2's second or so), worked out while the vault's scrypt runs on
    /// the other core: the file's password is asked for right after the
    /// master password. Nil when the header is refused: the read after the
    /// unlock says why, as it would have.
    public static func kdbxKey(_ data: Data, password: String, keyFile: [UInt8]?) -> ImportPreparation? {
        guard let key = try? KDBXContainer.transformedKey(data, password: password, keyFile: keyFile) else { return nil }
        return ImportPreparation(items: nil, kdbxKey: TransformedKey(key))
    }

    /// Whether the document is a password-protected Bitwarden export (read
    /// from the look already made: a second look at 82 MB, before the
    /// unlock, was a twentieth of the import).
    public var isPasswordProtected: Bool {
        guard let root = items?.root else { return false }
        return root["encrypted"] as? Bool == true && root["passwordProtected"] as? Bool == true
    }

    /// Whether `format` has anything to prepare.
    public static func helps(_ format: ImportFormat) -> Bool { format == .keepassXML || paths(format) != nil }

    /// Where `format`'s items are.
    static func paths(_ format: ImportFormat) -> [JSONStream.Path]? {
        switch format {
        case .enpassJSON: [EnpassJSON.itemsPath]
        case .cxf: CXFImport.itemPaths
        case .bitwardenJSON: [BitwardenJSON.itemsPath]
        default: nil
        }
    }

    /// The preparation of `data`, or nil when there is none to make (a
    /// document that is not valid JSON, a ZIP archive, is left to
    /// `Importer.parse`, which reads it or names where it fails).
    public static func make(_ data: Data, format: ImportFormat) -> ImportPreparation? {
        if format == .keepassXML { return ImportPreparation(items: nil, keepassXML: KDBXPreparedXML(data)) }
        guard let paths = paths(format), !ZipArchive.looksLikeZip(data), let index = try? JSONItemIndex.make(data, paths: paths) else { return nil }
        return ImportPreparation(items: index)
    }
}
