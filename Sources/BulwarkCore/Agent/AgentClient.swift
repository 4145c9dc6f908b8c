import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A command's side of `bulwark agent`.
public enum AgentClient {
    /// The agent's answer, or nil when no agent answers at `socket`.
    public static func send(_ request: AgentRequest, socket: String = AgentSocket.path()) -> AgentResponse? {
        guard let connection = AgentSocket.connect(to: socket) else { return nil }
        defer { close(connection) }
        // The answer is read even when the request could not all be written: an agent that refuses the peer
        // answers and closes without reading it.
        _ = AgentSocket.writeAll(connection, request.line)
        guard let line = AgentSocket.readLine(connection) else { return nil }
        return AgentResponse.parse(line)
    }

    /// The key the agent holds for the vault at `vault`, if it holds one.
    public static func key(for vault: URL, socket: String = AgentSocket.path()) -> HeldVaultKey? {
        send(.key(vault: name(vault)), socket: socket)?.key
    }

    /// How the agent names a vault: its absolute path, symbolic links resolved.
    public static func name(_ vault: URL) -> String { vault.standardizedFileURL.resolvingSymlinksInPath().path }

    /// Waits until an agent answers at `socket` (one just started), up to `seconds`.
    public static func waitForAgent(socket: String = AgentSocket.path(), seconds: Double = 10) -> Bool {
        let until = Date().addingTimeInterval(seconds)
        while Date() < until {
            if send(.status, socket: socket) != nil { return true }
            usleep(20_000)  // polled: the agent's socket appears when it is ready
        }
        return false
    }
}
