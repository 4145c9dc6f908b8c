import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `bulwark agent`: holds unlocked vaults' keys (`LockedKey`) and hands
/// each to its owner's commands on request, one connection at a time.
/// A key nobody asked for in `lockAfter` is forgotten; `lock` forgets
/// them at once. The agent ends when it holds nothing (after its first
/// key, or when none came within `firstKeyWithin`), and removes its socket.
public final class AgentServer {
    private struct Held {
        let vaultID: [UInt8]
        let wrappedKey: [UInt8]
        let key: LockedKey
        let unlockedAt: Date
        var lastUsed: Date
        /// A new name for each unlock (`AgentVaultStatus.session`).
        let session = SecureRandom.bytes(8).map { String(format: "%02x", $0) }.joined()
    }

    private let listener: Int32
    private let path: String
    private let lockAfter: TimeInterval
    private let owner: uid_t
    private let log: (String) -> Void
    private let clock: () -> Date
    private var held: [String: Held] = [:]
    private var everHeld = false
    let firstKeyWithin: TimeInterval = 60

    /// `owner`: whose peers are answered (the agent's own user; a test may name another to see the refusal).
    public init(listening listener: Int32, at path: String, lockAfter: TimeInterval, owner: uid_t = getuid(),
                clock: @escaping () -> Date = Date.init, log: @escaping (String) -> Void) {
        self.listener = listener
        self.path = path
        self.lockAfter = lockAfter
        self.owner = owner
        self.clock = clock
        self.log = log
    }

    /// Serves until nothing is held; the socket is removed at the end.
    public func run() {
        let started = clock()
        defer {
            held.removeAll()
            close(listener)
            unlink(path)
        }
        while true {
            forgetIdle()
            if everHeld ? held.isEmpty : clock().timeIntervalSince(started) > firstKeyWithin { return }
            let wait = nextDeadline().map { max(0, $0.timeIntervalSince(clock())) } ?? firstKeyWithin
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(wait, 60) * 1000) + 1)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            serve(client)
            close(client)
        }
    }

    /// One connection: the peer checked, one request read, one answer written.
    func serve(_ client: Int32) {
        guard let uid = AgentSocket.peerUID(client), uid == owner else {
            log("refused a connection from another user (uid \(AgentSocket.peerUID(client).map(String.init) ?? "unknown"))")
            _ = AgentSocket.writeAll(client, AgentResponse.refused("this agent answers its own user only").line)
            return
        }
        AgentSocket.setTimeout(client, seconds: 2)
        guard let line = AgentSocket.readLine(client) else {
            _ = AgentSocket.writeAll(client, AgentResponse.refused("no request line of at most \(AgentRequest.maximumBytes) bytes").line)
            return
        }
        let response: AgentResponse
        do { response = answer(try AgentRequest.parse(line)) } catch {
            log("refused a request: \(error.reason)")
            response = .refused(error.reason)
        }
        _ = AgentSocket.writeAll(client, response.line)
    }

    func answer(_ request: AgentRequest) -> AgentResponse {
        forgetIdle()  // a key past its time is never handed out, however late the loop woke
        let now = clock()
        switch request {
        case .unlock(let vault, let key):
            guard let locked = LockedKey(key.key) else { return .refused("no memory for the key") }
            held[vault] = Held(vaultID: key.vaultID, wrappedKey: key.wrappedKey, key: locked, unlockedAt: now, lastUsed: now)
            everHeld = true
            log("unlocked \(vault)")
            return .ok
        case .key(let vault):
            guard var entry = held[vault] else { return .refused("locked") }
            entry.lastUsed = now
            held[vault] = entry
            var response = AgentResponse()
            response.key = HeldVaultKey(vaultID: entry.vaultID, wrappedKey: entry.wrappedKey, key: entry.key.bytes)
            return response
        case .lock(let vault):
            if let vault { held[vault] = nil } else { held.removeAll() }
            log(vault.map { "locked \($0)" } ?? "locked every vault")
            return .ok
        case .status:
            var response = AgentResponse()
            response.vaults = held.sorted { $0.key < $1.key }.map { AgentVaultStatus(vault: $0.key, unlockedAt: $0.value.unlockedAt, locksAt: $0.value.lastUsed + lockAfter,
                                                                                        session: $0.value.session) }
            return response
        }
    }

    private func forgetIdle() {
        let now = clock()
        for (vault, entry) in held where now.timeIntervalSince(entry.lastUsed) >= lockAfter {
            held[vault] = nil
            log("locked \(vault) after \(Int(lockAfter)) s unused")
        }
    }

    private func nextDeadline() -> Date? { held.values.map { $0.lastUsed + lockAfter }.min() }
}
