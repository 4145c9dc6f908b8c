import BulwarkCore
import BulwarkTerminal
import BulwarkTUI
import BulwarkUpgrades
import Foundation
import Synchronization

/// The full-screen app on a vault: `bulwark open` on the person's own, and
/// the run every demo shares (`runApp`).
enum AppCommand {
    /// `bulwark open`: the app on your vault; the first run creates it.
    static func open(_ parsed: ParsedCommandLine) -> Int32 {
        let context: AnalysisContext
        switch AnalysisContext.load(parsed) {
        case .failure(let exit): return exit.code
        case .success(let loaded): context = loaded
        }
        let session = AppSession(vaultPath: VaultCommands.path(parsed), catalog: context.catalog, breaches: context.breaches,
                                 quirks: context.quirks, settings: context.config.analysis,
                                 freshness: .standard(), backupPolicy: context.config.backups)
        var state = AppState(unlock: UnlockForm(creating: !session.vaultExists))
        session.watch = (WatchStore.standard(), context.config.breachCorpora)
        state.unlock.news = WatchCommand.takeNews(session.vaultPath, short: true)
        // The generator's choices are remembered in the config file (a demo's are not).
        state.configPath = Configuration.defaultPath()
        // After `bulwark unlock`, the agent's key opens it: no lock screen (the app's own lock still asks).
        var unlocked: SessionSnapshot?
        if session.vaultExists, let held = AgentClient.key(for: session.vaultPath) {
            do { unlocked = try session.unlock(with: .heldKey(held)) } catch VaultError.keyChanged {
                _ = AgentClient.send(.lock(vault: AgentClient.name(session.vaultPath)))
            } catch {}
        }
        return runApp(state: state, session: session, parsed: parsed, start: unlocked.map { .unlock(.unlocked($0)) },
                      sshQuestionsFor: AgentClient.name(session.vaultPath))
    }

    /// Where the app's answers to the SSH agent go: the listener, once it listens.
    final class SSHAnswers: SSHApprovalClient {
        let listener = Mutex<SSHApprovalListener?>(nil)
        func answer(_ id: UInt64, _ answer: SSHApprovalAnswer) { listener.withLock { $0 }?.answer(id, answer) }
    }

    /// `start`: sent once the store is made (an unlock the agent's key already did).
    /// `sshQuestionsFor`: the vault (the agent's name for it) whose SSH agent's questions the app takes (`bulwark open`'s; no demo's).
    static func runApp(state initial: AppState, session: AppSession, parsed: ParsedCommandLine, start: AppAction? = nil, autoplay: Autoplay? = nil,
                       finish: BulwarkTerminal.RunLoop.AutoplayFinish = .exit,
                       autoplayEnd: ((BulwarkTerminal.RunLoop.AutoplayEnd) -> Void)? = nil, sshQuestionsFor: String? = nil) -> Int32 {
        // USB security keys through libfido2; an autoplay stays the same whatever is plugged in.
        if autoplay == nil { session.securityKeyProvider = FIDO2Keys() }
        // The config file's times apply to the demo as to your own vault.
        var state = initial
        let config = try? Output.configuration(parsed).get()
        if let config {
            state.lockAfter = config.lockAfterMinutes * 60
            state.revealFor = config.revealSeconds
            state.confirmServiceChanges = config.confirmServiceChanges
            state.clipboardFor = config.clipboardSeconds
            state.generatorChoice = config.generator
        }
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal(allowColor: !noColor, symbols: config?.symbols, mouse: config?.mouse ?? true)
        } catch let error as TerminalError {
            Output.stderr(error.description + "\n")
            return error.exitCode
        } catch {
            Output.stderr("bulwark: \(error)\n")
            return 1
        }
        let answers = SSHAnswers()
        var environment = AppEnvironment(session: session)
        environment.approvals = answers
        let store = Store(state: state, environment: environment)
        if let start { store.send(start) }
        // Another app open on a vault already takes the questions: this one does without.
        if let vault = sshQuestionsFor {
            let inbox = store.inbox
            let listener = try? SSHApprovalListener(vault: vault, ask: { inbox.post(.sshApproval(.asked($0))) },
                                                    withdrawn: { inbox.post(.sshApproval(.withdrawn($0))) })
            answers.listener.withLock { $0 = listener }
        }
        defer { answers.listener.withLock { $0 }?.stop() }
        let size = terminal.size
        var recorder: AsciicastRecorder?
        if parsed.takes("--record"), let path = parsed.value("--record") {  // demo records; open does not
            do { recorder = try AsciicastRecorder(path: path, width: size.width, height: size.height, title: "bulwark demo",
                                                  version: AutoplayCommand.castVersion(parsed)) } catch {
                terminal.close()
                Output.error("--record: cannot write \(path).")
                return 1
            }
        }
        defer { recorder?.close() }
        // `make bench` asks for the start-up figure: report it after the first frame and stop.
        let report = ProcessInfo.processInfo.environment["BULWARK_REPORT_FIRST_FRAME"] == "1"
        return BulwarkTerminal.RunLoop.run(store: store, terminal: terminal, autoplay: autoplay, finish: finish, recorder: recorder,
                                           autoplayEnd: autoplayEnd, afterFirstFrame: report ? {
            let total = Date().timeIntervalSince(processStart)
            Output.stderr(String(format: "first_frame_ms=%.2f unlock_ms=%.2f first_frame_at=%.6f\n", total * 1000, DemoCommand.unlockSeconds * 1000,
                                 Date().timeIntervalSince1970))
            return true
        } : nil)
    }
}
