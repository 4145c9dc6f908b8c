import Foundation

/// A batch of KeePass items kept as one run of bytes instead of strings
/// and arrays: what `import` reads of a KeePass XML export while the
/// master password's KDF runs, beside scrypt's 128 MiB. Packed, an item
/// is its text and a few bytes more (the bench's 100,000 entries about
/// 11 MB), and a batch one allocation rather than several an item. They
/// become items again, on every core, once the vault is open.
struct KDBXPackedItems: Sendable {
    private var bytes: [UInt8] = []
    private(set) var count = 0

    init(_ items: [KDBXDocument.Item]) {
        for item in items { write(item) }
        // Kept at its size, not with the growth's spare room (up to as much again).
        let written = bytes
        bytes = [UInt8](unsafeUninitializedCapacity: written.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: written)
        }
        count = items.count
    }

    /// KeePass's standard keys, written as a number (in the string's flags) rather than their text.
    private static let standardKeys = ["Title", "UserName", "Password", "URL", "Notes"]

    /// The items, as they were packed.
    func items() -> [KDBXDocument.Item] {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(buffer: buffer)
            return (0..<count).map { _ in reader.item() }
        }
    }

    // MARK: Writing

    private enum Flag {
        static let created: UInt8 = 1, modified: UInt8 = 2, expires: UInt8 = 4, expiresSet: UInt8 = 8, inRecycleBin: UInt8 = 16
    }

    private mutating func write(_ item: KDBXDocument.Item) {
        var flags: UInt8 = 0
        if item.created != nil { flags |= Flag.created }
        if item.modified != nil { flags |= Flag.modified }
        if item.expires != nil { flags |= Flag.expires }
        if item.expiresSet { flags |= Flag.expiresSet }
        if item.inRecycleBin { flags |= Flag.inRecycleBin }
        bytes.append(flags)
        for date in [item.created, item.modified, item.expires] {
            if let date { write(date.timeIntervalSinceReferenceDate.bitPattern) }
        }
        write(item.strings.count)
        for string in item.strings {
            // Bit 0: protected; above it, the standard key's number (from 1), or 0 and the key's text.
            let standard = Self.standardKeys.firstIndex(of: string.key).map { $0 + 1 } ?? 0
            bytes.append(UInt8(standard << 1) | (string.protected ? 1 : 0))
            if standard == 0 { write(string.key) }
            write(string.value)
        }
        write(item.tags)
        write(item.group)
        write(item.attachments.count)
        for attachment in item.attachments {
            write(attachment.name)
            write(attachment.ref)
        }
        write(item.history.count)
        for old in item.history { write(old) }
    }

    private mutating func write(_ strings: [String]) {
        write(strings.count)
        for string in strings { write(string) }
    }

    private mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            write(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// A count or length: one byte below 255, else 255 and eight more.
    private mutating func write(_ number: Int) {
        if number >= 0 && number < 255 {
            bytes.append(UInt8(number))
        } else {
            bytes.append(255)
            write(UInt64(bitPattern: Int64(number)))
        }
    }

    private mutating func write(_ word: UInt64) {
        withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
    }

    // MARK: Reading

    private struct Reader {
        let buffer: UnsafeBufferPointer<UInt8>
        var at = 0

        mutating func item() -> KDBXDocument.Item {
            var item = KDBXDocument.Item()
            let flags = buffer[at]
            at += 1
            if flags & Flag.created != 0 { item.created = date() }
            if flags & Flag.modified != 0 { item.modified = date() }
            if flags & Flag.expires != 0 { item.expires = date() }
            item.expiresSet = flags & Flag.expiresSet != 0
            item.inRecycleBin = flags & Flag.inRecycleBin != 0
            let strings = number()
            item.strings.reserveCapacity(strings)
            for _ in 0..<strings {
                let flags = Int(buffer[at])
                at += 1
                let key = flags >> 1 == 0 ? text() : KDBXPackedItems.standardKeys[flags >> 1 - 1]
                item.strings.append((key, text(), flags & 1 != 0))
            }
            item.tags = texts()
            item.group = texts()
            let attachments = number()
            for _ in 0..<attachments {
                let name = text()
                item.attachments.append((name, number()))
            }
            let history = number()
            for _ in 0..<history { item.history.append(self.item()) }
            return item
        }

        mutating func texts() -> [String] {
            let count = number()
            return count == 0 ? [] : (0..<count).map { _ in text() }
        }

        mutating func text() -> String {
            let length = number()
            defer { at += length }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[at..<at + length]), as: UTF8.self)
        }

        mutating func number() -> Int {
            let first = buffer[at]
            at += 1
            return first < 255 ? Int(first) : Int(Int64(bitPattern: word()))
        }

        mutating func date() -> Date { Date(timeIntervalSinceReferenceDate: Double(bitPattern: word())) }

        mutating func word() -> UInt64 {
            defer { at += 8 }
            return UInt64(littleEndian: UnsafeRawPointer(buffer.baseAddress! + at).loadUnaligned(as: UInt64.self))
        }
    }
}
