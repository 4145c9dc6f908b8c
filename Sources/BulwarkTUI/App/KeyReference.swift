import BulwarkCore
import BulwarkUpgrades
import Foundation

/// Every keymap table as a page people read (`docs/keys.md`), made from
/// the same tables that drive the keys, the footers and the `?` overlay,
/// as lazygit writes its keybinding docs from its own. A test compares the
/// page with the tables, so it cannot drift.
public enum KeyReference {
    public struct Section: Sendable {
        public let title: String
        public let when: String
        public let keymap: Keymap<AppAction>
    }

    /// One representative state per table (the tables' keys do not depend
    /// on the entries; only whether a key is off today does).
    public static func sections() -> [Section] {
        let unlocked = AppState(unlocked: true)
        var out: [Section] = []
        func add(_ title: String, _ when: String, _ keymap: Keymap<AppAction>) { out.append(Section(title: title, when: when, keymap: keymap)) }
        add("Unlock", "the master password screen", Keymaps.unlock(AppState()))
        add("Vault", "the list of entries and the selected one's detail", Keymaps.vault(unlocked))
        var recommendations = unlocked
        recommendations.screen = .recommendations
        add("Security Recommendations", "Tab, or r from anywhere without a text field", Keymaps.recommendations(recommendations))
        var searching = unlocked
        searching.search = TextField()
        add("Search", "/ on either screen", Keymaps.search(searching))
        var editing = unlocked
        editing.editor = EntryEditor(editing: nil)
        add("Add or edit an entry", "n or e", Keymaps.editor(editing))
        add("Discard your changes?", "Esc in the form with typed changes", Keymaps.confirmDiscard(editing))
        var generating = editing
        generating.overlay = .generator(GeneratorSheet(choice: GeneratorChoice(), site: ""))
        add("Generate", "Ctrl-G in the form", Keymaps.generator(generating))
        add("Delete?", "d", Keymaps.confirmDelete(unlocked))
        add("Filter", "f", Keymaps.filterPicker(unlocked))
        var choosing = unlocked
        choosing.overlay = .palette(Palette())
        add("Actions", ": or Ctrl-P on either screen (letters filter)", Keymaps.palette(choosing))
        var filing = unlocked
        filing.overlay = .files(FilesBrowser(entryID: ""))
        add("Files", "F on an entry", Keymaps.files(filing))
        filing.files?.prompt = .save("")
        add("Save the file", "Enter in Files (a attaches: the same keys)", Keymaps.files(filing))
        filing.files?.prompt = nil
        filing.files?.confirmOpen = ""
        add("Open the file?", "o in Files", Keymaps.files(filing))
        filing.files?.confirmOpen = nil
        filing.files?.confirmRemove = ""
        add("Remove the file?", "d in Files", Keymaps.files(filing))
        add("Hide a recommendation", "h on a recommendation", Keymaps.hide(unlocked))
        add("Old passwords", "h on an entry, or in an upgrade's result", Keymaps.history(unlocked))
        add("Changed elsewhere", "saving an edit another bulwark changed meanwhile", Keymaps.conflict(unlocked))
        add("Changed on two machines", "a sync that kept a same-field conflict, until looked at", Keymaps.syncConflict(unlocked))
        add("New master password", "a sync that finds the master password changed on another machine", Keymaps.syncRekey(unlocked))
        let upgrade = UpgradeRequest(entryID: "", kind: .strongPassword, origin: .recommendation)
        add("Sign in", "s where the service also takes Sign in with Apple", Keymaps.signInChoice(unlocked))
        add("Change the password at the service?", "u, before the service is told (confirm-service-changes = off skips it)",
            Keymaps.confirmServiceChange(unlocked))
        var working = unlocked
        working.upgrade = UpgradeUI(request: upgrade, title: "", state: .authorising)
        add("While the service works", "an upgrade under way", Keymaps.working(working))
        let code = StepUpScreen(serviceName: "A service asks for a code", method: .totp, prompt: "", attemptsLeft: 5, expiresAt: Date(), message: nil,
                                canResend: true, domain: "")
        add("A code step-up", "a service asks for a verification code", Keymaps.stepUp(working, code))
        let key = StepUpScreen(serviceName: "A service asks for a security key", method: .securityKey, prompt: "", attemptsLeft: 5, expiresAt: Date(),
                               message: nil, canResend: false, domain: "")
        add("A security-key step-up", "a service asks for a security key", Keymaps.stepUp(working, key))
        add("Messages", "m at a code step-up", Keymaps.messages(working))
        add("Sign in with Apple", "the sheet, in an upgrade", Keymaps.sheet(working))
        add("Save a passkey", "the sheet, in an upgrade to a passkey", Keymaps.passkeySheet(working))
        add("Upgrade result", "after an upgrade", Keymaps.result(unlocked))
        add("Sign up with Apple", "N", Keymaps.signUp(unlocked))
        var existing = unlocked
        existing.signUp = SignUpUI(services: [], existing: [SignUpUI.Existing(id: "", said: "")])
        add("An account there already", "N, at a service where the vault holds an account", Keymaps.signUp(existing))
        add("Signed in", "s", Keymaps.signInPrompt(unlocked))
        add("The service's app", "A", Keymaps.serviceApp(unlocked))
        add("Sign in with a passkey", "s on an entry with a passkey and no password", Keymaps.passkeySignIn(unlocked))
        for (title, step) in [("Log in with a provider: the alert", WebAuthenticationSession.Step.alert(app: "", domain: "")),
                              ("Log in with a provider: its login page", .loginPage(provider: "", domain: "", message: nil)),
                              ("Log in with a provider: its code page", .secondFactor(provider: "", message: nil)),
                              ("Log in with a provider: consent", .consent(provider: "", app: ""))] {
            add(title, "l", Keymaps.webSignIn(unlocked, WebSignInUI(entryID: "", title: "", step: step)))
        }
        add("Quit?", "q or Ctrl-C while an upgrade is under way", Keymaps.confirmQuit(unlocked))
        add("SSH signature", "bulwark ssh-agent asks before signing with a key set to ask", Keymaps.sshApproval(unlocked))
        add("Help", "?", Keymaps.help(unlocked))
        return out
    }

