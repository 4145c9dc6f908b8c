#!/usr/bin/env python3
"""Writes the import fixtures that cannot be typed by hand, each from its
format's published description, with libraries independent of bulwark's
(Python's zipfile, `cryptography` and `argon2-cffi` from PyPI). Run once
and commit the output; the tests read the files and need no Python.

  pip install cryptography argon2-cffi && python3 make-fixtures.py

1password.1pux: a ZIP holding export.attributes and export.data, in the
shape 1Password 8 writes (the item fields and category numbers as
Bitwarden's and KeePassXC's 1PUX importers read them: bitwarden/clients
libs/importer/src/importers/onepassword/types/onepassword-1pux-importer-types.ts
and the spec data beside it), plus a files/ member for a document.

bitwarden-pbkdf2.json, bitwarden-argon2id.json: Bitwarden's
"password protected" export (bitwarden/clients
bitwarden-password-protected-importer.ts; the key derivation and HKDF
stretch as in bitwarden/sdk-internal bitwarden-crypto keys/utils.rs):
key = PBKDF2-SHA256(password, salt text) or Argon2id(password,
SHA-256(salt text)); enc/mac = HKDF-Expand(key, "enc"/"mac", 32); each
value "2." + b64(iv) | b64(AES-256-CBC) | b64(HMAC-SHA256(mac, iv+ct)).
Password for both: "correct horse battery staple".

kdbx4-template.kdbx (not written by this script): an empty KDBX 4.0
database (Argon2d, AES-256, password "pw") written by pykeepass 4.1's
create_database, an implementation independent of KeePassXC and of
bulwark. The tests merge a KeePassXC database into a copy of it with
`keepassxc-cli merge`, so that KeePassXC itself writes a KDBX 4 file
(keepassxc-cli 2.7.4 creates KDBX 3.1 databases).
"""
import base64, hashlib, hmac, json, os, zipfile
from cryptography.hazmat.primitives import hashes, padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand
from argon2.low_level import hash_secret_raw, Type

HERE = os.path.dirname(os.path.abspath(__file__))

def field(title, id, value, **extra):
    return dict(title=title, id=id, value=value, guarded=False, multiline=False, dontGenerate=False,
                inputTraits=dict(keyboard="default", correction="default", capitalization="default"), **extra)

