import CHardening
import BulwarkCore
import Foundation

func printError(_ text: String) {
    Output.stderr(text)
}

func runMain(_ args: [String]) -> Int32 {
    let parsed: ParsedCommandLine
    do {
        parsed = try CommandLineParser.parse(args)
    } catch {
        printError("bulwark: \(error.message)\n\n" + (error.command.map { "Usage: \($0.usage)\n'bulwark help \($0.name)' shows its options.\n" } ?? Usage.main))
        return 2
    }
    if parsed.wantsVersion {
        print("bulwark \(Usage.version)")
        return 0
    }
    guard let command = parsed.command else {
        if parsed.wantsHelp {
            print(Usage.main, terminator: "")
            return 0
        }
        printError(Usage.main)
        return 2
    }
    if parsed.wantsHelp, let spec = Commands.named(command) {
        print(spec.helpText, terminator: "")
        return 0
    }
    switch command {
    case "help":
        guard let name = parsed.arguments.first else {
            print(Usage.main, terminator: "")
            return 0
        }
        guard let spec = Commands.named(name) else {
            printError("bulwark: unknown command '\(name)'.\n\n" + Usage.main)
            return 2
        }
        print(spec.helpText, terminator: "")
        return 0
    case "demo":
        return DemoCommand.run(parsed)
    case "open":
        return AppCommand.open(parsed)
    case "generate":
        return GenerateCommand.run(parsed)
    case "rules":
        return RulesCommand.run(parsed)
    case "code":
        return CodeCommand.run(parsed)
    case "init": return VaultCommands.initialize(parsed)
    case "list": return VaultCommands.list(parsed)
    case "show": return VaultCommands.show(parsed)
    case "get": return GetCommand.run(parsed)
    case "git-credential": return GitCredentialCommand.run(parsed)
    case "unlock": return AgentCommand.unlock(parsed)
    case "lock": return AgentCommand.lock(parsed)
    case "agent": return AgentCommand.run(parsed)
    case "ssh-agent": return SSHCommands.agent(parsed)
    case "ssh-key": return SSHCommands.key(parsed)
    case "add": return VaultCommands.add(parsed)
    case "edit": return VaultCommands.edit(parsed)
    case "rm": return VaultCommands.remove(parsed)
    case "attach": return AttachmentCommand.attach(parsed)
    case "attachment": return AttachmentCommand.run(parsed)
    case "passwd": return VaultCommands.passwd(parsed)
    case "check": return RescueCommands.check(parsed)
    case "recover": return RescueCommands.recover(parsed)
    case "restore": return RescueCommands.restore(parsed)
    case "import": return TransferCommands.importFile(parsed)
    case "export": return TransferCommands.exportFile(parsed)
    case "analyze": return AnalyzeCommand.run(parsed)
    case "hide": return HideCommand.run(parsed, hide: true)
    case "unhide": return HideCommand.run(parsed, hide: false)
    case "upgrade": return UpgradeCommand.run(parsed)
    case "signin": return UpgradeCommand.signIn(parsed)
    case "services": return ServicesCommand.services(parsed)
    case "open-link": return OpenLinkCommand.run(parsed)
    case "watch": return WatchCommand.run(parsed)
    case "code-setup": return CodeSetupCommand.run(parsed)
    case "passkey": return PasskeyCommand.run(parsed)
    case "doctor": return DoctorCommand.run(parsed)
    case "sync": return SyncCommand.run(parsed)
    case "completions": return InstallCommands.completions(parsed)
    case "manpages": return InstallCommands.manpages(parsed)
    default:
        printError(Usage.main)
        return 2
    }
}

/// When the process started, for the start-up figure `make bench` reports.
let processStart = Date()

// Every file bulwark makes (vault, journals, service state) is the owner's alone.
umask(0o077)
// Any command may unlock the vault: no core dump, not dumpable, from the start.
if bw_forbid_core_dumps() != 0 { Output.warning("core dumps could not be turned off; a crash could write secrets to disk.") }
// `get --copy`'s keeper, started by bulwark itself (not a command a person types).
if CommandLine.arguments.dropFirst().first == ClipboardHandOff.keeperCommand { exit(ClipboardHandOff.keep()) }
// Run by ssh-keygen as its askpass while `ssh-key import` opens a passphrase-protected key.
if let asked = SSHKeyDecryption.askpassIfAsked() { exit(asked) }
let status = runMain(Array(CommandLine.arguments.dropFirst()))
// A backup the app copies after a change is finished before the process ends.
Vault.finishBackups()
exit(status)
