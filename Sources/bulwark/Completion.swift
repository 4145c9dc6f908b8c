import BulwarkTUI
import BulwarkUpgrades
import Foundation

/// What a value or a positional argument completes to in a shell. The
/// command tables say it (or it follows from an option's value name), and
/// the bash, zsh and fish scripts are written from them, so a new option
/// reaches every shell. Entry titles are never offered: they would need
/// the vault unlocked.
enum Completion: Equatable {
    case nothing          // a secret or standard input: no suggestion
    case free             // any text the shell cannot guess
    case files
    case directories
    case words([String])
    case commands
    case scenarios
    case services

    /// The words to offer, for the kinds that are a list.
    var words: [String]? {
        switch self {
        case .words(let words): return words
        case .commands: return Commands.all.map(\.name)
        case .scenarios: return Self.scenarioNames
        case .services: return Self.serviceNames
        case .nothing, .free, .files, .directories: return nil
        }
    }

    static let scenarioNames: [String] = (try? AutoplayCommand.scenarios().map(\.name)) ?? []
    static let serviceNames: [String] = (try? ServiceCatalog.builtIn().manifests.map(\.id).sorted()) ?? []
}

extension OptionSpec {
    /// What the option's value completes to: as the table says, else from
    /// its value name (FILE, DIR, a|b choices).
    var completion: Completion {
        if let values { return values }
        guard let valueName else { return .nothing }
        switch valueName {
        case "FILE", "PATH", "IMAGE", "FILE.cast": return .files
        case "DIR": return .directories
        case "-": return .nothing
        default:
            let choices = valueName.split(separator: "|").map(String.init)
            return choices.count > 1 ? .words(choices) : .free
        }
    }
}

extension CommandSpec {
    /// What the positional argument at `index` completes to (the last
    /// kind repeats; none when the command takes none).
    func argument(at index: Int) -> Completion {
        guard !arguments.isEmpty else { return .nothing }
        return arguments[min(index, arguments.count - 1)]
    }
}
