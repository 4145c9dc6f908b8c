import BulwarkCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `bulwark attach ENTRY FILE [--name N] [--type MEDIA]` and `bulwark
/// attachment list|get|rm`: files kept with an entry, sealed in the vault.
/// What comes out is written to a new file beside the one asked for and
/// put in place only when every chunk has opened (never half a file, never
/// through a symlink, 0600), or to a pipe; never raw to a terminal.
enum AttachmentCommand {
    static let attachUsage = "bulwark attach ENTRY FILE [--name NAME] [--type MEDIA-TYPE]"
    static let usage = "bulwark attachment list ENTRY [--json] | get ENTRY NAME [--out PATH [--force]] | rm ENTRY NAME"

    static func attach(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 2 else { Output.error("usage: \(attachUsage)"); return 2 }
        let path = parsed.arguments[1]
        let name = parsed.value("--name") ?? (path as NSString).lastPathComponent
        // Bad input costs no KDF: the file and the name are checked first.
        if let problem = Attachment.problem(withName: name) { Output.error("\(problem). Nothing was attached."); return 1 }
        let source: FileAttachmentSource
        do { source = try FileAttachmentSource(path: path) } catch {
            Output.error("\(error). Nothing was attached.")
            return 1
        }
        return VaultCommands.withVault(parsed) { vault, _ in
            let entry = try vault.find(parsed.arguments[0])
            let attachment: Attachment
            do {
                attachment = try vault.transaction { change in
                    try change.attach(source, to: entry.id, name: name, mediaType: parsed.value("--type"))
                }
            } catch let error as AttachmentError {
                Output.error("\(error). Nothing was attached.")
                return 1
            }
            Output.stderr("bulwark: attached \(TerminalText.visible(attachment.name)) (\(ByteSize.text(attachment.size))) to \(TerminalText.visible(entry.title)).\n")
            return 0
        }
    }

    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        switch (parsed.arguments.first, parsed.arguments.count) {
        case ("list", 2): return list(parsed)
        case ("get", 3): return get(parsed)
        case ("rm", 3): return remove(parsed)
        default:
            Output.error("usage: \(usage)")
            return 2
        }
    }

    static func list(_ parsed: ParsedCommandLine) -> Int32 {
        VaultCommands.withVault(parsed) { vault, _ in
            let entry = try vault.find(parsed.arguments[1])
            if parsed.flag("--json") {
                Output.json(entry.attachments.map { ["name": $0.name, "size": $0.size, "media_type": $0.mediaType,
                                                     "created": ISODate.string($0.created), "modified": ISODate.string($0.modified)] as [String: Any] })
                return 0
            }
            if entry.attachments.isEmpty { Output.stderr("bulwark: \(TerminalText.visible(entry.title)) holds no files.\n") }
            for attachment in entry.attachments {
                print("\(TerminalText.visible(attachment.name))\t\(attachment.size)\t\(attachment.mediaType)\t\(ISODate.string(attachment.modified))")
            }
            return 0
        }
    }

    static func get(_ parsed: ParsedCommandLine) -> Int32 {
        let out = parsed.value("--out")
        if out == nil, isatty(STDOUT_FILENO) == 1 {
            Output.error("a file's bytes are not written to a terminal: give --out PATH, or send them to a pipe or a file (> PATH).")
            return 2
        }
        if let out, !parsed.flag("--force"), FileManager.default.fileExists(atPath: out) || isSymlink(out) {
            Output.error("\(out) exists; give --force to replace it. Nothing was written.")
            return 1
        }
        return VaultCommands.withVault(parsed) { vault, _ in
            let entry = try vault.find(parsed.arguments[1])
            let name = parsed.arguments[2]
            guard let attachment = entry.attachments.first(where: { $0.name == name }) else {
                Output.error("\(AttachmentError.notFound(name: name, entry: entry.title)).")
                return 1
            }
            do {
                if let out {
                    try SafeFileWriter.write(to: out, replacing: parsed.flag("--force")) { write in
                        try vault.readAttachment(attachment, of: entry, into: write)
                    }
                    Output.stderr("bulwark: wrote \(TerminalText.visible(attachment.name)) (\(ByteSize.text(attachment.size))) to \(out).\n")
                } else {
                    // A write that fails is an error here (a reader gone away ends the copy as it ends `cat`: SIGPIPE).
                    try vault.readAttachment(attachment, of: entry) { bytes in try FileHandle.standardOutput.write(contentsOf: Data(bytes)) }
                }
            } catch let error as AttachmentError {
                Output.error("\(error)." + (out == nil ? "" : " Nothing was written."))
                return 1
            } catch let error as SafeFileWriter.Failure {
                Output.error("\(error). Nothing was written.")
                return 1
            }
            return 0
        }
    }

    static func remove(_ parsed: ParsedCommandLine) -> Int32 {
        VaultCommands.withVault(parsed) { vault, _ in
            let entry = try vault.find(parsed.arguments[1])
            do {
                try vault.transaction { change in try change.detach(parsed.arguments[2], from: entry.id) }
            } catch let error as AttachmentError {
                Output.error("\(error). Nothing was changed.")
                return 1
            }
            Output.stderr("bulwark: removed \(TerminalText.visible(parsed.arguments[2])) from \(TerminalText.visible(entry.title)).\n")
            return 0
        }
    }

    static func isSymlink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }
}
