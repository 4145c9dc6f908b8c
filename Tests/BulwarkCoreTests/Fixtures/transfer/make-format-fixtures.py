#!/usr/bin/env python3
"""Writes one export per format bulwark reads beyond its first ones, each in
the shape its exporter writes today (column names, order, quoting, dates,
quirks), taken from the exporters' documentation and the public test data
of importers that read them (Bitwarden's clients, pass-import). The data is
our own. Run once and commit the output (Python's standard library only):

  python3 make-format-fixtures.py

Every file holds the same core: a login "Mail" (two addresses, a TOTP, a
note over two lines with a comma, a password with a quote and a comma, in
the folder Work/Servers), a secure note "Alarm code", and where the format
has them a card "Visa" and more.
"""
import csv, io, json, os, zipfile

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "formats")
os.makedirs(HERE, exist_ok=True)

PASSWORD = 'c0rrect "horse", battery'
NOTE = "first line\nsecond, with a comma"
TOTP = "otpauth://totp/Mail:jane?secret=JBSWY3DPEHPK3PXP&issuer=Mail"
CREATED, MODIFIED = 1700000000, 1700003600


def write(name, text, newline="\n"):
    with open(os.path.join(HERE, name), "w", newline="", encoding="utf-8") as f:
        f.write(text.replace("\n", newline) if newline != "\n" else text)


def csv_text(rows, quoting=csv.QUOTE_MINIMAL, lineterminator="\n"):
    out = io.StringIO()
    writer = csv.writer(out, quoting=quoting, lineterminator=lineterminator)
    for row in rows:
        writer.writerow(row)
    return out.getvalue()


# NordPass (Bitwarden's nordpass-csv-importer and its spec data): a folder is
# a row of type "folder"; custom fields and further addresses are JSON.
nordpass_header = ["name", "url", "additional_urls", "username", "password", "note", "cardholdername", "cardnumber", "cvc", "pin",
                   "expirydate", "zipcode", "folder", "full_name", "phone_number", "email", "address1", "address2", "city", "country",
                   "state", "type", "custom_fields"]
def nordpass(**values):
    return [values.get(column, "") for column in nordpass_header]
write("nordpass.csv", csv_text([nordpass_header,
    nordpass(name="Work/Servers", type="folder"),
    nordpass(name="Mail", url="https://mail.example.com", additional_urls='["https://webmail.example.com"]', username="jane@example.com",
             password=PASSWORD, note=NOTE, folder="Work/Servers", type="password",
             custom_fields='[{"label":"PIN","type":"hidden","value":"4321"},{"label":"Recovery e-mail","type":"text","value":"jane@home.example"}]'),
    nordpass(name="Alarm code", note="1234, then #", type="note"),
    nordpass(name="Visa", cardholdername="Jane Appleseed", cardnumber="4111111111111111", cvc="123", pin="9876", expirydate="09/28",
             zipcode="90210", type="credit_card"),
    nordpass(name="Jane", full_name="Jane Appleseed", phone_number="+1 555 0100", email="jane@example.com", address1="1 Main St",
             city="Springfield", country="US", type="identity"),
]))

# Dashlane today: a ZIP of CSVs (Bitwarden's dashlane-csv-importer and its types).
credentials = csv_text([["username", "username2", "username3", "title", "password", "note", "url", "category", "otpUrl"],
                        ["jane@example.com", "jane", "", "Mail", PASSWORD, NOTE, "https://mail.example.com", "Work/Servers", TOTP],
                        ["", "", "", "Old forum", "hunter2", "", "https://forum.example.org", "", ""]])
write("dashlane-credentials.csv", credentials)
with zipfile.ZipFile(os.path.join(HERE, "dashlane.zip"), "w", zipfile.ZIP_DEFLATED) as archive:
    archive.writestr("credentials.csv", credentials)
    archive.writestr("securenotes.csv", csv_text([["title", "note"], ["Alarm code", "1234, then #"]]))
    archive.writestr("payments.csv", csv_text([["type", "account_name", "account_holder", "cc_number", "code", "expiration_month",
                                                "expiration_year", "routing_number", "account_number", "country", "issuing_bank"],
                                               ["credit_card", "Visa", "Jane Appleseed", "4111111111111111", "123", "9", "2028", "", "", "US", ""]]))
    archive.writestr("ids.csv", csv_text([["type", "number", "name", "issue_date", "expiration_date", "place_of_issue", "state"],
                                          ["passport", "X1234567", "Jane Appleseed", "2020-1-2", "2030-1-1", "US", ""]]))
