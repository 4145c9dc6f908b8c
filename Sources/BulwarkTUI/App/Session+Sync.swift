import BulwarkCore
import Foundation

/// Sync in the app: run on a connection of its own, outside the session's
/// lock, so that no keystroke waits on the network; what it brings in is
/// taken as another writer's change is.
extension AppSession {
    public enum SyncResult: Sendable, Equatable {
        case notLinked
        /// The new snapshot when something came in; "2 changes from laptop (Mail, Bank)"; how many went out; the conflicts to look at.
        case synced(SessionSnapshot?, incoming: String, outgoing: Int, conflicts: [SyncConflictView])
        case offline(String)
        case failed(String)
        /// Another machine changed the master password: the new one is needed here, once.
        case rekeyed
    }

    public enum RekeyResult: Sendable, Equatable {
        /// This vault opens with the new password now: the vault as it is.
        case followed(SessionSnapshot)
        case wrongPassword
        case failed(String)
        /// The vault took the new password but did not open again here: the app locks (unlocking takes the new one).
        case locked(String)
    }

    /// Whether the vault at this path is linked to a sync remote.
    var isLinkedForSync: Bool {
        FileManager.default.fileExists(atPath: SyncState.Paths(vault: vaultPath).state.path)
    }

    public func syncNow() -> SyncResult {
        syncLock.withLock {
            guard let git = syncGit else { return .failed("sync needs git, which is not installed here (Debian: apt install git)") }
            let connection: Vault
            do {
                guard let other = try lock.withLock({ try vault?.anotherConnection() }) else { return .notLinked }
                connection = other
            } catch {
                return .failed("\(error)")
            }
            defer { connection.close() }
            let report: SyncEngine.Report
            do {
                guard try SyncState.load(for: connection) != nil else { return .notLinked }
                report = try SyncEngine(vault: connection, git: git, clock: clock).sync()
            } catch let error as SyncError {
                if case .rekeyed = error { return .rekeyed }
                if case .git(let why) = error, why.hasPrefix("cannot reach") { return .offline(error.description) }
                return .failed(error.description)
            } catch {
                return .failed("\(error)")
            }
            let conflicts = ((try? SyncConflicts.pending(in: connection)) ?? []).map(SyncConflictView.init)
            let snapshot: SessionSnapshot? = lock.withLock {
                guard let vault, let changes = try? vault.refresh() else { return nil }
                refresh(changes.ids)
                return makeSnapshot()
            }
            return .synced(snapshot, incoming: report.incomingSummary, outgoing: report.outgoing.count, conflicts: conflicts)
        }
    }

    /// Follows another machine's change of the master password: the vault
    /// takes the key the repository's header wraps under the new password
    /// (on a connection of its own), then this session opens it again with
    /// that password. A wrong one changes nothing.
    public func followRekey(masterPassword: String) -> RekeyResult {
        syncLock.withLock {
            guard let git = syncGit else { return .failed("sync needs git, which is not installed here (Debian: apt install git)") }
            do {
                guard let connection = try lock.withLock({ try vault?.anotherConnection() }) else { return .failed("The vault is locked.") }
                defer { connection.close() }
                try SyncEngine(vault: connection, git: git, clock: clock).followRekey(masterPassword: masterPassword)
            } catch VaultError.wrongPassword {
                return .wrongPassword
            } catch {
                return .failed("\(error)")
            }
            lockVault()
            do { return .followed(try unlock(masterPassword: masterPassword)) } catch { return .locked("\(error)") }
        }
    }

    /// Settles the sync conflict on `entryID` as the person chose; the
    /// snapshot after it and what was done.
    public func settleSyncConflict(_ entryID: String, choice: ConflictChoice) -> (SessionSnapshot?, String, [SyncConflictView]) {
        syncLock.withLock {
            lock.withLock {
                guard let vault else { return (nil, "The vault is locked.", []) }
                do {
                    let text = try SyncConflicts.settle(entryID, choice: choice, vault: vault, now: clock())
                    refresh([entryID])
                    return (makeSnapshot(), text, try SyncConflicts.pending(in: vault).map(SyncConflictView.init))
                } catch {
                    return (nil, "\(error)", [])
                }
            }
        }
    }
}
