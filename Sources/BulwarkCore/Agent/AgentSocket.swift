import CHardening
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where `bulwark agent` listens and how either side speaks on it: a Unix
/// stream socket in a folder only its owner may enter (0700, the socket
/// 0600), every peer's user asked of the kernel (SO_PEERCRED) and refused
/// unless it is the agent's own.
public enum AgentSocket {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// `$BULWARK_AGENT_SOCKET`, else `$XDG_RUNTIME_DIR/bulwark/agent.sock`,
    /// else `/tmp/bulwark-UID/agent.sock`.
    public static func path(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let named = environment["BULWARK_AGENT_SOCKET"], !named.isEmpty { return named }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/bulwark/agent.sock" }
        return "/tmp/bulwark-\(getuid())/agent.sock"
    }

    /// Listens at `path`: its folder made 0700 (or refused when it is
    /// someone else's or open to others), a socket no agent answers on
    /// taken over, one an agent answers on refused.
    public static func listen(at path: String, answering: String = "'bulwark agent status' says what it holds") throws(Failure) -> Int32 {
        let folder = (path as NSString).deletingLastPathComponent
        mkdir(folder, 0o700)
        var status = stat()
        guard lstat(folder, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { throw Failure(description: "\(folder) is not a folder") }
        guard status.st_uid == getuid(), status.st_mode & 0o077 == 0 else {
            throw Failure(description: "\(folder) is not yours alone (it must be a folder of your own with mode 0700)")
        }
        if let live = connect(to: path) {
            close(live)
            throw Failure(description: "an agent already answers on \(path) (\(answering))")
        }
        unlink(path)  // a socket left by an agent that ended without removing it
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "no socket: \(String(cString: strerror(errno)))") }
        var address = try unixAddress(path)
        // Made owner-only from the start: nobody else can connect in the moment before chmod.
        let mask = umask(0o177)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        umask(mask)
        guard bound == 0, chmod(path, 0o600) == 0, Glibc.listen(descriptor, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "cannot listen on \(path): \(reason)")
        }
        return descriptor
    }

    /// A connection to the agent at `path`, or nil when none answers.
    public static func connect(to path: String) -> Int32? {
        guard var address = try? unixAddress(path) else { return nil }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard connected == 0 else { close(descriptor); return nil }
        setTimeout(descriptor, seconds: 5)
        return descriptor
    }

    static func unixAddress(_ path: String) throws(Failure) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity, !bytes.contains(0) else { throw Failure(description: "the socket path is longer than \(capacity - 1) bytes") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// The connected peer's user id, from the kernel; nil when it cannot be had.
    public static func peerUID(_ descriptor: Int32) -> uid_t? {
        var uid: UInt32 = 0
        guard bw_peer_uid(descriptor, &uid) == 0 else { return nil }
        return uid_t(uid)
    }

    /// The connected peer's process id (as it connected), from the kernel.
    public static func peerPID(_ descriptor: Int32) -> pid_t? {
        var pid: Int32 = 0
        guard bw_peer_pid(descriptor, &pid) == 0, pid > 0 else { return nil }
        return pid_t(pid)
    }

    /// Reads and writes give up after `seconds` (a peer that stops mid-line holds nothing up for long).
    public static func setTimeout(_ descriptor: Int32, seconds: Int) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// One line (without its newline), at most `AgentRequest.maximumBytes`;
    /// nil when the peer closed, timed out or sent more without a newline.
    public static func readLine(_ descriptor: Int32) -> [UInt8]? {
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while line.count <= AgentRequest.maximumBytes {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return line.isEmpty ? nil : (line.count <= AgentRequest.maximumBytes ? line : nil) }
            if let end = chunk[0..<count].firstIndex(of: 0x0A) {
                line += chunk[0..<end]
                return line.count <= AgentRequest.maximumBytes ? line : nil
            }
            line += chunk[0..<count]
        }
        return nil
    }

    public static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            // MSG_NOSIGNAL: a peer gone mid-answer is an error here, not a SIGPIPE that ends the process.
            let wrote = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { return false }
            done += wrote
        }
        return true
    }
}