items = [
    dict(uuid="login1", favIndex=1, createdAt=1635522833, updatedAt=1635522872, state="active", categoryUuid="001",
         details=dict(
             loginFields=[
                 dict(value="jane@mail.example", id="", name="email", fieldType="E", designation="username"),
                 dict(value="current-Passw0rd!", id="", name="password", fieldType="P", designation="password"),
                 dict(value="✓", id="remember", name="remember", fieldType="C"),
                 dict(value="4711", id="pin", name="pin", fieldType="P"),
             ],
             notesPlain="Two factor on.\nSecond line, with a comma.",
             sections=[dict(title="Saved on mail.example", name="Section_a", fields=[
                 field("one-time password", "TOTP_abc", dict(totp="otpauth://totp/Mail:jane?secret=JBSWY3DPEHPK3PXP&issuer=Mail")),
                 field("recovery code", "rc", dict(concealed="ABCD-EFGH")),
                 field("security question", "sq", dict(string="first pet")),
                 field("backup codes", "bc", dict(file=dict(fileName="codes.txt", documentId="f2", decryptedSize=10))),
             ])],
             passwordHistory=[dict(value="older-pass-1", time=1635522854), dict(value="oldest-pass", time=1635522848)],
         ),
         overview=dict(subtitle="jane@mail.example", title="Mail", url="https://mail.example",
                       urls=[dict(label="website", url="https://mail.example"), dict(label="", url="https://www.google.com/maps/@48.85,2.29,17z")],
                       tags=["Work/Accounts", "personal"], ps=54, pbe=0.0, pgrng=False)),
    dict(uuid="card1", favIndex=0, createdAt=1600000000, updatedAt=1600000100, state="active", categoryUuid="002",
         details=dict(loginFields=[], notesPlain="", sections=[dict(title="", name="", fields=[
             field("cardholder name", "cardholder", dict(string="Jane Appleseed")),
             field("type", "type", dict(creditCardType="visa")),
             field("number", "ccnum", dict(creditCardNumber="4111111111111111")),
             field("verification number", "cvv", dict(concealed="123")),
             field("expiry date", "expiry", dict(monthYear=202712)),
             field("valid from", "validFrom", dict(monthYear=202012)),
         ])], passwordHistory=[]),
         overview=dict(subtitle="4111 ********1111", title="Visa", url="", ps=0, pbe=0.0, pgrng=False)),
    dict(uuid="note1", favIndex=0, createdAt=1600000000, updatedAt=1600000000, state="active", categoryUuid="003",
         details=dict(loginFields=[], notesPlain="The Wi-Fi key is on the router.", sections=[], passwordHistory=[]),
         overview=dict(subtitle="", title="Home notes", url="", ps=0, pbe=0.0, pgrng=False)),
    dict(uuid="id1", favIndex=0, createdAt=1600000000, updatedAt=1600000000, state="active", categoryUuid="004",
         details=dict(loginFields=[], notesPlain="", sections=[
             dict(title="Identification", name="name", fields=[
                 field("first name", "firstname", dict(string="Jane")),
                 field("last name", "lastname", dict(string="Appleseed")),
                 field("birth date", "birthdate", dict(date=631152000)),
             ]),
             dict(title="Address", name="address", fields=[
                 field("address", "address", dict(address=dict(street="1 Main St", city="Springfield", country="us", zip="12345", state="IL"))),
                 field("email", "email", dict(email=dict(email_address="jane@mail.example", provider=None))),
             ]),
         ], passwordHistory=[]),
         overview=dict(subtitle="Jane Appleseed", title="Jane's identity", url="", ps=0, pbe=0.0, pgrng=False)),
    dict(uuid="pw1", favIndex=0, createdAt=1600000000, updatedAt=1600000000, state="archived", categoryUuid="005",
         details=dict(loginFields=[], notesPlain="", sections=[], passwordHistory=[], password="bare-password"),
         overview=dict(subtitle="", title="Router admin", url="", ps=0, pbe=0.0, pgrng=False)),
    dict(uuid="srv1", favIndex=0, createdAt=1600000000, updatedAt=1600000000, state="active", categoryUuid="110",
         details=dict(loginFields=[], notesPlain="", sections=[dict(title="", name="", fields=[
             field("URL", "url", dict(string="ssh://10.0.0.1")),
             field("username", "username", dict(string="root")),
             field("password", "password", dict(concealed="srv-pass")),
         ])], passwordHistory=[]),
         overview=dict(subtitle="", title="Build server", url="", ps=0, pbe=0.0, pgrng=False)),
    dict(uuid="doc1", favIndex=0, createdAt=1600000000, updatedAt=1600000000, state="active", categoryUuid="006",
         details=dict(loginFields=[], notesPlain="scan", sections=[], passwordHistory=[],
                      documentAttributes=dict(fileName="passport.pdf", documentId="d1", decryptedSize=4)),
         overview=dict(subtitle="", title="Passport scan", url="", ps=0, pbe=0.0, pgrng=False)),
    dict(uuid="gone1", favIndex=0, createdAt=1600000000, updatedAt=1600000000, state="active", trashed=True, categoryUuid="001",
         details=dict(loginFields=[dict(value="x", id="", name="password", fieldType="P", designation="password")], sections=[]),
         overview=dict(subtitle="", title="Deleted login", url="https://gone.example", ps=0, pbe=0.0, pgrng=False)),
]
export = dict(accounts=[dict(
    attrs=dict(accountName="Jane", name="Jane", avatar="", email="jane@mail.example", uuid="ACC1", domain="https://my.1password.com/"),
    vaults=[dict(attrs=dict(uuid="v1", desc="", avatar="", name="Personal", type="P"), items=items[:6]),
            dict(attrs=dict(uuid="v2", desc="", avatar="", name="Shared", type="U"), items=items[6:])])])
