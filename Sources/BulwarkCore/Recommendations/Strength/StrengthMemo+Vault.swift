/// Where a vault keeps its strength memo: a sealed note, like every other
/// thing bulwark remembers beside the entries.
extension Vault {
    private static let strengthMemoNote = "strength-memo"

    /// The memo kept by the last analysis; empty when there is none or it
    /// cannot be read (it is only a cache: the analysis measures again).
    public func strengthMemo() -> StrengthMemo {
        noteBytes(Self.strengthMemoNote).flatMap(StrengthMemo.init(decoding:)) ?? StrengthMemo()
    }

    /// Keeps the analyzer's estimates when they changed. A failure to write
    /// loses nothing but time at the next open, so it is not an error.
    public func keepStrengthMemo(of analyzer: SecurityAnalyzer) {
        guard let memo = analyzer.takeStrengthMemo() else { return }
        try? setNoteBytes(Self.strengthMemoNote, memo.encoded())
    }

    /// Measures the passwords the memo lacks and keeps the result, so the
    /// next analysis starts warm: run after an import, where the person
    /// expects work, rather than at the next unlock.
    public func prepareStrengthMemo() throws {
        let analyzer = SecurityAnalyzer(breaches: BreachCorpus(files: []), memo: strengthMemo())
        try analyzer.load(entries)
        keepStrengthMemo(of: analyzer)
    }
}
