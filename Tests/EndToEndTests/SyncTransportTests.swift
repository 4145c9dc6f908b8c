import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Sync over the transports people use besides a directory: `git daemon`
/// (git://) and smart HTTP (`git http-backend` behind a loopback server),
/// each started and stopped by the test.
@Suite struct SyncTransportTests {
    typealias Machines = SyncCommandTests.Machines
    static let httpServer = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/sync/git-http-server.py").path

    /// A server process, stopped when the value goes (with SIGKILL: the test
    /// runner's blocked signals are inherited, so SIGTERM would wait forever).
    final class Server {
        let process = Process()
        let output = Pipe()
        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }
        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        /// The first line it prints.
        func firstLine() -> String {
            var line = Data()
            while true {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty || byte == Data("\n".utf8) { break }
                line.append(byte)
            }
            return String(decoding: line, as: UTF8.self)
        }
    }

    /// A port nothing listens on now (the system's choice).
    static func freePort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Waits until something accepts connections on the port (at most a minute).
    static func waitForListener(_ port: UInt16) -> Bool {
        Poll.until(seconds: 60, every: 0.02) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
            return connected == 0
        }
    }

    /// Two machines through `remote`: a clone, a change each way.
    static func twoMachinesThrough(_ m: Machines, remote: String) throws {
        try m.create("laptop", ["Mail"])
        let linked = try m.run("laptop", ["sync", "init", remote, "--name", "laptop"])
        #expect(linked.status == 0, "\(linked.stderr)")
        let cloned = try m.run("desktop", ["sync", "clone", remote, "--name", "desktop"])
        #expect(cloned.status == 0, "\(cloned.stderr)")
        #expect(try m.run("desktop", ["edit", "Mail", "--notes", "over the wire"]).status == 0)
        #expect(try m.run("desktop", ["sync"]).stdout == "Out: 1 change (Mail)\n")
        #expect(try m.run("laptop", ["sync"]).stdout == "In:  1 change from desktop (Mail)\n")
        let mail = try JSONSerialization.jsonObject(with: Data(try m.run("laptop", ["show", "Mail", "--json"]).stdout.utf8)) as? [String: Any]
        #expect(mail?["notes"] as? String == "over the wire")
    }

    @Test func throughGitDaemon() throws {
        let m = try Machines()
        #expect(try m.git(["config", "daemon.receivepack", "true"], in: m.remote).status == 0)
        let port = Self.freePort()
        // git-daemon itself (`git daemon` would run it as a child, which a kill of the parent leaves behind).
        let execPath = try #require(try m.git(["--exec-path"]).stdout.split(separator: "\n").first.map(String.init))
        let daemon = try Server([execPath + "/git-daemon", "--reuseaddr", "--export-all", "--enable=receive-pack", "--listen=127.0.0.1",
                                 "--port=\(port)", "--base-path=\(m.dir.path)", m.dir.path])
        #expect(Self.waitForListener(port))
        try Self.twoMachinesThrough(m, remote: "git://127.0.0.1:\(port)/remote.git")
        _ = daemon
    }

    @Test func throughSmartHTTP() throws {
        let m = try Machines()
        let server = try Server(["python3", Self.httpServer, m.dir.path])
        let port = try #require(UInt16(server.firstLine()))
        try Self.twoMachinesThrough(m, remote: "http://127.0.0.1:\(port)/remote.git")
    }
}
