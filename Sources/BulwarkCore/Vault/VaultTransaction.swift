import Foundation

/// Everything one user-visible change writes, as one vault transaction: an
/// edit and the same account's other entries it reaches, an import's
/// merges and new entries. Reads see the file as the write found it (the
/// other writers' rows included) with this change's own puts over it, so a
/// later step builds on an earlier one. A kill anywhere leaves all or none.
public final class VaultTransaction {
    private let vault: Vault
    private(set) var puts: [Entry] = []
    private(set) var deletes: [String] = []
    /// `puts` by id, the first `indexed` of them: a large insert into a
    /// change with none yet (an import's 100,000) is indexed only when one
    /// is looked up, which most imports never do (each was a hash and a cache miss).
    private var indexedPuts: [String: Int] = [:]
    private var indexed = 0

    private var putIndex: [String: Int] {
        get { catchUpIndex(); return indexedPuts }
        _modify { catchUpIndex(); yield &indexedPuts }
    }

    private func catchUpIndex() {
        guard indexed < puts.count else { return }
        indexedPuts.reserveCapacity(puts.count)
        for at in indexed..<puts.count { indexedPuts[puts[at].id] = at }
        indexed = puts.count
    }

    init(vault: Vault) { self.vault = vault }

    /// The entry as this change sees it: its own put, else the file's.
    public func entry(id: String) -> Entry? {
        if deletes.contains(id) { return nil }
        return putIndex[id].map { puts[$0] } ?? vault.entry(id: id)
    }

    /// Every entry as this change sees it.
    public var entries: [Entry] {
        guard !puts.isEmpty || !deletes.isEmpty else { return vault.entries }
        let gone = Set(deletes), index = putIndex
        return vault.entries.compactMap { gone.contains($0.id) ? nil : (index[$0.id].map { puts[$0] } ?? $0) }
            + puts.filter { vault.version(of: $0.id) == nil }
    }

    /// The entries as this change sees them that `predicate` takes, among
    /// those whose user name has `key` or has none (a name outside ASCII),
    /// in the same order as `entries`: found through the vault's index of
    /// user names (`UserNameIndex`), so a password change asks a few
    /// entries, not all. A `predicate` that takes an entry whose name has
    /// another key is not asked of it.
    public func entries(withUserNameKey key: UInt32, where predicate: (Entry) -> Bool) -> [Entry] {
        let keys = key == UserNameKey.unknown ? [key] : [UserNameKey.unknown, key]
        let gone = Set(deletes)
        var seen = Set<String>()
        var held: [Entry] = []
        let index = putIndex
        for id in keys.flatMap(vault.ids(withUserNameKey:)) where !gone.contains(id) && seen.insert(id).inserted {
            if let current = index[id].map({ puts[$0] }) ?? vault.entry(id: id), predicate(current) { held.append(current) }
        }
        var added: [Entry] = []
        for put in puts where !gone.contains(put.id) && keys.contains(put.userNameKey) && seen.insert(put.id).inserted && predicate(put) {
            if vault.entry(id: put.id) == nil { added.append(put) } else { held.append(put) }
        }
        // In the vault's order: where each stood there (a binary search by its title there).
        let placed = held.map { entry in (at: vault.entry(id: entry.id).flatMap(vault.position(of:)) ?? Int.max, entry: entry) }
        return placed.sorted { $0.at < $1.at }.map(\.entry) + added
    }

    private func put(_ entry: Entry) {
        if let at = putIndex[entry.id] {
            puts[at] = entry
        } else {
            indexedPuts[entry.id] = puts.count
            puts.append(entry)
            indexed = puts.count
        }
    }

    /// Writes `entry` edited from row version `base` (nil: new); a row that
    /// moved on meanwhile is a conflict and the whole change is written not at all.
    public func save(_ entry: Entry, basedOn base: Int64?) throws {
        let now = vault.version(of: entry.id)
        guard base == now || putIndex[entry.id] != nil else {
            throw VaultError.conflict(title: vault.entry(id: entry.id)?.title ?? entry.title, deleted: now == nil)
        }
        put(entry)
    }

    /// Changes entries as this change sees them; missing ids are skipped.
    @discardableResult
    public func update(_ ids: [String], _ change: (inout Entry) throws -> Void) throws -> [Entry] {
        var changed: [Entry] = []
        for id in ids {
            guard var entry = entry(id: id) else { continue }
            try change(&entry)
            put(entry)
            changed.append(entry)
        }
        return changed
    }

