/// The thresholds of the analysis, settable in the config file.
public struct AnalysisSettings: Sendable, Equatable {
    /// A password whose zxcvbn estimate is below this many bits is weak.
    /// 35 bits is about 3.4e10 guesses: hours for one GPU against a fast
    /// hash, which a breach of a careless site is.
    public var weakBelowBits: Double = 35
    /// A password not changed for this many days is old.
    public var oldAfterDays: Int = 365

    public init(weakBelowBits: Double = 35, oldAfterDays: Int = 365) {
        self.weakBelowBits = weakBelowBits
        self.oldAfterDays = oldAfterDays
    }
}
