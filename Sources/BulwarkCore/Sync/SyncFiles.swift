import Foundation

/// Attachments' bytes in the sync repository: `files/BLOB/N`, each chunk
/// as the vault seals it (AES-256-GCM under the vault key, its associated
/// data naming the vault, the file and the chunk's place), copied as it
/// is. The name is the content's keyed hash, so a file two entries hold,
/// or two machines attach, is one set of objects; the remote learns a
/// file's size in chunks and nothing of its bytes or name.
enum SyncFiles {
    static func path(_ blob: String, _ index: Int) -> String { "files/\(blob)/\(index)" }

    /// Writes into `files` every chunk of the files `entries` hold that the repository lacks.
    static func push(_ entries: [Entry], from vault: Vault, into files: GitSnapshot) throws {
        guard entries.contains(where: { !$0.attachments.isEmpty }) else { return }
        try files.list(["files"])  // git lists a tree's children only once its parent is listed
        var done = Set<String>()
        for entry in entries {
            for attachment in entry.attachments where done.insert(attachment.blob).inserted {
                guard try files.names(in: "files/\(attachment.blob)").count < attachment.chunks else { continue }
                for index in 0..<attachment.chunks {
                    // A chunk this vault lacks (a file another machine has not sent yet) is left to that machine.
                    guard try vault.hasSealedChunk(attachment, index) else { break }
                    // Read as the commit is written, a chunk at a time: a large file is never held whole.
                    files.write(path(attachment.blob, index)) {
                        guard let sealed = try vault.sealedChunk(attachment, index) else {
                            throw SyncError.git("the file \(TerminalText.visible(attachment.name)) left the vault while it was synced; sync again")
                        }
                        return sealed
                    }
                }
            }
        }
    }

    /// Copies into the vault, inside its write transaction, every chunk of
    /// the files `entries` hold that it lacks, each checked to open as that
    /// file's chunk first; a file the repository does not hold whole is
    /// left out (`bulwark check` names it on the entry). The files taken in.
    @discardableResult
    static func pull(_ entries: [Entry], from files: GitSnapshot, into vault: Vault) throws -> Int {
        guard entries.contains(where: { !$0.attachments.isEmpty }) else { return 0 }
        try files.list(["files"])
        var done = Set<String>(), taken = 0
        for entry in entries {
            for attachment in entry.attachments where done.insert(attachment.blob).inserted {
                guard try !vault.hasBlob(attachment.blob) else { continue }
                // Listed, then read in one go (git's cat-file), before each chunk is checked.
                let paths = try files.files(under: ["files/\(attachment.blob)"])
                try files.load(paths)
                var whole = true
                for index in 0..<attachment.chunks {
                    guard let sealed = try files.bytes(path(attachment.blob, index)), try vault.insertSealedChunk(attachment, index, sealed) else {
                        whole = false
                        break
                    }
                }
                if whole { taken += 1 }
            }
        }
        return taken
    }
}