# Dashlane's older CSV: no header; title, address, login, password, note.
write("dashlane-old.csv", csv_text([["Mail", "https://mail.example.com", "jane@example.com", PASSWORD, NOTE],
                                    ["Alarm code", "", "", "", "1234, then #"]], quoting=csv.QUOTE_ALL))
# Dashlane's older JSON (pass-import's dashlane.json).
write("dashlane.json", json.dumps({
    "AUTHENTIFIANT": [{"domain": "https://mail.example.com", "email": "jane@example.com", "login": "jane", "note": NOTE,
                       "password": PASSWORD, "secondaryLogin": "", "title": "Mail"}],
    "SECURENOTE": [{"title": "Alarm code", "content": "1234, then #", "category": ""}],
    "PAYMENTMEANS_CREDITCARD": [{"name": "Visa", "owner": "Jane Appleseed", "cardNumber": "4111111111111111", "securityCode": "123",
                                 "expireMonth": "09", "expireYear": "2028"}],
}, indent=2))

# Keeper: no header; folder, title, login, password, address, notes, shared folder, then custom name/value pairs.
write("keeper.csv", csv_text([
    ["Work/Servers", "Mail", "jane@example.com", PASSWORD, "https://mail.example.com", NOTE, "", "TFC:Keeper", TOTP, "PIN", "4321"],
    ["", "Alarm code", "", "", "", "1234, then #", ""],
    ["Personal", "Forum", "jane", "hunter2", "https://forum.example.org", "", "Family"],
], quoting=csv.QUOTE_ALL))

# Proton Pass CSV (its web exporter): times in seconds, the vault last.
write("protonpass.csv", csv_text([
    ["type", "name", "url", "email", "username", "password", "note", "totp", "createTime", "modifyTime", "vault"],
    ["login", "Mail", "https://mail.example.com", "jane@home.example", "jane@example.com", PASSWORD, NOTE, TOTP, CREATED, MODIFIED, "Work"],
    ["note", "Alarm code", "", "", "", "", "1234, then #", "", CREATED, MODIFIED, "Personal"],
    ["alias", "Shopping alias", "", "shop.x1@passmail.net", "", "", "", "", CREATED, MODIFIED, "Personal"],
]))
# Proton Pass JSON inside its ZIP (Bitwarden's protonpass-json-importer types).
def proton_item(kind, name, content, note="", extra=None, state=1, pinned=False, alias=None):
    return {"itemId": name.replace(" ", "") + "id", "shareId": "share1", "state": state, "aliasEmail": alias, "contentFormatVersion": 6,
            "createTime": CREATED, "modifyTime": MODIFIED, "pinned": pinned,
            "data": {"metadata": {"name": name, "note": note, "itemUuid": name.replace(" ", "")}, "extraFields": extra or [], "type": kind,
                     "content": content}}
proton = {"version": "1.21.2", "userId": "user1", "encrypted": False, "vaults": {
    "share1": {"name": "Work", "description": "", "display": {"color": 1, "icon": 1}, "items": [
        proton_item("login", "Mail", {"itemEmail": "jane@home.example", "password": PASSWORD, "urls": ["https://mail.example.com", "https://webmail.example.com"],
                                      "totpUri": TOTP, "passkeys": [], "itemUsername": "jane@example.com"}, note=NOTE, pinned=True,
                    extra=[{"fieldName": "PIN", "type": "hidden", "data": {"content": "4321"}},
                           {"fieldName": "Recovery", "type": "text", "data": {"content": "jane@home.example"}}]),
        proton_item("creditCard", "Visa", {"cardholderName": "Jane Appleseed", "cardType": 0, "number": "4111111111111111",
                                           "verificationNumber": "123", "expirationDate": "2028-09", "pin": "9876"}),
        proton_item("login", "Deleted", {"itemEmail": "", "password": "x", "urls": [], "totpUri": "", "passkeys": [], "itemUsername": "old"}, state=2),
    ]},
    "share2": {"name": "Personal", "description": "", "display": {"color": 2, "icon": 2}, "items": [
        proton_item("note", "Alarm code", {}, note="1234, then #"),
        proton_item("alias", "Shopping alias", {}, alias="shop.x1@passmail.net"),
    ]},
}}
with zipfile.ZipFile(os.path.join(HERE, "protonpass.zip"), "w", zipfile.ZIP_DEFLATED) as archive:
    archive.writestr("Proton Pass/data.json", json.dumps(proton))

