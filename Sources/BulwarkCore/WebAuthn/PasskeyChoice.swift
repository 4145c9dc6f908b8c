/// Which held passkey answers a sign-in. The same passkey can be held
/// twice: a real Bitwarden export writes one credential as two items (its
/// id once as a GUID, once as `b64.` and base64url of the same bytes), and
/// both come in. Copies with the same id and key are one passkey and answer
/// as one; different keys under one id (or different ids) are a real
/// choice, named by entry, made with `--credential` or `--entry`.
public enum PasskeyChoice {
    public struct Holder: Sendable {
        public let entryID: String
        public let entryTitle: String
        public let passkey: Passkey

        public init(entryID: String, entryTitle: String, passkey: Passkey) {
            self.entryID = entryID
            self.entryTitle = entryTitle
            self.passkey = passkey
        }
    }

    public enum Outcome: Sendable {
        case one(Holder)
        case none
        /// The distinct passkeys, one holder each, in the order held.
        case several([Holder])
    }

    /// `credential`: a passkey id as `passkey list` shows it; `entry`: an
    /// entry's title or id.
    public static func choose(_ holders: [Holder], credential: String? = nil, entry: String? = nil) -> Outcome {
        var matching = holders
        if let credential { matching = matching.filter { $0.passkey.id == credential } }
        if let entry { matching = matching.filter { $0.entryID == entry || $0.entryTitle == entry } }
        var distinct: [Holder] = []
        for holder in matching where !distinct.contains(where: { same($0.passkey, holder.passkey) }) { distinct.append(holder) }
        switch distinct.count {
        case 0: return .none
        case 1: return .one(distinct[0])
        default: return .several(distinct)
        }
    }

    /// One credential: the same id and the same key.
    static func same(_ a: Passkey, _ b: Passkey) -> Bool { a.credentialID == b.credentialID && a.privateKey == b.privateKey }

    /// How to choose among several: by id where the ids differ, by entry
    /// where one id has different keys.
    public static func howToChoose(_ several: [Holder]) -> String {
        let ids = Set(several.map(\.passkey.id))
        let named = several.map { "\($0.passkey.id) (\($0.passkey.userName)) in \($0.entryTitle)" }.joined(separator: ", ")
        if ids.count == several.count { return "choose one with --credential ID: " + named }
        if ids.count == 1 { return "they share one id with different keys; choose one with --entry ENTRY: " + several.map(\.entryTitle).joined(separator: ", ") }
        return "choose one with --credential ID and, where an id has different keys, --entry ENTRY: " + named
    }
}
