import BulwarkCore
import BulwarkUpgrades
import Foundation

/// `bulwark open-link URL`: where a link goes, as a device with the
/// services' apps would send it (universal links): to the app when the
/// site's applinks cover it and the app claims the domain, else to the
/// website, said with the rule that decided. `--open` hands a website
/// route to the desktop's browser.
enum OpenLinkCommand {
    static let usage = "bulwark open-link URL [--json | --open]"

    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 1, !(parsed.flag("--json") && parsed.flag("--open")) else { Output.error("usage: \(usage)"); return 2 }
        let text = parsed.arguments[0]
        guard let link = URLComponents(string: text), link.scheme != nil, link.host?.isEmpty == false else {
            Output.error("\(TerminalText.visible(text)) is not a link (https://HOST/PATH).")
            return 2
        }
        let catalog: ServiceCatalog
        switch ServiceWiring.catalog(parsed, demo: true) {
        case .failure(let exit): return exit.code
        case .success(let loaded): catalog = loaded
        }
        let route = catalog.route(link: link)
        let shown = TerminalText.visible(text)
        switch route {
        case .app(let service, let name, let appID, let because):
            if parsed.flag("--json") {
                Output.json(["url": text, "route": "app", "service": service, "app_id": appID, "because": because])
            } else {
                print("\(shown) opens in \(name)'s app (\(appID)): \(because).")
            }
        case .website(let because):
            if parsed.flag("--json") {
                Output.json(["url": text, "route": "website", "because": because])
            } else {
                print("\(shown) opens in the browser: \(because).")
            }
            if parsed.flag("--open"), !DesktopOpener.open(text) {
                Output.error("no browser to open it with (xdg-open, or BULWARK_OPENER).")
                return 1
            }
        }
        return 0
    }
}