# RoboForm 9 (RfFieldsV2) and older (Rf_fields): the field list runs on past the header.
write("roboform.csv", csv_text([
    ["Name", "Url", "MatchUrl", "Login", "Pwd", "Note", "Folder", "RfFieldsV2"],
    ["Mail", "https://mail.example.com", "https://mail.example.com/login", "jane@example.com", PASSWORD, NOTE, "/Work/Servers",
     "User ID$,,,txt,jane@example.com", "Password$,,,pwd," + PASSWORD, "TOTP KEY$,,,txt," + TOTP, "PIN,,,pwd,4321"],
    ["Alarm code", "", "", "", "", "1234, then #", "/Personal", ""],
]))
write("roboform-v1.csv", csv_text([
    ["Name", "Url", "Login", "Pwd", "Note", "Folder", "Rf_fields"],
    ["Mail", "https://mail.example.com", "jane@example.com", PASSWORD, NOTE, "/Work/Servers",
     "User ID$:txt:jane@example.com", "Password$:pwd:" + PASSWORD, "Mother's maiden name:txt:Smith: of Springfield"],
]))

# Enpass 6 JSON.
enpass_field = lambda label, kind, value, sensitive=0, uid=1: {"label": label, "type": kind, "value": value, "sensitive": sensitive,
                                                                "order": uid, "uid": uid, "updated_at": MODIFIED, "value_updated_at": MODIFIED}
write("enpass.json", json.dumps({
    "folders": [{"uuid": "f-work", "title": "Work", "parent_uuid": "", "icon": "1008", "updated_at": MODIFIED},
                {"uuid": "f-servers", "title": "Servers", "parent_uuid": "f-work", "icon": "1008", "updated_at": MODIFIED}],
    "items": [
        {"title": "Mail", "category": "login", "template_type": "login.default", "favorite": 1, "trashed": 0, "archived": 0,
         "folders": ["f-servers"], "note": NOTE, "createdAt": CREATED, "updated_at": MODIFIED, "uuid": "i1", "subtitle": "jane@example.com",
         "fields": [enpass_field("Username", "username", "jane@example.com"), enpass_field("E-mail", "email", ""),
                    enpass_field("Password", "password", PASSWORD, 1), enpass_field("Website", "url", "https://mail.example.com"),
                    enpass_field("ADDITIONAL DETAILS", "section", ""), enpass_field("One-time code", "totp", TOTP),
                    enpass_field("Security answer", "text", "Smith", 1), enpass_field("Old", "text", "gone", 0) | {"deleted": 1}],
         "attachments": [{"name": "recovery.pdf", "kind": "application/pdf"}]},
        {"title": "Alarm code", "category": "note", "template_type": "note.default", "favorite": 0, "trashed": 0, "archived": 0,
         "folders": [], "note": "1234, then #", "createdAt": CREATED, "updated_at": MODIFIED, "uuid": "i2", "fields": []},
        {"title": "Visa", "category": "creditcard", "template_type": "creditcard.default", "favorite": 0, "trashed": 0, "archived": 1,
         "folders": [], "note": "", "createdAt": CREATED, "updated_at": MODIFIED, "uuid": "i3",
         "fields": [enpass_field("Cardholder", "ccName", "Jane Appleseed"), enpass_field("Number", "ccNumber", "4111111111111111", 1),
                    enpass_field("CVC", "ccCvc", "123", 1), enpass_field("Expiry date", "ccExpiry", "09/2028")]},
        {"title": "Old login", "category": "login", "template_type": "login.default", "favorite": 0, "trashed": 1, "archived": 0,
         "folders": [], "note": "", "createdAt": CREATED, "updated_at": MODIFIED, "uuid": "i4", "fields": []},
    ]}, indent=1))

# KeePass 2's CSV export.
write("keepass.csv", csv_text([["Account", "Login Name", "Password", "Web Site", "Comments"],
                               ["Mail", "jane@example.com", PASSWORD, "https://mail.example.com", NOTE]],
                              quoting=csv.QUOTE_ALL, lineterminator="\r\n"))

