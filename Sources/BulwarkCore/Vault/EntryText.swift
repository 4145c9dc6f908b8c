import Foundation

/// An entry's longer texts (its first URL, user name, password and notes)
/// as UTF-8 in one allocation.
///
/// Each was a String of its own, and a String longer than 15 bytes is an
/// allocation with a 32-byte header and malloc's own rounding: at 100,000
/// entries that was some 14 MB of the app's memory, about a tenth of it.
/// Read back as a String when asked (the analysis asks once an account, a
/// screen once a visible row). Immutable: a change makes a new one, as the
/// entry's box is copied on write anyway.
/// (Not Sendable itself, as no ManagedBuffer is: it crosses threads only
/// inside an entry's box, which is, and is never written after `make`.)
final class EntryText: ManagedBuffer<EntryText.Lengths, UInt8> {
    /// The texts in the order they are laid out.
    enum Slot: Int, CaseIterable { case firstURL, username, password, notes }

    /// Each text's length in bytes, or -1 for none (a login without a URL,
    /// an account without a password).
    struct Lengths {
        var counts: (Int32, Int32, Int32, Int32)
        /// The user name's `UserNameKey`, made with the texts.
        var userNameKey: UInt32 = UserNameKey.unknown

        subscript(slot: Slot) -> Int32 {
            switch slot {
            case .firstURL: counts.0
            case .username: counts.1
            case .password: counts.2
            case .notes: counts.3
            }
        }

        /// Where a slot's bytes start: after the texts before it.
        func start(of slot: Slot) -> Int {
            let url = Int(max(0, counts.0)), user = Int(max(0, counts.1)), password = Int(max(0, counts.2))
            switch slot {
            case .firstURL: return 0
            case .username: return url
            case .password: return url + user
            case .notes: return url + user + password
            }
        }

        var total: Int { start(of: .notes) + Int(max(0, counts.3)) }
    }

    static func make(firstURL: String?, username: String, password: String?, notes: String) -> EntryText {
        // Each text as contiguous UTF-8 first, so that its count is the
        // number of bytes copied (a bridged string's may not be until then).
        func native(_ text: String?) -> String? {
            guard var text else { return nil }
            text.makeContiguousUTF8()
            return text
        }
        let texts = (native(firstURL), native(username), native(password), native(notes))
        func count(_ text: String?) -> Int32 {
            guard let text else { return -1 }
            // No vault can hold such a text (SQLite's largest value is 1 GB):
            // stopped here, not cut short or written past the buffer.
            precondition(text.utf8.count <= Int(Int32.max), "an entry's text over 2 GiB")
            return Int32(text.utf8.count)
        }
        var lengths = Lengths(counts: (count(texts.0), count(texts.1), count(texts.2), count(texts.3)))
        if var name = texts.1 { lengths.userNameKey = name.withUTF8 { UserNameKey.of($0) } }
        let made = unsafeDowncast(create(minimumCapacity: lengths.total) { _ in lengths }, to: EntryText.self)
        made.withUnsafeMutablePointerToElements { base in
            var at = base
            func copy(_ text: String?) {
                guard var text else { return }
                text.withUTF8 { bytes in
                    guard let source = bytes.baseAddress else { return }
                    at.initialize(from: source, count: bytes.count)
                    at += bytes.count
                }
            }
            copy(texts.0)
            copy(texts.1)
            copy(texts.2)
            copy(texts.3)
        }
        return made
    }

    private var lengths: Lengths { withUnsafeMutablePointerToHeader { $0.pointee } }

    /// A slot's bytes, or nil for none.
    private func withBytes<R>(_ slot: Slot, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        let lengths = lengths
        let count = lengths[slot]
        guard count >= 0 else { return nil }
        return withUnsafeMutablePointerToElements { base in
            body(UnsafeBufferPointer(start: base + lengths.start(of: slot), count: Int(count)))
        }
    }

    func text(_ slot: Slot) -> String? {
        withBytes(slot) { String(decoding: $0, as: UTF8.self) }
    }

    var userNameKey: UInt32 { withUnsafeMutablePointerToHeader { $0.pointee.userNameKey } }

    var firstURL: String? { text(.firstURL) }
    var username: String { text(.username) ?? "" }
    var password: String? { text(.password) }
    var notes: String { text(.notes) ?? "" }

    /// The same texts with one replaced.
    func replacing(_ slot: Slot, with value: String?) -> EntryText {
        func pick(_ s: Slot) -> String? { s == slot ? value : text(s) }
        return Self.make(firstURL: pick(.firstURL), username: pick(.username) ?? "", password: pick(.password), notes: pick(.notes) ?? "")
    }

    /// Equal texts, compared as Strings compare (canonically equivalent
    /// text is equal); the bytes are tried first, which nearly always decide.
    func equals(_ other: EntryText) -> Bool {
        if self === other { return true }
        for slot in Slot.allCases {
            let same = withBytes(slot) { mine in
                other.withBytes(slot) { theirs in
                    mine.count == theirs.count && (mine.count == 0 || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0)
                } ?? false
            } ?? (other.lengths[slot] < 0)
            if !same && text(slot) != other.text(slot) { return false }
        }
        return true
    }
}
