import BulwarkCore
import Foundation

/// What `import` holds of a file around the vault's unlock: its bytes,
/// let go and read again; what is read of it beside the master password's
/// KDF (an export's items, a KeePass database's own key).
extension TransferCommands {
    /// A file's bytes, held until `release` and read again by `reread`:
    /// they are let go while the master password's KDF runs (its 128 MiB
    /// and an 82 MB export at once passed 200 MB) and once they are entries.
    final class HeldFile {
        let path: String
        private var data: Data?
        /// Mapped, not copied into memory.
        let isMapped: Bool
        init?(path: String) {
            let mapped = MappedExport(path: path)?.data
            guard let data = mapped ?? FileManager.default.contents(atPath: path) else { return nil }
            self.path = path
            self.data = data
            isMapped = mapped != nil
        }

        /// Mapped where it can be (a JSON reader gives its pages back as it
        /// goes), else read: an empty file, a pipe or `/dev/stdin`.
        static func read(_ path: String) -> Data? {
            MappedExport(path: path)?.data ?? FileManager.default.contents(atPath: path)
        }
        var bytes: Data { data ?? Data() }
        func release() { data = nil }
        func reread() throws(ImportError) -> Data {
            if let data { return data }
            guard let again = Self.read(path) else { throw ImportError(line: nil, message: "it can no longer be read") }
            data = again
            return again
        }
    }

    /// What is read of a file ahead (`ImportPreparation`: an export's items,
    /// a KeePass database's key), made on its own thread while the master
    /// password's KDF runs, waited for after the unlock.
    final class Preparing: @unchecked Sendable {  // `made` is written before the work is done, read after its wait
        private var made: ImportPreparation?
        private var work: BackgroundWork?
        init(_ make: @escaping @Sendable () -> ImportPreparation?) {
            work = BackgroundWork { [self] in made = make() }
        }
        convenience init(_ data: Data, format: ImportFormat) {
            self.init { ImportPreparation.make(data, format: format) }
        }
        func wait() -> ImportPreparation? {
            try? work?.wait()
            return made
        }
    }
}
