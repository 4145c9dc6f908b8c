import Foundation

/// Tab in a field that takes a path: `~/` is home; one match completes
/// (a folder with its "/"), several complete as far as they agree.
public enum PathCompletion {
    public static func complete(_ partial: String, home: String = NSHomeDirectory(), directory: String = FileManager.default.currentDirectoryPath) -> String {
        let expanded = partial == "~" ? home + "/" : partial.hasPrefix("~/") ? home + partial.dropFirst(1) : partial
        let slash = expanded.lastIndex(of: "/")
        let folderPart = slash.map { String(expanded[...$0]) } ?? ""
        let stem = slash.map { String(expanded[expanded.index(after: $0)...]) } ?? expanded
        let folder = folderPart.isEmpty ? directory : (folderPart.hasPrefix("/") ? folderPart : directory + "/" + folderPart)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return partial }
        // Hidden files only when asked for with a leading dot.
        let matches = names.filter { $0.hasPrefix(stem) && (stem.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted()
        guard let first = matches.first else { return partial }
        var common = first
        for name in matches.dropFirst() {
            while !name.hasPrefix(common) { common.removeLast() }
        }
        var completed = folderPart + common
        if matches.count == 1 {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: (folderPart.hasPrefix("/") ? "" : directory + "/") + completed, isDirectory: &isDirectory), isDirectory.boolValue {
                completed += "/"
            }
        }
        // Written back as it was typed: home as "~".
        if partial.hasPrefix("~"), completed.hasPrefix(home) { completed = "~" + completed.dropFirst(home.count) }
        return completed
    }

    /// `~/x` as the full path.
    public static func expand(_ path: String, home: String = NSHomeDirectory()) -> String {
        path == "~" ? home : path.hasPrefix("~/") ? home + path.dropFirst(1) : path
    }
}
