/// What every format's reader returns, the one contract between a reader
/// and `Importer`: the items as entries, and what the summary names about
/// the file (items in its trash, values kept aside, rows read leniently or
/// skipped, what bulwark cannot hold) and what merging needs (which items
/// the file gave no dates).
struct ImportRead {
    var entries: [Entry] = []
    var inTrash = 0
    /// Values that failed the checks `add` makes, kept as hidden fields, named.
    var keptAside: [String] = []
    /// Rows read leniently or skipped, each with where it was.
    var rowNotes: [String] = []
    /// What the source had that bulwark cannot hold.
    var notHeld: [String] = []
    /// Items the file gave no dates: never the newer side of a merge.
    var undated: Set<String> = []
    /// The files the entries hold, by the placeholder their attachments
    /// carry as `blob` until the vault seals them (`ImportFiles`).
    var files: [String: [UInt8]] = [:]
}