# KeePassX 0.4's XML export (pass-import's keepassx.xml): line breaks in a comment as <br/>.
write("keepassx.xml", """<!DOCTYPE KEEPASSX_DATABASE>
<database>
 <group>
  <title>Work</title>
  <icon>1</icon>
  <group>
   <title>Servers</title>
   <icon>1</icon>
   <entry>
    <title>Mail</title>
    <username>jane@example.com</username>
    <password>c0rrect "horse", battery</password>
    <url>https://mail.example.com</url>
    <comment>first line<br/>second, with a comma</comment>
    <icon>1</icon>
    <creation>2023-11-14T22:13:20</creation>
    <lastaccess>2023-11-14T23:13:20</lastaccess>
    <lastmod>2023-11-14T23:13:20</lastmod>
    <expire>2030-01-01T00:00:00</expire>
   </entry>
  </group>
 </group>
 <group>
  <title>Backup</title>
  <icon>4</icon>
  <entry>
   <title>Deleted</title>
   <username>old</username>
   <password>x</password>
   <url></url>
   <comment></comment>
   <icon>0</icon>
   <creation>2017-01-01T00:00:00</creation>
   <lastaccess>2017-01-01T00:00:00</lastaccess>
   <lastmod>2017-01-01T00:00:00</lastmod>
   <expire>Never</expire>
  </entry>
 </group>
</database>
""")

# 1Password 1PIF (pass-import's 1password.1pif; Bitwarden's onepassword-1pif-importer): CRLF, a BOM.
sep = "***5642bee8-a5ff-11dc-8314-0800200c9a66***"
pif = [
    {"uuid": "F1", "typeName": "system.folder.Regular", "title": "Work", "createdAt": CREATED, "updatedAt": CREATED},
    {"uuid": "F2", "typeName": "system.folder.Regular", "title": "Servers", "folderUuid": "F1", "createdAt": CREATED, "updatedAt": CREATED},
    {"uuid": "I1", "typeName": "webforms.WebForm", "title": "Mail", "location": "https://mail.example.com", "folderUuid": "F2",
     "faveIndex": 1, "createdAt": CREATED, "updatedAt": MODIFIED, "openContents": {"tags": ["email"]},
     "secureContents": {"URLs": [{"label": "website", "url": "https://mail.example.com"}, {"label": "", "url": "https://webmail.example.com"}],
                        "fields": [{"type": "T", "designation": "username", "name": "email", "value": "jane@example.com"},
                                   {"type": "P", "designation": "password", "name": "password", "value": PASSWORD},
                                   {"type": "C", "name": "remember", "value": "✓"}],
                        "notesPlain": NOTE,
                        "passwordHistory": [{"value": "older-password", "time": CREATED}],
                        "sections": [{"name": "extra", "title": "Extra", "fields": [
                            {"k": "concealed", "n": "TOTP_ABC", "t": "one-time password", "v": TOTP},
                            {"k": "concealed", "n": "pin", "t": "PIN", "v": "4321"},
                            {"k": "date", "n": "since", "t": "member since", "v": 1577836800}]}]}},
    {"uuid": "I2", "typeName": "securenotes.SecureNote", "title": "Alarm code", "createdAt": CREATED, "updatedAt": MODIFIED,
     "secureContents": {"notesPlain": "1234, then #"}},
    {"uuid": "I3", "typeName": "wallet.financial.CreditCard", "title": "Visa", "createdAt": CREATED, "updatedAt": MODIFIED,
     "secureContents": {"sections": [{"name": "", "title": "", "fields": [
         {"k": "string", "n": "cardholder", "t": "cardholder name", "v": "Jane Appleseed"},
         {"k": "concealed", "n": "ccnum", "t": "number", "v": "4111111111111111"},
         {"k": "concealed", "n": "cvv", "t": "verification number", "v": "123"},
         {"k": "monthYear", "n": "expiry", "t": "expiry date", "v": 202809}]}]}},
    {"uuid": "I4", "typeName": "webforms.WebForm", "title": "Deleted", "trashed": True, "createdAt": CREATED, "updatedAt": MODIFIED,
     "secureContents": {"fields": []}},
    {"uuid": "I5", "typeName": "system.Tombstone", "title": "Gone", "createdAt": CREATED, "updatedAt": MODIFIED},
]
write("1password.1pif", "\ufeff" + "".join(json.dumps(item, separators=(",", ":"), ensure_ascii=False) + "\n" + sep + "\n" for item in pif), newline="\r\n")

