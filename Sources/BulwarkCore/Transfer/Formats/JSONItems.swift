import Foundation

/// A JSON export's items read as the document streams past (`JSONStream`),
/// made into entries in batches on every core, in order; what is not an
/// item (folders, the export's own header) is in the root returned after.
enum JSONItems {
    /// One item made: the entry (nil: not an item, such as a folder row
    /// or a tombstone), and what the summary names about it.
    struct Made: Sendable {
        var entry: Entry?
        var inTrash = false
        var notHeld: [String] = []
        var undated = false
    }

    static func read(_ data: Data, streaming paths: [JSONStream.Path], into read: inout ImportRead,
                     make: @escaping @Sendable (JSONStream.Path, JSONObject) -> Made) throws(ImportError) -> JSONObject {
        var batch: [(JSONStream.Path, JSONObject)] = []
        var made: [Made] = []
        func flush() throws {
            made += try Concurrently.map(batch, chunk: 256) { make($0.0, $0.1) }
            batch.removeAll(keepingCapacity: true)
        }
        let root: Any
        do {
            root = try JSONStream.parse(data, streaming: paths) { path, value in
                guard let item = value as? JSONObject else { return }
                batch.append((path, item))
                if batch.count == 2048 { try flush() }
            }
            try flush()
        } catch let failure as JSONStream.Failure {
            throw ImportError(line: failure.line(in: data), message: "not valid JSON (\(failure.message))")
        } catch {
            throw ImportError(line: nil, message: "\(error)")
        }
        add(made, to: &read)
        guard let object = root as? JSONObject else { throw ImportError(line: 1, message: "the document is not a JSON object") }
        return object
    }

    static func add(_ made: [Made], to read: inout ImportRead) {
        for item in made {
            if item.inTrash { read.inTrash += 1; continue }
            read.notHeld += item.notHeld
            guard let entry = item.entry else { continue }
            if item.undated { read.undated.insert(entry.id) }
            read.entries.append(entry)
        }
    }

    /// The document without the arrays at `paths` (read for their syntax only).
    static func shell(_ data: Data, skipping paths: [JSONStream.Path]) throws(ImportError) -> JSONObject {
        let root: Any
        do { root = try JSONStream.parse(data, skipping: paths) } catch let failure as JSONStream.Failure {
            throw ImportError(line: failure.line(in: data), message: "not valid JSON (\(failure.message))")
        } catch {
            throw ImportError(line: nil, message: "\(error)")
        }
        guard let object = root as? JSONObject else { throw ImportError(line: 1, message: "the document is not a JSON object") }
        return object
    }

    /// Each folder's path of titles ("Work/Servers") by id, from each
    /// folder's title and parent id (Enpass's and 1PIF's folders); a loop is cut.
    static func folderPaths(_ folders: [String: (title: String, parent: String)]) -> [String: String] {
        var paths: [String: String] = [:]
        for id in folders.keys {
            var parts: [String] = [], at: String? = id, seen: Set<String> = []
            while let current = at, let folder = folders[current], seen.insert(current).inserted {
                if !folder.title.isEmpty { parts.insert(folder.title, at: 0) }
                at = folder.parent.isEmpty ? nil : folder.parent
            }
            paths[id] = parts.joined(separator: "/")
        }
        return paths
    }

    /// A value as text: a string, a number as written, a boolean as "true"/"false"; else "".
    static func text(_ value: Any?) -> String {
        if let (text, _) = Importer.jsonText(value) { return text }
        if let flag = value as? Bool { return flag ? "true" : "false" }
        return ""
    }
}

extension Entry {
    /// A login with a note and nothing to sign in with: no address, user
    /// name, password, code or field.
    var isOnlyANote: Bool {
        !notes.isEmpty && urls.isEmpty && username.isEmpty && (password ?? "").isEmpty && totpURI == nil && fields.isEmpty && passkeys.isEmpty
    }
}
