import Foundation

/// A file on disk as an attachment's bytes.
public final class FileAttachmentSource: AttachmentSource {
    private let handle: FileHandle
    public let path: String

    /// Refused when it cannot be read: missing, a folder, no permission.
    public init(path: String) throws(AttachmentFileError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing(path) }
        guard !isDirectory.boolValue else { throw .directory(path) }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable(path) }
        self.handle = handle
        self.path = path
    }

    public func read(upTo count: Int) throws -> [UInt8] { Array(try handle.read(upToCount: count) ?? Data()) }
    public func rewind() throws { try handle.seek(toOffset: 0) }
}

public enum AttachmentFileError: Error, Equatable, CustomStringConvertible {
    case missing(String), directory(String), unreadable(String)

    public var description: String {
        switch self {
        case .missing(let path): "\(TerminalText.visible(path)): no such file"
        case .directory(let path): "\(TerminalText.visible(path)) is a folder: attach a file"
        case .unreadable(let path): "\(TerminalText.visible(path)) cannot be read (permissions?)"
        }
    }
}

/// Bytes already in memory (an import's file) as an attachment's bytes.
public final class BytesAttachmentSource: AttachmentSource {
    private let bytes: [UInt8]
    private var at = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func read(upTo count: Int) throws -> [UInt8] {
        let end = min(bytes.count, at + count)
        defer { at = end }
        return Array(bytes[at..<end])
    }

    public func rewind() throws { at = 0 }
}