with zipfile.ZipFile(os.path.join(HERE, "1password.1pux"), "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("export.attributes", json.dumps(dict(version=3, description="1Password Unencrypted Export", createdAt=1700000000)))
    z.writestr("export.data", json.dumps(export, indent=2, ensure_ascii=False))
    z.writestr("files/d1__passport.pdf", b"%PDF")
    z.writestr("files/f2__codes.txt", b"1111-2222\n")

plain = dict(encrypted=False, folders=[dict(id="f1", name="Money/Banks")], items=[
    dict(id="i1", organizationId=None, folderId="f1", type=1, reprompt=0, name="Northwind", notes="pin 1234", favorite=True,
         fields=[dict(name="Customer no", value="987", type=0, linkedId=None)],
         login=dict(uris=[dict(match=None, uri="https://bank.northwind.example")], username="jane", password="bank-Pass-1",
                    totp="steam://JBSWY3DPEHPK3PXP", fido2Credentials=[]),
         collectionIds=None, creationDate="2023-01-02T03:04:05.000Z", revisionDate="2024-05-06T07:08:09.000Z", deletedDate=None,
         passwordHistory=[dict(lastUsedDate="2023-06-01T00:00:00.000Z", password="bank-old-1")]),
    dict(id="i2", organizationId=None, folderId=None, type=2, reprompt=0, name="Door code", notes="4711#", favorite=False,
         secureNote=dict(type=0), collectionIds=None, creationDate="2023-01-02T03:04:05.000Z",
         revisionDate="2023-01-02T03:04:05.000Z", deletedDate=None, passwordHistory=None),
])

# bitwarden-attachments.zip: the export with attachments as Bitwarden's
# clients write it: data.json, then attachments/ITEM-ID/FILE-NAME.
with zipfile.ZipFile(os.path.join(HERE, "bitwarden-attachments.zip"), "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("data.json", json.dumps(plain, indent=2))
    z.writestr("attachments/i1/statement.pdf", b"%PDF-1.4 statement")
    z.writestr("attachments/i1/codes.txt", b"1111-2222\n")
    z.writestr("attachments/i2/codes.txt", b"1111-2222\n")

def b64(b): return base64.b64encode(b).decode()

def seal(data, enc, mac):
    iv = os.urandom(16)
    padder = padding.PKCS7(128).padder()
    body = padder.update(data) + padder.finalize()
    ct = Cipher(algorithms.AES(enc), modes.CBC(iv)).encryptor()
    ct = ct.update(body) + ct.finalize()
    tag = hmac.new(mac, iv + ct, hashlib.sha256).digest()
    return "2." + b64(iv) + "|" + b64(ct) + "|" + b64(tag)

def protected(kdf_type, password="correct horse battery staple"):
    salt = b64(os.urandom(16))
    doc = dict(encrypted=True, passwordProtected=True, salt=salt, kdfType=kdf_type)
    if kdf_type == 0:
        doc["kdfIterations"] = 600000
        key = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), 600000, 32)
    else:
        doc.update(kdfIterations=3, kdfMemory=64, kdfParallelism=4)
        key = hash_secret_raw(password.encode(), hashlib.sha256(salt.encode()).digest(), time_cost=3, memory_cost=64 * 1024,
                              parallelism=4, hash_len=32, type=Type.ID)
    enc = HKDFExpand(algorithm=hashes.SHA256(), length=32, info=b"enc").derive(key)
    mac = HKDFExpand(algorithm=hashes.SHA256(), length=32, info=b"mac").derive(key)
    doc["encKeyValidation_DO_NOT_EDIT"] = seal(b"0f0e8c1e-7a5f-4bd4-9f2b-3a1c9f0e2d11", enc, mac)
    doc["data"] = seal(json.dumps(plain).encode(), enc, mac)
    return doc

for name, kdf in [("bitwarden-pbkdf2.json", 0), ("bitwarden-argon2id.json", 1)]:
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(protected(kdf), f, indent=2)
