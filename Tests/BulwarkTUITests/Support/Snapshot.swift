import BulwarkTUI
import Foundation
import Testing

/// Golden-file snapshots of rendered screens.
///
/// Goldens live in `__Snapshots__/` beside the test file, named
/// `NAME.WxH.txt` (the text) and `NAME.WxH.style.txt` (the style runs).
/// They are written only when BULWARK_RECORD_SNAPSHOTS=1, and a recording
/// run fails, so nothing is accepted without someone reading it.
enum Snapshot {
    static var recording: Bool { ProcessInfo.processInfo.environment["BULWARK_RECORD_SNAPSHOTS"] == "1" }

    static func assert(_ buffer: Buffer, named name: String, styles: Bool = true,
                       filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) {
        let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
        let base = "\(name).\(buffer.width)x\(buffer.height)"
        var files = [("\(base).txt", buffer.textDump())]
        if styles { files.append(("\(base).style.txt", buffer.styleDump())) }
        for (file, actual) in files {
            let url = directory.appendingPathComponent(file)
            if recording {
                try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try? actual.write(to: url, atomically: true, encoding: .utf8)
                Issue.record("Recorded \(file). Read it, then run again without BULWARK_RECORD_SNAPSHOTS.", sourceLocation: sourceLocation)
                continue
            }
            guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
                Issue.record("No golden \(file). Record it with BULWARK_RECORD_SNAPSHOTS=1 and read it before committing.",
                             sourceLocation: sourceLocation)
                continue
            }
            if expected != actual {
                let message = "\(file) differs from its golden:\n" + lineDiff(expected: expected, actual: actual)
                Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
            }
        }
    }

    /// A readable diff: only the rows that differ, golden (-) above actual (+).
    static func lineDiff(expected: String, actual: String) -> String {
        let old = expected.components(separatedBy: "\n"), new = actual.components(separatedBy: "\n")
        var out: [String] = []
        for index in 0..<max(old.count, new.count) {
            let a = index < old.count ? old[index] : "<missing>"
            let b = index < new.count ? new[index] : "<missing>"
            if a != b {
                out.append(String(format: "-%4d│", index + 1) + a)
                out.append(String(format: "+%4d│", index + 1) + b)
            }
        }
        return out.joined(separator: "\n")
    }
}
