import BulwarkCore
import BulwarkUpgrades
import Foundation

/// What an analysis needs, from the config file and the flags: settings,
/// breach corpora, the quirks directory and the service manifests. Each
/// failure has already been reported when this returns one.
struct AnalysisContext {
    let config: Configuration
    let breaches: BreachCorpus
    let quirks: QuirksDirectory?
    let catalog: ServiceCatalog

    static func load(_ parsed: ParsedCommandLine) -> Result<AnalysisContext, ExitCode> {
        let config: Configuration, quirks: QuirksDirectory?, catalog: ServiceCatalog
        switch Output.configuration(parsed) {
        case .failure(let exit): return .failure(exit)
        case .success(let loaded): config = loaded
        }
        switch Output.loadQuirks(parsed) {
        case .failure(let exit): return .failure(exit)
        case .success(let loaded): quirks = loaded
        }
        switch ServiceWiring.catalog(parsed) {
        case .failure(let exit): return .failure(exit)
        case .success(let loaded): catalog = loaded
        }
        do {
            return .success(AnalysisContext(config: config, breaches: try BreachCorpus.load(paths: config.breachCorpora),
                                            quirks: quirks, catalog: catalog))
        } catch {
            Output.error("breach corpus: \(error)")
            return .failure(ExitCode(1))
        }
    }
}
