import BulwarkCore
import Foundation

/// `F` on an entry: the files it holds. Enter saves one to a path typed
/// (Tab completes), `o` opens one with the desktop's opener once asked,
/// `a` attaches a file from a path, `d` removes one once asked.
public struct FilesBrowser: Sendable, Equatable {
    public enum Prompt: Sendable, Equatable {
        /// Where to save the file of this name.
        case save(String)
        case attach
    }

    public let entryID: String
    public var list = ListScroll()
    /// A path being typed, and what for.
    public var prompt: Prompt?
    public var field = TextField()
    /// The file waiting for "open it?" to be answered.
    public var confirmOpen: String?
    /// The file waiting for "remove it?" to be answered.
    public var confirmRemove: String?
    /// Another entry holds the same bytes, so they stay in the vault.
    public var removeKeepsBytes = false

    /// A question is waiting for y or n.
    var asking: Bool { confirmOpen != nil || confirmRemove != nil }

    public init(entryID: String) { self.entryID = entryID }
}

/// The Files dialog's actions.
public enum FilesAction: Sendable, Equatable {
    case open
    case askSave
    case askAttach
    case askOpen
    case askRemove
    /// Tab in the path field.
    case complete
    case completed(String)
    /// Enter in the path field, or yes to the question.
    case confirm
    /// Esc in the path field or the question: back to the list.
    case back
    /// What a save or an open said (the vault unchanged).
    case said(Banner)
}

enum FilesReducer {
    static func reduce(_ action: FilesAction, _ state: inout AppState) -> Effect {
        switch action {
        case .open:
            guard let entry = state.currentEntry else { return .none }
            state.overlay = .files(FilesBrowser(entryID: entry.id))
            return .none
        case .askSave:
            guard var browser = state.files, let file = selected(state, browser) else { return .none }
            browser.prompt = .save(file.name)
            browser.field = TextField(file.name)
            state.files = browser
            return .none
        case .askAttach:
            guard var browser = state.files else { return .none }
            browser.prompt = .attach
            browser.field = TextField(placeholder: "a file's path (Tab completes)")
            state.files = browser
            return .none
        case .askOpen:
            guard var browser = state.files, let file = selected(state, browser) else { return .none }
            browser.confirmOpen = file.name
            state.files = browser
            return .none
        case .askRemove:
            guard var browser = state.files, let file = selected(state, browser) else { return .none }
            browser.confirmRemove = file.name
            browser.removeKeepsBytes = state.snapshot.entries.contains { other in
                other.id != browser.entryID && other.attachments.contains { $0.blob == file.blob }
            }
            state.files = browser
            return .none
        case .complete:
            guard let text = state.files?.field.text else { return .none }
            return .run { env in (env.vault?.completePath(text)).map { .files(.completed($0)) } }
        case .completed(let text):
            state.files?.field = TextField(text)
            return .none
        case .back:
            state.files?.prompt = nil
            state.files?.confirmOpen = nil
            state.files?.confirmRemove = nil
            return .none
        case .said(let banner):
            state.busy = false
            state.banner = banner
            return .none
        case .confirm:
            guard var browser = state.files else { return .none }
            let id = browser.entryID
            if let name = browser.confirmOpen {
                browser.confirmOpen = nil
                state.files = browser
                state.busy = true
                return .run { env in
                    guard let vault = env.vault else { return nil }
                    do { return .files(.said(Banner(ok: true, text: try vault.openAttachment(entryID: id, name: name)))) } catch {
                        return .files(.said(Banner(ok: false, text: "Could not open \(name): \(error).")))
                    }
                }
            }
            if let name = browser.confirmRemove {
                browser.confirmRemove = nil
                // The selection stays in the list as it shrinks.
                browser.list.selected = max(0, min(browser.list.selected, (state.entry(id: id)?.attachments.count ?? 1) - 2))
                state.files = browser
                state.busy = true
                return .run { env in
                    guard let vault = env.vault else { return nil }
                    do {
                        let (snapshot, said) = try vault.removeAttachment(entryID: id, name: name)
                        return .vault(.updated(snapshot, banner: Banner(ok: true, text: said)))
                    } catch { return .vault(.failed("Could not remove \(name): \(error).")) }
                }
            }
            let path = browser.field.text.trimmingCharacters(in: .whitespaces)
            guard let prompt = browser.prompt, !path.isEmpty else {
                state.status = "Type a path first (Tab completes)."
                return .none
            }
            browser.prompt = nil
            state.files = browser
            state.busy = true
            switch prompt {
            case .save(let name):
                return .run { env in
                    guard let vault = env.vault else { return nil }
                    do { return .files(.said(Banner(ok: true, text: try vault.saveAttachment(entryID: id, name: name, to: path)))) } catch {
                        return .files(.said(Banner(ok: false, text: "Could not save \(name): \(error).")))
                    }
                }
            case .attach:
                return .run { env in
                    guard let vault = env.vault else { return nil }
                    do {
                        let (snapshot, said) = try vault.attachFile(entryID: id, path: path)
                        return .vault(.updated(snapshot, banner: Banner(ok: true, text: said)))
                    } catch { return .vault(.failed("Could not attach \(path): \(error).")) }
                }
            }
        }
    }

    static func selected(_ state: AppState, _ browser: FilesBrowser) -> Attachment? {
        guard let files = state.entry(id: browser.entryID)?.attachments, files.indices.contains(browser.list.selected) else { return nil }
        return files[browser.list.selected]
    }
}