    /// The page: a table per screen and dialog, keys as the footer writes them.
    public static func markdown() -> String {
        var text = """
            # Keys

            Every screen and dialog of `bulwark` has one table of keys; the same
            table drives the keys, the footer and the `?` overlay. This page is
            made from those tables (a test keeps it so). A key that is off where
            you are (no code in the vault, nothing selected) says why when pressed.

            """
        for section in sections() {
            text += "\n## \(section.title)\n\n_\(section.when)_\n\n| key | what it does |\n| --- | --- |\n"
            for binding in section.keymap.bindings {
                let keys = binding.keys.map { "`\($0.description.replacingOccurrences(of: "|", with: "\\|"))`" }.joined(separator: " ")
                text += "| \(keys) | \(binding.help.replacingOccurrences(of: "|", with: "\\|")) |\n"
            }
        }
        return text
    }

    /// The README's short table: the vault's keys that matter, a row per
    /// group, each said as its binding's help says it (without the
    /// parenthesis; a key whose words another's hold is not said twice). Written from the tables, so it cannot drift either.
    public static let readmeRows: [[String]] = [["k", "j"], ["/", "f", "o"], ["v", "p", "y", "t"], ["n", "e", "d", "z"], ["F"], ["u", "a", "P"],
                                                 ["Tab", "r"], ["S"], [":", "M"], ["L", "?", "q"]]

    public static func readmeTable() -> String {
        let vault = Keymaps.vault(AppState(unlocked: true))
        var text = "| key | what it does |\n| --- | --- |\n"
        for row in readmeRows {
            let said = row.compactMap { name in vault.bindings.first { $0.keys.contains { $0.description == name } } }.map { binding in
                let help = binding.help.split(separator: " (").first.map(String.init) ?? binding.help
                return help.prefix(1).lowercased() + help.dropFirst()
            }
            // Two keys for one thing (Tab and r) are said once.
            let once = said.filter { help in !said.contains { $0 != help && $0.localizedCaseInsensitiveContains(help) } }
            text += "| " + row.map { "`\($0)`" }.joined(separator: " ") + " | " + once.joined(separator: "; ") + " |\n"
        }
        return text
    }
}
