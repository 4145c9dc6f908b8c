#!/usr/bin/env python3
"""Writes the Credential Exchange Format fixtures, each in the shape a
real exporter writes, with keys made by a library independent of
bulwark (`cryptography` from PyPI). Run once and commit the output.

  pip install cryptography && python3 make-cxf-fixtures.py

cxf-keepassxc.json: a Header as KeePassXC's CxfWriter writes it
(keepassxc src/format/CxfWriter.cpp): compact JSON, version {1, 0},
exporterRpId "keepassxc.org", the database as one account whose groups
are collections (sub-collections for sub-groups, each entry linked by
item and account id), entries as items with basic-auth (string and
concealed-string fields), totp, passkey, note and custom-fields.

cxf-bitwarden.json: a bare Account as Bitwarden's SDK writes it
(bitwarden/sdk-internal crates/bitwarden-exporters/src/cxf/export.rs):
no collections, "favorite" on every item, a login's scope, a card, an
identity, a secure note, custom fields of string, concealed-string and
boolean type.

cxf-archive.zip: a Header inside a ZIP with a documents/ member, holding
every other credential type CXF 1.0 defines (identity-document,
passport, drivers-license, wifi, ssh-key, api-key, generated-password,
item-reference, file), a type it does not define and an item extension.
"""
import base64, hashlib, json, os, zipfile
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519

HERE = os.path.dirname(os.path.abspath(__file__))

def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

def pkcs8(key):
    return key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())

def field(value, concealed=False, **extra):
    return dict(fieldType="concealed-string" if concealed else "string", value=value, **extra)

# A fixed P-256 key, so the fixture does not change when rewritten.
passkey_key = ec.derive_private_key(0x1F2E3D4C5B6A79880123456789ABCDEF0123456789ABCDEF0123456789ABCDEF, ec.SECP256R1())
ssh_key = ed25519.Ed25519PrivateKey.from_private_bytes(bytes(range(32)))

# KeePassXC: CxfWriter::write.
account_id = b64url(bytes.fromhex("6f1b0c2e9a8d4b5f8e7d6c5b4a392817"))
def kp_id(n):
    return b64url(bytes([n]) * 16)
keepassxc_items = [
    {"id": kp_id(1), "creationAt": 1700000000, "modifiedAt": 1700000500, "title": "Forum",
     "scope": {"urls": ["https://forum.example", "https://m.forum.example"], "androidApps": []}, "tags": ["chat", "old"],
     "credentials": [
         {"type": "basic-auth", "username": field("jane"), "password": field("Tr0ub4dor&3", True)},
         {"type": "totp", "secret": "JBSWY3DPEHPK3PXP", "period": 30, "digits": 6, "algorithm": "sha1", "username": "jane", "issuer": "Forum"},
         {"type": "passkey", "credentialId": b64url(bytes(range(16))), "rpId": "forum.example", "username": "jane",
          "userDisplayName": "jane", "userHandle": b64url(b"jane-handle"), "key": b64url(pkcs8(passkey_key))},
         {"type": "note", "content": field("Moderator since 2019.")},
         {"type": "custom-fields", "fields": [field("1234", True, label="PIN"), field("blue", label="Favourite colour")]},
     ]},
    {"id": kp_id(2), "creationAt": 1690000000, "modifiedAt": 1690000000, "title": "Router",
     "scope": {"urls": ["http://192.168.1.1"], "androidApps": []}, "tags": [],
     "credentials": [{"type": "basic-auth", "username": field("admin"), "password": field("admin", True)}]},
]
keepassxc = {
    "version": {"major": 1, "minor": 0}, "exporterRpId": "keepassxc.org", "exporterDisplayName": "KeePassXC", "timestamp": 1764000000,
    "accounts": [{
        "id": account_id, "username": "Household", "email": "", "items": keepassxc_items,
        "collections": [
            {"id": kp_id(10), "title": "Internet", "subtitle": "", "items": [{"item": kp_id(1), "account": account_id}],
             "subCollections": [{"id": kp_id(11), "title": "Home", "subtitle": "", "items": [{"item": kp_id(2), "account": account_id}],
                                 "subCollections": []}]},
        ],
    }],
}
with open(os.path.join(HERE, "cxf-keepassxc.json"), "w") as out:
    json.dump(keepassxc, out, separators=(",", ":"))

# Bitwarden: build_cxf and the cipher conversions (an Account, not a Header).
def bw_id(n):
    return b64url(bytes([0x25, 0xC8, 0xC4, n]) + bytes(12))
