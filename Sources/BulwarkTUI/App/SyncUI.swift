import BulwarkCore
import Foundation

/// The app's side of sync: whether the vault is linked, what the last sync
/// did, when to sync again, and the same-field conflicts to look at.
public struct SyncUI: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// The vault has no sync remote.
        case off
        case idle
        case syncing
        /// The remote could not be reached: normal, said once, retried.
        case offline
        /// The remote failed a check or refused: said in the banner, retried less often.
        case failed
        /// Another machine changed the master password: sync waits for the new one (S asks).
        case needsPassword
    }

    public var phase: Phase = .off
    /// A change was made while a sync ran: sync once more when it ends.
    public var again = false
    /// The running sync was asked for with `S` (it reports even "up to date").
    public var manual = false
    /// "Offline" was said since the last sync that reached the remote.
    public var offlineSaid = false
    public var lastAttempt: Date?
    /// The conflicts not yet looked at; the first is the dialog's.
    public var conflicts: [SyncConflictView] = []

    /// Seconds between syncs that look for the other machines' changes, and between tries when offline.
    public static let pullEvery: TimeInterval = 300
    public static let retryEvery: TimeInterval = 60

    /// The title bar's word for it; nil when the vault is not linked.
    public var label: String? {
        let word: String
        switch phase {
        case .off: return nil
        case .idle: word = "synced"
        case .syncing: word = "syncing…"
        case .offline: word = "offline"
        case .failed: word = "sync failed"
        case .needsPassword: word = "sync needs password"
        }
        return conflicts.isEmpty ? word : "\(word), \(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s")"
    }
}

/// One same-field conflict a sync kept, as the dialog shows it: both
/// sides (only while the dialog is up: a lock drops them with the state).
public struct SyncConflictView: Sendable, Equatable {
    public let entryID: String
    public let title: String
    public let kept: String
    public let from: String
    public let mine: Entry?
    public let theirs: Entry?

    public init(_ conflict: SyncConflict) {
        entryID = conflict.entryID
        title = conflict.title
        kept = conflict.kept
        from = conflict.from
        let versions = conflict.versions
        mine = versions?.mine
        theirs = versions?.theirs
    }

    public init(entryID: String, title: String, kept: String, from: String, mine: Entry?, theirs: Entry?) {
        self.entryID = entryID
        self.title = title
        self.kept = kept
        self.from = from
        self.mine = mine
        self.theirs = theirs
    }
}
