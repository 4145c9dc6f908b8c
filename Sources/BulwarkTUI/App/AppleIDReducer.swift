import BulwarkCore
import BulwarkUpgrades
import Foundation

/// For demos: a change in the person's Apple ID settings sent to a service.
/// It holds no state: each action is only work for the client.
enum AppleIDReducer {
    static func reduce(_ action: AppleIDAction) -> Effect {
        switch action {
        case .event(let event, let title):
            return .run { env in
                guard let appleID = env.appleID, let vault = env.vault else { return nil }
                let line = appleID.sendAppleIDEvent(event, entryTitle: title)
                return .vault(.updated(vault.snapshot(), banner: Banner(ok: true, text: line)))
            }
        case .transferApp(let service, let team):
            return .run { env in
                guard let appleID = env.appleID, let vault = env.vault else { return nil }
                let line = appleID.transferApp(service: service, toTeam: team)
                return .vault(.updated(vault.snapshot(), banner: Banner(ok: true, text: line)))
            }
        }
    }
}
