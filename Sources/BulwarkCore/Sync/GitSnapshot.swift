import Foundation

/// One commit's files in the sync repository, read and written through
/// git's object store, with no working tree: `ls-tree` lists the top, the
/// manifest's and the buckets' trees are read as objects (a bucket's only
/// when asked), `cat-file --batch` reads the files asked for in one run,
/// and `fast-import` writes a change as one commit. A clone then never
/// checks out 100,000 files, and a sync reads only the buckets that changed.
final class GitSnapshot {
    let git: Git
    /// A bare repository.
    let repository: URL
    /// The commit read (nil: none yet, an empty tree).
    let commit: String?
    /// Path → blob id, as the commit has them.
    private var blobs: [String: String] = [:]
    /// Directory path → tree id, as the commit has them.
    private(set) var trees: [String: String] = [:]
    /// Directory → the names directly in it (files and directories).
    private var children: [String: Set<String>] = [:]
    private var cache: [String: [UInt8]] = [:]
    /// What a write changed: new contents, contents read only as the
    /// commit is written (a file's chunks, so a large file is never held
    /// whole), or a removal.
    private enum Change {
        case bytes([UInt8])
        case later(() throws -> [UInt8])
        case removed
    }
    private var pending: [String: Change] = [:]
    /// Everything is replaced (a re-key seals every file again).
    private var replacesAll = false

    /// Directories whose names are listed (the others are trees git holds, read when asked).
    private var listed: Set<String> = [""]

    init(git: Git, repository: URL, commit: String?) throws {
        self.git = git
        self.repository = repository
        self.commit = commit
        guard let commit else { return }
        // The top here, then the manifest's files and the buckets (as trees): each bucket's files are read when asked.
        let run = try git.run(["ls-tree", "-z", "--full-tree", commit], in: repository)
        guard run.status == 0 else { throw SyncError.git("cannot list the repository: \(run.firstError)") }
        // "MODE TYPE ID\tPATH\0"
        for record in run.data.split(separator: 0) {
            guard let tab = record.firstIndex(of: 9) else { continue }
            let meta = record[record.startIndex..<tab].split(separator: 32)
            guard meta.count == 3 else { continue }
            let path = String(decoding: record[(tab + 1)...], as: UTF8.self)
            let id = String(decoding: meta[2], as: UTF8.self)
            if meta[1].elementsEqual("tree".utf8) { trees[path] = id } else if meta[1].elementsEqual("blob".utf8) { blobs[path] = id }
            add(path)
        }
        try list(["manifest", "entries"])
    }

    /// git's ids of each bucket's entry directory and manifest file in the
    /// commit read (what `SyncEngine.bucketTrees` asks git for), from the
    /// listing already made.
    var bucketObjects: [String: SyncRepository.GitObjects] {
        var objects: [String: SyncRepository.GitObjects] = [:]
        for (path, id) in trees where path.hasPrefix("entries/") && path.split(separator: "/").count == 2 {
            objects[String(path.dropFirst("entries/".count)), default: .init()].entries = id
        }
        for (path, id) in blobs where path.hasPrefix("manifest/") && path != "manifest/root" && path.split(separator: "/").count == 2 {
            objects[String(path.dropFirst("manifest/".count)), default: .init()].manifest = id
        }
        return objects
    }

    /// Lists the directories (git trees) not listed yet, in one `cat-file`.
    func list(_ directories: [String]) throws {
        let wanted = directories.filter { !listed.contains($0) && trees[$0] != nil }
        guard !wanted.isEmpty else { return }
        let run = try git.run(["cat-file", "--batch"], in: repository, input: Data(wanted.map { trees[$0]! + "\n" }.joined().utf8))
        guard run.status == 0 else { throw SyncError.git("cannot read the repository: \(run.firstError)") }
        try Self.eachObject(in: run.data, count: wanted.count, type: "tree") { index, object in
            let directory = wanted[index]
            let hashLength = trees[directory]!.count / 2
            // A tree: "MODE NAME\0" then the object's id, raw.
            var at = object.startIndex
            var names = Set<String>()
            defer { children[directory, default: []].formUnion(names) }
            while at < object.endIndex {
                guard let space = object[at...].firstIndex(of: 32), let nul = object[space...].firstIndex(of: 0),
                      nul + 1 + hashLength <= object.endIndex else { throw SyncError.git("git returned a malformed tree for \(directory)") }
                let name = String(decoding: object[(space + 1)..<nul], as: UTF8.self)
                let id = Array(object[(nul + 1)..<(nul + 1 + hashLength)]).hex
                let path = "\(directory)/\(name)"
                if object[at..<space].elementsEqual("40000".utf8) { trees[path] = id } else { blobs[path] = id }
                names.insert(name)
                at = nul + 1 + hashLength
            }
            listed.insert(directory)
        }
    }