    /// New entries; an id the vault holds already is a conflict.
    public func insert(_ fresh: [Entry]) throws {
        // Many into a change with none: checked against the vault only, and
        // indexed when first looked up (the same id twice among them is
        // refused by the write, which sorts them: `Vault.rowOrder`).
        if puts.isEmpty && fresh.count > 64 {
            if let taken = fresh.first(where: { vault.version(of: $0.id) != nil }) {
                throw VaultError.conflict(title: taken.title, deleted: false)
            }
            puts = fresh
            indexed = 0
            return
        }
        // Room made once for many (an import's 100,000 grew the index a dozen
        // times, rehashing each time), at least doubled, so that one at a
        // time (a sync's new entries) stays amortised rather than reallocating each.
        let needed = puts.count + fresh.count
        if needed > puts.capacity { puts.reserveCapacity(max(needed, puts.capacity * 2)) }
        catchUpIndex()
        if needed > indexedPuts.capacity { indexedPuts.reserveCapacity(max(needed, indexedPuts.capacity * 2)) }
        // Checked and added in one walk (each entry read once: at 100,000, each
        // walk was a cache miss an entry); a taken id takes back what was added.
        let before = puts.count
        for entry in fresh {
            let id = entry.id
            guard vault.version(of: id) == nil, indexedPuts[id] == nil else {
                for added in puts[before...] { indexedPuts[added.id] = nil }
                puts.removeSubrange(before...)
                indexed = puts.count
                throw VaultError.conflict(title: entry.title, deleted: false)
            }
            indexedPuts[id] = puts.count
            puts.append(entry)
            indexed = puts.count
        }
    }

    /// Deletes an entry; with `base`, only if its row is still that version.
    public func remove(id: String, basedOn base: Int64? = nil) throws {
        guard let now = vault.version(of: id) else { throw VaultError.entryNotFound(id) }
        if let base, base != now { throw VaultError.conflict(title: vault.entry(id: id)?.title ?? id, deleted: false) }
        if let at = putIndex.removeValue(forKey: id) {
            puts.remove(at: at)
            indexedPuts = Dictionary(uniqueKeysWithValues: puts.enumerated().map { ($1.id, $0) })
            indexed = puts.count
        }
        deletes.append(id)
    }
}

extension Vault {
    /// One change as one transaction (`VaultTransaction`). `keepInMemory`
    /// false: for a command that ends after writing (an import of 100,000
    /// need not be loaded into this object).
    @discardableResult
    public func transaction<T>(keepInMemory: Bool = true, _ body: (VaultTransaction) throws -> T) throws -> T {
        touch()
        var result: T?
        try write(keepInMemory: keepInMemory) { [self] in
            let change = VaultTransaction(vault: self)
            result = try body(change)
            return (change.puts, change.deletes)
        }
        return result!
    }
}

extension VaultTransaction {
    /// Seals a file's bytes (unless the vault holds the same already) and
    /// adds it to the entry, in this change: the chunks and the entry land
    /// together or not at all.
    @discardableResult
    public func attach(_ source: AttachmentSource, to entryID: String, name: String, mediaType: String? = nil,
                       now: Date = Date()) throws -> Attachment {
        guard var entry = entry(id: entryID) else { throw VaultError.entryNotFound(entryID) }
        guard !entry.attachments.contains(where: { $0.name == name }) else { throw AttachmentError.duplicate(name: name, entry: entry.title) }
        var held: [String: Int64] = [:]
        for other in entries { for attachment in other.attachments { held[attachment.blob] = attachment.size } }
        let attachment = try vault.storeBlob(source, name: name, mediaType: mediaType, now: now, alreadyHeld: held.values.reduce(0, +))
        entry.attachments.append(attachment)
        entry.modified = now
        try save(entry, basedOn: vault.version(of: entry.id))
        return attachment
    }

    /// Takes the file off the entry; its bytes go with the change when no other entry holds them.
    public func detach(_ name: String, from entryID: String, now: Date = Date()) throws {
        guard var entry = entry(id: entryID) else { throw VaultError.entryNotFound(entryID) }
        guard let index = entry.attachments.firstIndex(where: { $0.name == name }) else { throw AttachmentError.notFound(name: name, entry: entry.title) }
        entry.attachments.remove(at: index)
        entry.modified = now
        try save(entry, basedOn: vault.version(of: entry.id))
    }
}

extension VaultTransaction {
    /// The entries with the files an import brought (`ImportResult.files`)
    /// sealed in this change, each attachment's placeholder replaced by the
    /// vault's name for its bytes; entries without files are returned as they are.
    public func storeImportedFiles(_ incoming: [Entry], from files: [String: [UInt8]]) throws -> [Entry] {
        // Most imports carry no files: their entries are handed back, not copied one by one.
        let placeholder = { (entry: Entry) in entry.attachments.contains(where: { $0.blob.hasPrefix(ImportFiles.prefix) }) }
        guard incoming.contains(where: placeholder) else { return incoming }
        var held: [String: Int64] = [:]
        if !files.isEmpty { for other in entries { for file in other.attachments { held[file.blob] = file.size } } }
        return try incoming.map { entry in
            guard placeholder(entry) else { return entry }
            var stored = entry
            // A placeholder whose bytes never came is no file at all: never a reference to nothing.
            stored.attachments.removeAll { $0.blob.hasPrefix(ImportFiles.prefix) && files[$0.blob] == nil }
            for index in stored.attachments.indices {
                let attachment = stored.attachments[index]
                guard let bytes = files[attachment.blob] else { continue }
                let sealed = try vault.storeBlob(BytesAttachmentSource(bytes), name: attachment.name, mediaType: attachment.mediaType,
                                                 now: attachment.created, alreadyHeld: held.values.reduce(0, +))
                held[sealed.blob] = sealed.size
                stored.attachments[index].blob = sealed.blob
                stored.attachments[index].size = sealed.size
                stored.attachments[index].chunks = sealed.chunks
            }
            return stored
        }
    }
}
