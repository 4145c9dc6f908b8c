import BulwarkCore
import BulwarkTUI
import BulwarkTerminal
import Foundation

enum DemoCommand {
    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal(allowColor: !noColor)
        } catch let error as TerminalError {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            return error.exitCode
        } catch {
            FileHandle.standardError.write(Data("bulwark: \(error)\n".utf8))
            return 1
        }
        let store = Store(state: AppState(entries: DemoCatalog.entries, lockLabel: "demo"))
        return RunLoop.run(store: store, terminal: terminal)
    }
}