    /// Walks `cat-file --batch` output: "ID TYPE SIZE\n" + bytes + "\n" per object, in the order asked.
    private static func eachObject(in data: Data, count: Int, type: String, _ body: (Int, Data) throws -> Void) throws {
        var at = data.startIndex
        for index in 0..<count {
            guard let end = data[at...].firstIndex(of: 10) else { throw SyncError.git("git cat-file stopped early") }
            let fields = data[at..<end].split(separator: 32)
            guard fields.count == 3, fields[1].elementsEqual(type.utf8), let size = Int(String(decoding: fields[2], as: UTF8.self)),
                  end + 1 + size <= data.endIndex else {
                throw SyncError.git("git cat-file could not read a \(type)")
            }
            try body(index, data[(end + 1)..<(end + 1 + size)])
            at = end + 1 + size + 1
        }
    }

    private func add(_ path: String) {
        let (directory, name) = Self.split(path)
        children[directory, default: []].insert(name)
        if !directory.isEmpty { add(directory) }
    }

    private static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    // MARK: Reading

    /// The names directly in `directory` ("" for the top), sorted; a
    /// directory left with no file in it is not listed (git keeps none).
    func names(in directory: String) throws -> [String] {
        try list([directory])
        // Nothing written yet: the names are the commit's.
        if pending.isEmpty && !replacesAll { return (children[directory] ?? []).sorted() }
        return (children[directory] ?? []).filter { name in
            let path = directory.isEmpty ? name : "\(directory)/\(name)"
            return exists(path)
        }.sorted()
    }

    private func exists(_ path: String) -> Bool {
        if let change = pending[path] {
            if case .removed = change { return false }
            return true
        }
        if blobs[path] != nil { return !replacesAll }
        // A tree git holds, not listed yet: git keeps no empty one.
        if trees[path] != nil, !listed.contains(path) { return !replacesAll }
        // A directory: any file in it.
        return (children[path] ?? []).contains { exists("\(path)/\($0)") }
    }

    /// A file's bytes, nil when there is none.
    func bytes(_ path: String) throws -> [UInt8]? {
        if let change = pending[path] {
            switch change {
            case .bytes(let bytes): return bytes
            case .later(let read): return try read()
            case .removed: return nil
            }
        }
        if replacesAll { return nil }
        if let cached = cache[path] { return cached }
        guard blobs[path] != nil else { return nil }
        try load([path])
        return cache[path]
    }

    /// Reads the files at `paths` (those not read yet) in one `cat-file`.
    func load(_ paths: [String]) throws {
        let wanted = paths.filter { cache[$0] == nil && blobs[$0] != nil }
        guard !wanted.isEmpty else { return }
        let input = Data(wanted.map { blobs[$0]! + "\n" }.joined().utf8)
        let run = try git.run(["cat-file", "--batch"], in: repository, input: input)
        guard run.status == 0 else { throw SyncError.git("cannot read the repository: \(run.firstError)") }
        try Self.eachObject(in: run.data, count: wanted.count, type: "blob") { index, object in cache[wanted[index]] = Array(object) }
    }

    /// Every file under each of `directories` (listed in one go), for `load`.
    func files(under directories: [String]) throws -> [String] {
        try list(directories)
        return try directories.flatMap { directory in try names(in: directory).map { "\(directory)/\($0)" } }
    }

    // MARK: Writing

    func write(_ path: String, _ bytes: [UInt8]) {
        pending[path] = .bytes(bytes)
        add(path)
    }

    /// A file whose bytes `read` gives when the commit is written.
    func write(_ path: String, later read: @escaping () throws -> [UInt8]) {
        pending[path] = .later(read)
        add(path)
    }

    func remove(_ path: String) {
        pending[path] = .removed
    }

    /// Drops every file: what is written next is the whole tree.
    func removeAll() {
        replacesAll = true
        pending = [:]
    }

    /// The pending changes as one commit on `ref` (its parent: the commit
    /// read), by `fast-import`, its input written to a private file a
    /// piece at a time; returns the new commit's id.
    func commit(to ref: String, author: String, at time: Date) throws -> String {
        let stream = try GitInputFile()
        defer { stream.remove() }
        let stamp = "\(author) \(Int64(time.timeIntervalSince1970)) +0000"
        try stream.line("commit \(ref)")
        try stream.line("author \(stamp)")
        try stream.line("committer \(stamp)")
        try stream.line("data 4")
        try stream.line("sync")
        if let commit { try stream.line("from \(commit)") }
        if replacesAll { try stream.line("deleteall") }
        for (path, change) in pending.sorted(by: { $0.key < $1.key }) {
            let bytes: [UInt8]
            switch change {
            case .bytes(let held): bytes = held
            case .later(let read): bytes = try read()
            case .removed:
                if !replacesAll { try stream.line("D \(path)") }
                continue
            }
            try stream.line("M 100644 inline \(path)")
            try stream.line("data \(bytes.count)")
            try stream.append(bytes)
            try stream.line("")
        }
        try stream.line("done")
        try stream.finish()
        let run = try git.run(["fast-import", "--quiet", "--force", "--done"], in: repository, inputFile: stream.path)
        guard run.status == 0 else { throw SyncError.git("cannot commit the change: \(run.firstError)") }
        return try git.must(["rev-parse", "--verify", ref], in: repository, "cannot read the new commit")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