# 1Password 7 for Mac's CSV: "label(id)" columns, dates in seconds, tags as {(…)}.
mac_header = ["account number(accountNo)", "cardholder name(cardholder)", "Created Date", "First One-time Password", "Modified Date",
              "Notes", "number(ccnum)", "Password", "PIN(pin)", "Scope", "Tags", "Title", "Type", "URL", "Username",
              "verification number(cvv)"]
def mac(**values):
    return [values.get(column, "") for column in mac_header]
write("1password7-mac.csv", csv_text([mac_header,
    mac(**{"Created Date": CREATED, "First One-time Password": TOTP, "Modified Date": MODIFIED, "Notes": NOTE, "Password": PASSWORD,
           "PIN(pin)": "4321", "Scope": "Default", "Tags": "{(\n    email,\n    \"Work/Servers\"\n)}", "Title": "Mail", "Type": "Login",
           "URL": "https://mail.example.com", "Username": "jane@example.com"}),
    mac(**{"Created Date": CREATED, "Modified Date": MODIFIED, "Notes": "1234, then #", "Title": "Alarm code", "Type": "Secure Note"}),
    mac(**{"cardholder name(cardholder)": "Jane Appleseed", "Created Date": CREATED, "Modified Date": MODIFIED, "number(ccnum)": "4111111111111111",
           "Title": "Visa", "Type": "Credit Card", "verification number(cvv)": "123"}),
]))
# 1Password 6/7 for Windows (pass-import's 1password.csv): an empty first column, every template's columns.
win_header = ["", "ainfo", "autosubmit", "cardholder", "ccnum", "cvv", "Notes", "Password", "scope", "section:extra", "Tags", "Type",
              "Title", "URL", "Username", "uuid"]
def win(**values):
    return [values.get(column, "") for column in win_header]
write("1password7-win.csv", csv_text([win_header,
    win(ainfo="jane@example.com", autosubmit="Default", Notes=NOTE, Password=PASSWORD, Tags="email", Type="Login", Title="Mail",
        URL="https://mail.example.com", Username="jane@example.com", uuid="a1"),
    win(ainfo="1234, then #", Notes="1234, then #", Type="Secure Note", Title="Alarm code", uuid="a2"),
    win(cardholder="Jane Appleseed", ccnum="4111111111111111", cvv="123", Type="Credit Card", Title="Visa", uuid="a3"),
], lineterminator="\r\n"))

# macOS's `security dump-keychain -d` (pass-import's apple-keychain.txt).
def stamp(when):
    text = when + "Z"
    return "0x" + (text.encode() + b"\0").hex().upper() + '  "' + text + '\\000"'
write("apple-keychain.txt", f"""keychain: "/Users/jane/Library/Keychains/login.keychain-db"
version: 512
class: "inet"
attributes:
    0x00000007 <blob>="mail.example.com"
    0x00000008 <blob>=<NULL>
    "acct"<blob>="jane@example.com"
    "atyp"<blob>="form"
    "cdat"<timedate>={stamp("20231114221320")}
    "crtr"<uint32>=<NULL>
    "desc"<blob>="Web form password"
    "icmt"<blob>="first line"
    "mdat"<timedate>={stamp("20231114231320")}
    "path"<blob>="/login"
    "port"<uint32>=0x00000000
    "ptcl"<uint32>="htps"
    "sdmn"<blob>=<NULL>
    "srvr"<blob>="mail.example.com"
    "type"<uint32>=<NULL>
data:
"{PASSWORD}"
keychain: "/Users/jane/Library/Keychains/login.keychain-db"
version: 512
class: "genp"
attributes:
    0x00000007 <blob>="Wi-Fi Home"
    "acct"<blob>="Home"
    "cdat"<timedate>={stamp("20231114221320")}
    "mdat"<timedate>={stamp("20231114221320")}
    "svce"<blob>="AirPort"
data:
0x70C3A47373776F7264  "p\\303\\244ssword"
keychain: "/Users/jane/Library/Keychains/login.keychain-db"
version: 256
class: 0x80001000
attributes:
    "alis"<blob>="Apple Development"
data:
<NULL>
""")
print("wrote", sorted(os.listdir(HERE)))
