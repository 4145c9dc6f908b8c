/// One finding of `bulwark doctor`: what was looked at, what was found,
/// and for a problem the command that fixes it.
struct DoctorCheck: Encodable, Equatable {
    enum Status: String, Encodable {
        case ok
        /// Works, but not as well as it could (exit 0).
        case warning
        /// Does not work, or puts the vault at risk (exit 1).
        case problem
    }

    let area: String
    let name: String
    let status: Status
    let found: String
    var fix: String? = nil

    static func ok(_ area: String, _ name: String, _ found: String) -> DoctorCheck {
        DoctorCheck(area: area, name: name, status: .ok, found: found)
    }
    static func warning(_ area: String, _ name: String, _ found: String, fix: String? = nil) -> DoctorCheck {
        DoctorCheck(area: area, name: name, status: .warning, found: found, fix: fix)
    }
    static func problem(_ area: String, _ name: String, _ found: String, fix: String?) -> DoctorCheck {
        DoctorCheck(area: area, name: name, status: .problem, found: found, fix: fix)
    }
}

/// A path for a shell command line: quoted when it needs to be.
func shellQuoted(_ path: String) -> String {
    let plain = path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+~:@%".contains($0) }
    return plain && !path.isEmpty ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
