import BulwarkCore
import Foundation

/// An app transferred to another developer team, as Apple's Sign in with
/// Apple handles it: the old team-scoped user ids report `transferred`;
/// the old team asks for each user's transfer identifier, the new team
/// exchanges it for the user's id under the new team, and the service's
/// backend moves the account over. Nothing is lost and no one signs up
/// again. The transfer lives in the identity provider's state, so every
/// later run sees the service under its new app id (and the service's
/// sites list it, as the new owner must make them).
extension MockIdentityProvider {
    /// Each transferred service's app id now, and before: (service id, new app id, old app id).
    public func appTransfers() throws -> [(service: String, appID: String, oldAppID: String)] {
        return try db.query("SELECT service, app_id, old_app_id FROM app_transfers").compactMap { row in
            guard let service = row[0].text, let appID = row[1].text, let old = row[2].text else { return nil }
            return (service, appID, old)
        }
    }

    /// Moves a service's app to `newTeam`; returns how many users got a transfer identifier.
    public func transfer(_ manifest: ServiceManifest, toTeam newTeam: String) throws -> Int {
        let bundle = manifest.appID.split(separator: ".", maxSplits: 1).last.map(String.init) ?? manifest.id
        let oldTeam = manifest.teamID
        var moved = 0
        for row in try db.query("SELECT apple_id, user FROM users WHERE team = ? AND state != 'transferred'", [.text(oldTeam)]) {
            guard let appleID = row[0].text, let oldUser = row[1].text else { continue }
            let newUser = try account(appleID: appleID, team: newTeam).user
            try db.query("INSERT OR REPLACE INTO user_transfers(transfer_sub, old_user, old_team, new_user, new_team) VALUES (?, ?, ?, ?, ?)",
                         [.text("t" + SecureRandom.bytes(16).hex), .text(oldUser), .text(oldTeam), .text(newUser), .text(newTeam)])
            try db.query("UPDATE users SET state = 'transferred' WHERE user = ? AND team = ?", [.text(oldUser), .text(oldTeam)])
            try db.query("UPDATE users SET named = 1 WHERE user = ? AND team = ?", [.text(newUser), .text(newTeam)])
            moved += 1
        }
        let original = try db.query("SELECT old_app_id FROM app_transfers WHERE service = ?", [.text(manifest.id)]).first?[0].text ?? manifest.appID
        try db.query("INSERT OR REPLACE INTO app_transfers(service, app_id, old_app_id) VALUES (?, ?, ?)",
                     [.text(manifest.id), .text("\(newTeam).\(bundle)"), .text(original)])
        return moved
    }

    /// The old team's call: a user's transfer identifier.
    public func transferIdentifier(user: String, team: String) throws -> String? {
        return try db.query("SELECT transfer_sub FROM user_transfers WHERE old_user = ? AND old_team = ?", [.text(user), .text(team)]).first?[0].text
    }

    /// The new team's call: the user's id under the new team, for a transfer identifier.
    public func migratedUser(transferIdentifier: String, team: String) throws -> String? {
        return try db.query("SELECT new_user FROM user_transfers WHERE transfer_sub = ? AND new_team = ?",
                            [.text(transferIdentifier), .text(team)]).first?[0].text
    }

    /// Whether a user id is one `team` got by a transfer (and must migrate).
    func wasTransferred(user: String, to team: String) throws -> Bool {
        guard let oldTeam = try transferredFrom(user: user), let transferID = try transferIdentifier(user: user, team: oldTeam) else { return false }
        return try migratedUser(transferIdentifier: transferID, team: team) != nil
    }

    /// The team a user id was transferred from, when it was.
    func transferredFrom(user: String) throws -> String? {
        return try db.query("SELECT old_team FROM user_transfers WHERE old_user = ?", [.text(user)]).first?[0].text
    }
}

extension MockBackend {
    /// Moves a transferred user's account to the id the new team knows,
    /// through the transfer identifier; returns the new id, or nil when the
    /// user was not transferred.
    public func migrate(appleUser oldUser: String) throws -> String? {
        guard let oldTeam = try identityProvider.transferredFrom(user: oldUser),
              let transferID = try identityProvider.transferIdentifier(user: oldUser, team: oldTeam),
              let newUser = try identityProvider.migratedUser(transferIdentifier: transferID, team: manifest.teamID) else { return nil }
        try db.query("UPDATE accounts SET apple_user = ? WHERE apple_user = ?", [.text(newUser), .text(oldUser)])
        try db.query("DELETE FROM apple_tokens WHERE apple_user = ?", [.text(oldUser)])
        return newUser
    }
}

extension ServiceCatalog {
    /// The catalog after app transfers: each service under its new app id,
    /// and its sites' files listing that id instead of the old one.
    public func applying(_ transfers: [(service: String, appID: String, oldAppID: String)]) -> ServiceCatalog {
        guard !transfers.isEmpty else { return self }
        var manifests = self.manifests
        var sites = self.sites
        for transfer in transfers {
            guard let index = manifests.firstIndex(where: { $0.id == transfer.service }) else { continue }
            manifests[index].appID = transfer.appID
            for domain in manifests[index].domains.map(ServiceManifest.base) {
                guard let file = sites[domain] else { continue }
                sites[domain] = SiteAssociation(webCredentialApps: file.webCredentialApps.map { $0 == transfer.oldAppID ? transfer.appID : $0 },
                                                appLinks: file.appLinks.map { detail in
                                                    AppLinkDetail(appIDs: detail.appIDs.map { $0 == transfer.oldAppID ? transfer.appID : $0 }, components: detail.components)
                                                })
            }
        }
        return ServiceCatalog(manifests: manifests, sites: sites, providers: providers, sharedCredentialGroups: sharedCredentialGroups)
    }
}
