import BulwarkCore
import Foundation

/// The files an entry holds, for the app's Files dialog: saved to a path,
/// opened with the desktop's opener, attached from a path.
extension AppSession {
    /// Writes the file whole (beside the path, then linked into place,
    /// 0600, never over a file, never through a symlink); says where.
    public func saveAttachment(entryID: String, name: String, to path: String) throws -> String {
        try lock.withLock {
            guard let vault else { throw VaultError.locked }
            guard let entry = vault.entry(id: entryID), let attachment = entry.attachments.first(where: { $0.name == name }) else {
                throw AttachmentError.notFound(name: name, entry: vault.entry(id: entryID)?.title ?? "the entry")
            }
            var target = PathCompletion.expand(path)
            var isDirectory: ObjCBool = false
            // A folder given: the file goes in it under its own name.
            if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory), isDirectory.boolValue {
                target = (target as NSString).appendingPathComponent(name)
            }
            try SafeFileWriter.write(to: target, replacing: false) { write in try vault.readAttachment(attachment, of: entry, into: write) }
            return "Saved \(name) (\(ByteSize.text(attachment.size))) to \(target)."
        }
    }

    /// Seals the file at `path` into the entry.
    public func attachFile(entryID: String, path: String) throws -> (SessionSnapshot, String) {
        try lock.withLock {
            guard let vault else { throw VaultError.locked }
            let expanded = PathCompletion.expand(path)
            let source = try FileAttachmentSource(path: expanded)
            let name = (expanded as NSString).lastPathComponent
            var attached: Attachment?
            try settling([entryID]) {
                attached = try vault.transaction { change in try change.attach(source, to: entryID, name: name) }
            }
            return (makeSnapshot(), "Attached \(name) (\(ByteSize.text(attached?.size ?? 0))).")
        }
    }

    /// Takes the file from the entry (its bytes dropped with it when no other entry holds them).
    public func removeAttachment(entryID: String, name: String) throws -> (SessionSnapshot, String) {
        try lock.withLock {
            guard let vault else { throw VaultError.locked }
            try settling([entryID]) {
                try vault.transaction { change in try change.detach(name, from: entryID) }
            }
            return (makeSnapshot(), "Removed \(name) from \(vault.entry(id: entryID)?.title ?? "the entry").")
        }
    }

    /// Writes the file into a folder only this user can read (under
    /// `$XDG_RUNTIME_DIR`, else the temporary folder), emptied when the
    /// vault locks, and hands it to `xdg-open`.
    public func openAttachment(entryID: String, name: String) throws -> String {
        let folder = Self.openFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = (folder as NSString).appendingPathComponent(name)
        try? FileManager.default.removeItem(atPath: path)
        _ = try saveAttachment(entryID: entryID, name: name, to: path)
        guard DesktopOpener.open(path) else { throw AttachmentOpenFailure(name: name) }
        return "Opened \(name) with the desktop's opener (a copy in \(folder), removed when the vault locks)."
    }

    static func openFolder() -> String {
        let base = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-\(getuid())").path
        return (base as NSString).appendingPathComponent("bulwark/opened")
    }

    /// The opened copies, gone with the lock.
    static func removeOpenedCopies() { try? FileManager.default.removeItem(atPath: openFolder()) }

    public func completePath(_ partial: String) -> String { PathCompletion.complete(partial) }
}

struct AttachmentOpenFailure: Error, CustomStringConvertible {
    let name: String
    var description: String { "no opener could be started for \(name) (xdg-open is not installed?)" }
}

extension AppSession {
    /// An entry put back as it was (`z`): over its row as it is now, or
    /// anew when it was deleted; its time of change is now, so other
    /// machines take the undo as the newest change.
    public func restoreEntry(_ entry: Entry) throws -> (SessionSnapshot, lostFiles: [String]) {
        try lock.withLock {
            guard let vault else { throw VaultError.locked }
            var restored = entry
            restored.modified = Date()
            var lost: [String] = []
            try settling([entry.id]) {
                try vault.transaction { change in
                    // A file whose bytes went with the change (a delete drops what no entry holds) is
                    // not put back as a reference to nothing: it is named instead.
                    lost = try restored.attachments.filter { try !vault.hasBlob($0.blob) }.map(\.name)
                    restored.attachments.removeAll { lost.contains($0.name) }
                    try change.save(restored, basedOn: vault.version(of: entry.id))
                }
            }
            return (makeSnapshot(), lost)
        }
    }
}
