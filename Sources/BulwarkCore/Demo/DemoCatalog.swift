/// The accounts of the demo, as list rows. The demo issue turns these into
/// a real embedded vault; until then they give the skeleton something true
/// to show. Every site is under `.example` (RFC 2606), never a real domain.
public enum DemoCatalog {
    public static let entries: [EntrySummary] = [
        EntrySummary(id: "d01", title: "Northwind Bank", username: "jane@mail.example", site: "bank.northwind.example", category: .finance),
        EntrySummary(id: "d02", title: "Fastmail", username: "jane@mail.example", site: "fastmail.example", category: .email),
        EntrySummary(id: "d03", title: "Shiny", username: "jane.appleseed", site: "shiny.example", category: .shopping),
        EntrySummary(id: "d04", title: "City Health Portal", username: "jappleseed", site: "health.city.example", category: .health),
        EntrySummary(id: "d05", title: "Tax Office", username: "J-4471-22", site: "tax.gov.example", category: .government),
        EntrySummary(id: "d06", title: "Grocer", username: "jane@mail.example", site: "grocer.example", category: .shopping),
        EntrySummary(id: "d07", title: "Bird Scooters", username: "jane@mail.example", site: "birdscooters.example", category: .other),
        EntrySummary(id: "d08", title: "Forum", username: "janea", site: "forum.example", category: .social),
        EntrySummary(id: "d09", title: "Old Game", username: "xXjaneXx", site: "oldgame.example", category: .other),
        EntrySummary(id: "d10", title: "Work SSO", username: "jane.appleseed@corp.example", site: "sso.corp.example", category: .work),
        EntrySummary(id: "d11", title: "Identity Cloud", username: "jane@mail.example", site: "id.cloud.example", category: .identity),
        EntrySummary(id: "d12", title: "Chirp", username: "@jane", site: "chirp.example", category: .social),
    ]
}
