import Foundation

/// The FIDO Alliance's Credential Exchange Format 1.0 (Proposed Standard,
/// 14 August 2025, with the errata of March 2026): the names of its
/// credential members and the labels bulwark keeps them under, one table
/// for reading and writing. A card's and an identity's labels are the ones
/// bulwark's Bitwarden import and export use (`BitwardenJSON.kindFields`),
/// so an entry moves between the formats with its fields in their places.
enum CXFFields {
    /// One member of a credential: its CXF name, its field type, bulwark's label, and whether it is hidden.
    struct Member {
        let key: String
        let fieldType: String
        let label: String
        let hidden: Bool
        init(_ key: String, _ fieldType: String, _ label: String, hidden: Bool = false) {
            self.key = key
            self.fieldType = fieldType
            self.label = label
            self.hidden = hidden
        }
    }

    static let version = "1.0"

    /// `credit-card`: the expiry is read apart (a `year-month` is bulwark's month and year).
    static let creditCard: [Member] = [
        Member("fullName", "string", "Cardholder name"), Member("cardType", "string", "Brand"),
        Member("number", "concealed-string", "Number", hidden: true), Member("verificationNumber", "concealed-string", "Security code", hidden: true),
        Member("pin", "concealed-string", "PIN", hidden: true), Member("validFrom", "year-month", "Valid from"),
    ]

    static let personName: [Member] = [
        Member("title", "string", "Title"), Member("given", "string", "First name"), Member("given2", "string", "Middle name"),
        Member("surname", "string", "Last name"), Member("givenInformal", "string", "Nickname"), Member("surnamePrefix", "string", "Surname prefix"),
        Member("surname2", "string", "Second surname"), Member("credentials", "string", "Credentials"), Member("generation", "string", "Generation"),
    ]

    /// `territory` and `country` are ISO 3166 codes in CXF; bulwark's
    /// State and Country are whatever the person typed, written as codes
    /// only when they are codes (else as custom fields).
    static let address: [Member] = [
        Member("streetAddress", "string", "Address 1"), Member("city", "string", "City"), Member("territory", "subdivision-code", "State"),
        Member("postalCode", "string", "Postal code"), Member("country", "country-code", "Country"), Member("tel", "string", "Phone"),
    ]

    /// What an identity document and a passport both say of the person and the document.
    static let onDocument: [Member] = [
        Member("issuingCountry", "country-code", "Issuing country"), Member("nationality", "string", "Nationality"),
        Member("fullName", "string", "Full name"), Member("birthDate", "date", "Birth date"), Member("birthPlace", "string", "Birth place"),
        Member("sex", "string", "Sex"), Member("issueDate", "date", "Issue date"), Member("expiryDate", "date", "Expiry date"),
        Member("issuingAuthority", "string", "Issuing authority"),
    ]

    static let identityDocument: [Member] = [
        Member("documentNumber", "string", "Document number", hidden: true), Member("identificationNumber", "string", "Identification number", hidden: true),
    ] + onDocument

    static let passport: [Member] = [
        Member("passportNumber", "string", "Passport number", hidden: true), Member("passportType", "string", "Passport type"),
        Member("nationalIdentificationNumber", "string", "Identification number", hidden: true),
    ] + onDocument

    static let driversLicense: [Member] = [
        Member("licenseNumber", "string", "Licence number", hidden: true), Member("licenseClass", "string", "Licence class"),
        Member("fullName", "string", "Full name"), Member("birthDate", "date", "Birth date"), Member("issueDate", "date", "Issue date"),
        Member("expiryDate", "date", "Expiry date"), Member("issuingAuthority", "string", "Issuing authority"),
        Member("territory", "subdivision-code", "State"), Member("country", "country-code", "Country"),
    ]

    static let wifi: [Member] = [
        Member("ssid", "string", "SSID"), Member("networkSecurityType", "wifi-network-security-type", "Security"),
        Member("hidden", "boolean", "Hidden network"),
    ]

    static let apiKey: [Member] = [
        Member("key", "concealed-string", "API key", hidden: true), Member("keyType", "string", "Key type"),
        Member("validFrom", "date", "Valid from"), Member("expiryDate", "date", "Expiry date"),
    ]

    static let sshKey: [Member] = [
        Member("creationDate", "date", "Created"), Member("expiryDate", "date", "Expiry date"),
        Member("keyGenerationSource", "string", "Key source"),
    ]

    /// bulwark's own values with no place in CXF, as custom fields of these labels (read back on import).
    static let historyLabel = "bulwark:history", categoryLabel = "bulwark:category", codeLabel = "bulwark:totp"

    /// The order bulwark keeps an identity's fields in (Bitwarden's), whatever credential each came from.
    static let identityOrder: [String] = (BitwardenJSON.kindFields[.identity]?.fields.map(\.label) ?? [])
        + (personName + address + identityDocument + passport + driversLicense).map(\.label)
    static let cardOrder: [String] = (BitwardenJSON.kindFields[.card]?.fields.map(\.label) ?? []) + creditCard.map(\.label)
}
