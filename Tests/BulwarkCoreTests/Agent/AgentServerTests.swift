import Foundation
import Testing
@testable import BulwarkCore
#if canImport(Glibc)
import Glibc
#endif

/// The agent's answers, one connection at a time over a socket pair: what
/// it holds, what it forgets, and what it refuses (another user, a bad or
/// oversized request), never a crash or a hang.
@Suite struct AgentServerTests {
    static let key = HeldVaultKey(vaultID: Array(repeating: 7, count: 16), wrappedKey: Array(repeating: 9, count: 60), key: Array(repeating: 1, count: 32))

    /// One request written on one end, `serve` on the other; the answer's line.
    private func exchange(_ server: AgentServer, _ bytes: [UInt8]) -> AgentResponse? {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { return nil }
        defer { close(pair[0]); close(pair[1]) }
        _ = AgentSocket.writeAll(pair[0], bytes)
        shutdown(pair[0], Int32(SHUT_WR))
        server.serve(pair[1])
        return AgentSocket.readLine(pair[0]).flatMap(AgentResponse.parse)
    }

    private func server(owner: uid_t = getuid(), lockAfter: TimeInterval = 60, now: @escaping () -> Date = Date.init, log: @escaping (String) -> Void = { _ in }) -> AgentServer {
        AgentServer(listening: -1, at: "/nonexistent", lockAfter: lockAfter, owner: owner, clock: now, log: log)
    }

    @Test func aKeyHandedOverIsGivenBackAndForgottenOnLock() {
        let agent = server()
        #expect(exchange(agent, AgentRequest.key(vault: "/v.db").line)?.error == "locked")
        #expect(exchange(agent, AgentRequest.unlock(vault: "/v.db", key: Self.key).line) == .ok)
        #expect(exchange(agent, AgentRequest.key(vault: "/v.db").line)?.key == Self.key)
        #expect(exchange(agent, AgentRequest.key(vault: "/other.db").line)?.error == "locked")
        #expect(exchange(agent, AgentRequest.status.line)?.vaults.map(\.vault) == ["/v.db"])
        #expect(exchange(agent, AgentRequest.lock(vault: nil).line) == .ok)
        #expect(exchange(agent, AgentRequest.key(vault: "/v.db").line)?.error == "locked")
    }

    @Test func aPeerOfAnotherUserIsRefusedAndLogged() {
        var lines: [String] = []
        let agent = server(owner: getuid() &+ 1, log: { lines.append($0) })
        let answer = exchange(agent, AgentRequest.unlock(vault: "/v.db", key: Self.key).line)
        #expect(answer?.error == "this agent answers its own user only")
        #expect(lines == ["refused a connection from another user (uid \(getuid()))"])
    }

    @Test func badAndOversizedRequestsAreRefusedByName() {
        var lines: [String] = []
        let agent = server(log: { lines.append($0) })
        #expect(exchange(agent, Array("not json\n".utf8))?.error == "the request is not a JSON object")
        #expect(exchange(agent, Array(#"{"op":"steal"}"#.utf8) + [10])?.error == "unknown op 'steal'")
        #expect(exchange(agent, Array(#"{"op":"unlock","vault":"/v","vaultID":"AA==","wrappedKey":"x","key":"y"}"#.utf8) + [10])?.error
                == "'wrappedKey' is missing or not base64 of 16 to 256 bytes")
        #expect(exchange(agent, Array(repeating: UInt8(ascii: "a"), count: 70_000) + [10])?.error == "no request line of at most 65536 bytes")
        #expect(exchange(agent, [])?.error == "no request line of at most 65536 bytes")
        // Refusals are logged without the request's bytes; the agent still answers after them.
        #expect(lines.allSatisfy { !$0.contains("AA==") } && lines.count == 3)
        #expect(exchange(agent, AgentRequest.status.line)?.error == nil)
    }

    @Test func aKeyUnusedForItsTimeIsForgotten() {
        nonisolated(unsafe) var now = Date(timeIntervalSince1970: 1_000)
        let agent = server(lockAfter: 60, now: { now })
        #expect(exchange(agent, AgentRequest.unlock(vault: "/v.db", key: Self.key).line) == .ok)
        now += 59
        #expect(exchange(agent, AgentRequest.key(vault: "/v.db").line)?.key == Self.key)  // used: its time starts again
        let status = exchange(agent, AgentRequest.status.line)
        #expect(status?.vaults.first?.locksAt == now + 60)
        now += 60
        #expect(exchange(agent, AgentRequest.key(vault: "/v.db").line)?.error == "locked")
        #expect(exchange(agent, AgentRequest.status.line)?.vaults.isEmpty == true)
    }

    @Test func requestsReadBackAsTheyWereWritten() throws {
        for request in [AgentRequest.unlock(vault: "/home/j/v.db", key: Self.key), .key(vault: "/v"), .lock(vault: nil), .lock(vault: "/v"), .status] {
            #expect(try AgentRequest.parse(request.line) == request)
        }
        var answer = AgentResponse()
        answer.key = Self.key
        #expect(AgentResponse.parse(answer.line) == answer)
    }
}