bitwarden = {
    "id": b64url(bytes.fromhex("e8d88789e916e1963cbd81dafae71bbc")), "username": "", "email": "jane@example.com", "fullName": "Jane Appleseed",
    "collections": [],
    "items": [
        {"id": bw_id(1), "creationAt": 1706613834, "modifiedAt": 1706623773, "title": "Bitwarden", "favorite": True,
         "scope": {"urls": ["https://vault.bitwarden.com"], "androidApps": []},
         "credentials": [
             {"type": "basic-auth", "username": field("test@bitwarden.com"), "password": field("asdfasdfasdf", True)},
             {"type": "totp", "secret": "JBSWY3DPEHPK3PXP", "period": 30, "digits": 6, "algorithm": "sha1"},
             {"type": "note", "content": field("My note")},
             {"type": "custom-fields", "fields": [field("A", label="Text"), field("B", True, label="Hidden"),
                                                   {"fieldType": "boolean", "value": "true", "label": "Boolean (true)"},
                                                   {"fieldType": "boolean", "value": "false", "label": "Boolean (false)"}]},
         ]},
        {"id": bw_id(2), "creationAt": 1706613834, "modifiedAt": 1706613834, "title": "Visa", "favorite": False,
         "credentials": [
             {"type": "credit-card", "number": field("4111111111111111", True), "fullName": field("Jane Appleseed"),
              "cardType": field("Visa"), "verificationNumber": field("123", True),
              "expiryDate": {"fieldType": "year-month", "value": "2028-04"}},
         ]},
        {"id": bw_id(3), "creationAt": 1706613834, "modifiedAt": 1706613834, "title": "Me", "favorite": False,
         "credentials": [
             {"type": "person-name", "title": field("Dr"), "given": field("Jane"), "given2": field("Q"), "surname": field("Appleseed")},
             {"type": "address", "streetAddress": field("1 Infinite Loop"), "city": field("Cupertino"),
              "territory": {"fieldType": "subdivision-code", "value": "US-CA"}, "postalCode": field("95014"),
              "country": {"fieldType": "country-code", "value": "US"}, "tel": field("+1 408 555 0100")},
             {"type": "identity-document", "identificationNumber": field("078-05-1120")},
         ]},
        {"id": bw_id(4), "creationAt": 1706613834, "modifiedAt": 1706613834, "title": "Wi-Fi codes", "favorite": False,
         "credentials": [{"type": "note", "content": field("Guest network: see the fridge.")}]},
    ],
}
with open(os.path.join(HERE, "cxf-bitwarden.json"), "w") as out:
    json.dump(bitwarden, out, separators=(",", ":"))

# Everything else CXF 1.0 defines, in a ZIP with a document beside it.
def item(n, title, credentials, **extra):
    return dict(id=b64url(bytes([0xA0, n]) * 8), creationAt=1710000000 + n, modifiedAt=1710000100 + n, title=title, credentials=credentials, **extra)
archive = {
    "version": {"major": 1, "minor": 0}, "exporterRpId": "example-exporter.com", "exporterDisplayName": "Example", "timestamp": 1764000000,
    "accounts": [{
        "id": b64url(b"account-1"), "username": "jane", "email": "jane@example.com", "collections": [],
        "items": [
            item(1, "Passport", [{"type": "passport", "passportNumber": field("X1234567"), "issuingCountry": {"fieldType": "country-code", "value": "NZ"},
                                  "expiryDate": {"fieldType": "date", "value": "2031-05-06"}, "fullName": field("Jane Appleseed")}]),
            item(2, "Driving licence", [{"type": "drivers-license", "licenseNumber": field("DL-99"), "licenseClass": field("B"),
                                         "territory": {"fieldType": "subdivision-code", "value": "US-CA"}}]),
            item(3, "National ID", [{"type": "identity-document", "documentNumber": field("ID-42"), "issueDate": {"fieldType": "date", "value": "2020-01-02"}}]),
            item(4, "Home Wi-Fi", [{"type": "wifi", "ssid": field("Appleseed"), "passphrase": field("correct horse battery", True),
                                    "networkSecurityType": {"fieldType": "wifi-network-security-type", "value": "wpa3-personal"},
                                    "hidden": {"fieldType": "boolean", "value": "false"}}]),
            item(5, "Deploy key", [{"type": "ssh-key", "keyType": "ssh-ed25519", "privateKey": b64url(pkcs8(ssh_key)), "keyComment": "jane@laptop",
                                    "creationDate": {"fieldType": "date", "value": "2024-02-03"}}]),
            item(6, "Weather API", [{"type": "api-key", "key": field("wk_live_0123456789", True), "keyType": field("bearer"),
                                     "url": field("https://api.weather.example"), "username": field("jane")}]),
            item(7, "New site", [{"type": "generated-password", "password": "g3n-Erated-Pw"}]),
            item(8, "Forum (alias)", [{"type": "item-reference", "reference": {"item": b64url(bytes([0xA0, 6]) * 8)}}]),
            item(9, "Scans", [{"type": "file", "id": b64url(b"file-1"), "name": "passport.pdf", "decryptedSize": 4, "integrityHash": b64url(hashlib.sha256(b"%PDF").digest())},
                              {"type": "file", "id": b64url(b"file-2"), "name": "tampered.txt", "decryptedSize": 3, "integrityHash": b64url(hashlib.sha256(b"xyz").digest())},
                              {"type": "note", "content": field("The scans are in the file.")}]),
            item(10, "Future", [{"type": "quantum-key", "qubits": 7}, {"type": "note", "content": field("From the future.")}],
                 extensions=[{"name": "example-colour", "colour": "teal"}]),
        ],
    }],
}
with zipfile.ZipFile(os.path.join(HERE, "cxf-archive.zip"), "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("index.json", json.dumps(archive))
    z.writestr("documents/" + b64url(b"file-1"), b"%PDF")
    z.writestr("documents/" + b64url(b"file-2"), b"abc")  # not the bytes its integrityHash names
