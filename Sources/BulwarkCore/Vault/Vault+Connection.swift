import Foundation

extension Vault {
    /// Another connection to this vault's file with the same key, for work
    /// that must not hold this one (a sync over the network in the app):
    /// what it writes reaches this object as another writer's change does.
    public func anotherConnection() throws -> Vault {
        try guarded {
            guard wrappedKey.count > 0 else { throw VaultError.locked }
            let database: SQLiteDatabase
            do {
                database = try SQLiteDatabase(path: path.path, create: false)
                try Vault.configure(database, path: path)
            } catch let failure as SQLiteDatabase.Failure {
                throw VaultError(failure, whileReading: "the database file is unreadable")
            }
            return try database.readTransaction {
                let header = try Header.read(from: database)
                guard header.vaultID == vaultID, header.wrappedKey == wrappedKey, header.schema == Vault.schemaVersion else {
                    throw VaultError.keyChanged
                }
                let other = Vault(path: path, database: database, vaultID: vaultID, key: key, wrappedKey: wrappedKey,
                                  parameters: header.parameters, freshness: freshness)
                other.backupPolicy = backupPolicy
                other.replica = replica
                try other.load()
                other.lastDataVersion = try database.dataVersion()
                return other
            }
        }
    }
}
