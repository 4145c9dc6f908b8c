/// The vault's entry ids by their user name's key (`UserNameKey`): a
/// password change finds the account's other entries among those with
/// its name's key, rather than asking every entry (at 100,000 entries,
/// reading each entry's key where it lies in memory was half the change).
///
/// Made when first asked for and kept by the vault's own changes
/// (`Vault.place`); anything else that changes the vault's rows drops it.
/// Most names are one entry's: those take no array of their own.
struct UserNameIndex {
    private var one: [UInt32: String] = [:]
    private var more: [UInt32: [String]] = [:]

    init<Rows: Sequence>(_ rows: Rows) where Rows.Element == VaultRow {
        for row in rows { add(row.entry.id, key: row.entry.userNameKey) }
    }

    mutating func add(_ id: String, key: UInt32) {
        if more[key] != nil {
            more[key]!.append(id)
        } else if let first = one.removeValue(forKey: key) {
            more[key] = [first, id]
        } else {
            one[key] = id
        }
    }

    mutating func remove(_ id: String, key: UInt32) {
        if one[key] == id {
            one[key] = nil
        } else if var ids = more[key], let at = ids.firstIndex(of: id) {
            ids.remove(at: at)
            more[key] = ids.isEmpty ? nil : ids
        }
    }

    func ids(for key: UInt32) -> [String] {
        one[key].map { [$0] } ?? more[key] ?? []
    }
}
