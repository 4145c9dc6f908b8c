/// Little-endian reads over a byte array, each length checked: a short or
/// lying file fails with "truncated", never reads past its end.
struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func take(_ count: Int) throws(ImportError) -> [UInt8] {
        guard count >= 0, count <= bytes.count - offset else { throw ImportError(line: nil, message: "the file is truncated or damaged (a field runs past its end)") }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func u8() throws(ImportError) -> UInt8 { try take(1)[0] }
    mutating func u16() throws(ImportError) -> UInt16 { UInt16(Self.uint(try take(2))) }
    mutating func u32() throws(ImportError) -> UInt32 { UInt32(Self.uint(try take(4))) }

    static func uint(_ bytes: [UInt8]) -> UInt64 {
        bytes.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    static func le(_ value: UInt64, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
}

extension KDBXContainer {
    enum Field: UInt8 {
        case end = 0, comment = 1, cipherID = 2, compression = 3, masterSeed = 4, transformSeed = 5, transformRounds = 6, encryptionIV = 7,
             protectedStreamKey = 8, streamStartBytes = 9, innerStreamID = 10, kdfParameters = 11, publicCustomData = 12
    }

    /// The outer header: type-length-value fields (2-byte lengths in 3.x, 4-byte in 4.x) up to the end field.
    struct Header {
        var fields: [Field: [UInt8]] = [:]
        var kdfParameters: VariantDictionary?

        static func read(_ reader: inout ByteReader, major: UInt16) throws(ImportError) -> Header {
            var header = Header()
            for _ in 0..<64 {
                let type = try reader.u8()
                let length = major >= 4 ? Int(try reader.u32()) : Int(try reader.u16())
                let value = try reader.take(length)
                guard let field = Field(rawValue: type) else { throw failure("the header has an unknown field \(type)") }
                if field == .end { return header }
                header.fields[field] = value
                if field == .kdfParameters { header.kdfParameters = try VariantDictionary.read(value) }
            }
            throw failure("the header never ends")
        }

        func require(_ field: Field, _ name: String) throws(ImportError) -> [UInt8] {
            guard let value = fields[field] else { throw failure("the header has no \(name)") }
            return value
        }

        func u32(_ field: Field) throws(ImportError) -> UInt32 {
            guard let value = fields[field], value.count == 4 else { throw failure("the header's field \(field) is missing or malformed") }
            return UInt32(ByteReader.uint(value))
        }
    }

    /// KDBX 4's typed dictionary (KDF parameters): version 1.x, then
    /// (type, key, value) items up to a zero type.
    struct VariantDictionary {
        var values: [String: [UInt8]] = [:]

        static func read(_ bytes: [UInt8]) throws(ImportError) -> VariantDictionary {
            var reader = ByteReader(bytes)
            guard try reader.u16() >> 8 == 1 else { throw failure("the KDF parameters are in an unknown format") }
            var dictionary = VariantDictionary()
            for _ in 0..<256 {
                let type = try reader.u8()
                if type == 0 { return dictionary }
                let key = String(decoding: try reader.take(Int(try reader.u32())), as: UTF8.self)
                dictionary.values[key] = try reader.take(Int(try reader.u32()))
            }
            throw failure("the KDF parameters never end")
        }

        func bytes(_ key: String) -> [UInt8]? { values[key] }
        func uint(_ key: String) -> UInt64? { values[key].flatMap { [4, 8].contains($0.count) ? ByteReader.uint($0) : nil } }
    }
}
