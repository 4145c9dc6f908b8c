/// The accounts on one password, by entry id. Nearly every password has
/// one account, so one id is held as it is and only a second makes a list:
/// 89,000 one-element arrays were 5 MB of a 100k vault's analysis.
enum ReuseMembers: RandomAccessCollection, Sendable {
    case one(String)
    case many([String])

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch self {
        case .one: 1
        case .many(let ids): ids.count
        }
    }

    subscript(position: Int) -> String {
        switch self {
        case .one(let id):
            precondition(position == 0, "a reuse group's member out of range")
            return id
        case .many(let ids): return ids[position]
        }
    }

    mutating func append(_ id: String) {
        switch self {
        case .one(let first): self = .many([first, id])
        case .many(var ids):
            self = .one("")  // lets go of the list, so the append below changes it in place
            ids.append(id)
            self = .many(ids)
        }
    }

    /// The members without `id`; nil when none is left.
    func removing(_ id: String) -> ReuseMembers? {
        let rest = filter { $0 != id }
        switch rest.count {
        case 0: return nil
        case 1: return .one(rest[0])
        default: return .many(rest)
        }
    }
}
