import BulwarkCore

/// Every command's table (`CommandSpec`, in CommandTypes.swift): what the parser,
/// `bulwark help`, the man pages, the completions and docs/manual/commands.md are made from.
enum Commands {
    static let entryOptions = [
        OptionSpec(name: "--title", valueName: "TITLE", help: "The entry's title"),
        OptionSpec(name: "--url", valueName: "URL", help: "A URL (repeat for more; replaces the list)"),
        OptionSpec(name: "--username", valueName: "NAME", help: "The username"),
        OptionSpec(name: "--notes", valueName: "TEXT", help: "Notes"),
        OptionSpec(name: "--tag", valueName: "TAG", help: "A tag (repeat for more; replaces the list)"),
        OptionSpec(name: "--category", valueName: "KIND", help: "email, identity, finance, government, health, work, shopping, social or other (default: guessed from the site)",
                   values: .words(["email", "identity", "finance", "government", "health", "work", "shopping", "social", "other"])),
        OptionSpec(name: "--totp", valueName: "-", help: "Read an otpauth:// URI from standard input, after the other secrets ('' removes it)"),
        OptionSpec(name: "--totp-qr", valueName: "IMAGE", help: "Read the TOTP from a QR code in a PNG or JPEG (a service's set-up picture)"),
        OptionSpec(name: "--signs-in-with", valueName: "ISSUER", help: "The identity provider (its https issuer) the account signs in through ('' removes it)"),
        OptionSpec(name: "--expires", valueName: "DAY", help: "When the password expires, as KeePass keeps it (2030-01-31, or never)"),
        OptionSpec(name: "--generate", valueName: nil, help: "Set a new strong password"),
        OptionSpec(name: "--entry-password-stdin", valueName: nil, help: "Read the entry's password from the next line of standard input"),
    ]
    static let scryptOption = OptionSpec(name: "--scrypt-log-n", valueName: "N", help: "scrypt cost as a power of two (default 17; 10 to 20)", number: 10...20)
    static let weakOption = OptionSpec(name: "--i-know-this-is-weak", valueName: nil,
                                       help: "Accept a weak master password, or --scrypt-log-n below the recommended 17")

    static let all: [CommandSpec] = [
        CommandSpec(name: "init", summary: "Create a vault.", usage: "bulwark init [--scrypt-log-n N] [--i-know-this-is-weak]", options: [scryptOption, weakOption],
                    details: "Asks for the master password twice (or reads two lines with --password-stdin)."),
        CommandSpec(name: "list", summary: "List the vault's entries.", usage: "bulwark list [--ids] [--json]",
                    options: [OptionSpec(name: "--ids", valueName: nil, help: "Each entry's id too, after its title, user name and site"),
                              OptionSpec(name: "--json", valueName: nil, help: "A JSON array: id, title, username, urls, category, tags, modified")],
                    details: "One line per entry: its title, user name and site, separated by tabs."),
        CommandSpec(name: "show", summary: "Show one entry.", usage: "bulwark show ENTRY [--json] [--reveal]",
                    options: [OptionSpec(name: "--json", valueName: nil, help: "JSON output"),
                              OptionSpec(name: "--reveal", valueName: nil, help: "Include the password, the TOTP URI and the password history")],
                    details: "ENTRY is an id or a title that matches exactly one entry."),
        CommandSpec(name: "get", summary: "Print one value of an entry, for scripts.", usage: GetCommand.usage,
                    options: [OptionSpec(name: "--field", valueName: "FIELD",
                                         help: "password (the default), username, url, notes, totp (the current code) or a field's name"),
                              OptionSpec(name: "--json", valueName: nil, help: "A JSON object: id, title, field, value"),
                              OptionSpec(name: "--copy", valueName: nil,
                                         help: "Onto the clipboard instead (wl-copy, xclip or xsel), taken back after clipboard-seconds")],
                    details: """
                    ENTRY is an id or a title (case-insensitive). Exit 1 when no entry matches or it has no such value,
                    2 when several match (each named with its id). The value alone on standard output; to a terminal,
                    control characters are shown escaped.
                    """, arguments: [.free]),
        CommandSpec(name: "git-credential", summary: "git's credential helper: the vault's logins for git over HTTPS.",
                    usage: GitCredentialCommand.usage, options: [],
                    details: """
                    git config --global credential.helper 'bulwark git-credential'. get answers with the one login whose URL
                    has git's protocol, host and port (and path, with credential.useHttpPath; and user name, when git names
                    one); nothing when none or several match. store keeps what git hands it only with git-credential-store = on
                    in the config; erase never deletes. The master password is asked on the terminal.
                    """, arguments: [.words(["get", "store", "erase"])]),
    ] + AgentCommand.specs + SSHCommands.specs + [
        CommandSpec(name: "add", summary: "Add an entry.", usage: "bulwark add --title TITLE [options]", options: entryOptions,
                    details: """
                    Prints the new entry's id. On a terminal, a login given no --generate, --entry-password-stdin, code
                    or provider asks for its password twice (empty for none); one added without a password is said.
                    """),
        CommandSpec(name: "edit", summary: "Change an entry.", usage: "bulwark edit ENTRY [options]", options: entryOptions,
                    details: "A new password keeps the old one in the history."),
        CommandSpec(name: "rm", summary: "Delete an entry.", usage: "bulwark rm ENTRY", options: [], details: ""),
        CommandSpec(name: "attach", summary: "Keep a file with an entry, sealed in the vault.", usage: AttachmentCommand.attachUsage,
                    options: [OptionSpec(name: "--name", valueName: "NAME", help: "The name it is kept under (default: the file's own)"),
                              OptionSpec(name: "--type", valueName: "MEDIA-TYPE", help: "Its media type (default: from the name's extension)")],
                    details: """
                    The bytes are sealed a mebibyte at a time under the vault key, with the entry, in one transaction: a
                    kill part-way leaves nothing. The same file held by two entries is stored once. A file over
                    attachment-limit-mib (2048), or one that would take the vault past attachments-limit-mib (20480), is
                    refused with the limit named.
                    """, arguments: [.free, .files]),
        CommandSpec(name: "attachment", summary: "List, save or remove an entry's files.", usage: AttachmentCommand.usage,
                    options: [OptionSpec(name: "--out", valueName: "PATH", help: "get: write the file here (0600; else to standard output, never a terminal)"),
                              OptionSpec(name: "--force", valueName: nil, help: "get: replace what is at --out (a symlink is replaced, not followed)"),
                              OptionSpec(name: "--json", valueName: nil, help: "list: JSON")],
                    details: """
                    get writes the file beside --out and puts it in place only once every chunk has opened and its
                    size is what was attached: a damaged file names the chunk and writes nothing there (to standard
                    output, the chunks before a damaged one are out already, and the exit is 1). rm takes the file off
                    the entry; its bytes go when no other entry holds them.
                    """, arguments: [.words(["list", "get", "rm"]), .free, .free]),
        CommandSpec(name: "passwd", summary: "Change the master password.", usage: "bulwark passwd [--scrypt-log-n N] [--i-know-this-is-weak]", options: [scryptOption, weakOption],
                    details: """
                    Reads the current password, then the new one twice. A new vault key replaces the old one and every
                    entry is sealed again under it, in one transaction: the old password opens nothing written after the
                    change. Copies of the file made before it (backups included) still open with the old password.
                    """),
        CommandSpec(name: "check", summary: "Check the vault for damage, stale rows and rollbacks.", usage: "bulwark check", options: [],
                    details: """
                    Lists every problem: the file, the header, each entry that does not decrypt or is older or newer
                    than the index, the index, and a vault older than this machine last saw. Exit 0 when there is none.
                    """),
        CommandSpec(name: "recover", summary: "Save every entry that still decrypts to a new vault.", usage: "bulwark recover FILE",
                    options: [],
                    details: "FILE is a new vault with the same master password; the damaged vault is not changed. Entries that do not decrypt are named.",
                    arguments: [.files]),
        CommandSpec(name: "restore", summary: "List the vault's backups, or put one back.", usage: "bulwark restore --list | bulwark restore ID",
                    options: [OptionSpec(name: "--list", valueName: nil, help: "List the backups, newest first: id, time, entries, size")],
                    details: """
                    bulwark copies the vault into backups/ beside it before changing entries, at most once a minute,
                    keeping the newest 20 (config: backups-kept, backup-every-minutes). Restoring asks the backup's
                    master password, and keeps the vault as it was as a backup first.
                    """),
        CommandSpec(name: "import", summary: "Import another password manager's export.",
                    usage: "bulwark import [--format FORMAT] [--key-file FILE] [--skip-bad-rows] [--raw-cells] [--merge | --keep-both] FILE",
                    options: [OptionSpec(name: "--format", valueName: "FORMAT", help: Commands.list(Commands.importFormats) + " (default: detected from the file)",
                                         values: .words(Commands.importFormats)),
                              OptionSpec(name: "--key-file", valueName: "FILE", help: "kdbx: the database's key file (any form KeePass reads)"),
                              OptionSpec(name: "--skip-bad-rows", valueName: nil, help: "Import the rest when a row cannot be read (each is named)"),
                              OptionSpec(name: "--raw-cells", valueName: nil, help: "apple-csv: keep a leading ' before = + - @ (by default bulwark's own spreadsheet guard is taken away)"),
                              OptionSpec(name: "--merge", valueName: nil, help: "A login for a site and user name already in the vault is merged into it"),
                              OptionSpec(name: "--keep-both", valueName: nil, help: "Such a login is imported beside the existing one")],
                    details: """
                    Without --format the format is detected from the ZIP contents, the JSON keys, the XML root or the CSV header,
                    and said with what decided it; a file no reader takes names the closest format and its first difference.
                    FILE is a folder for a pass store (decrypted by your gpg) or a 1PIF export. A file that is another
                    format than the one named is refused with its name. A malformed
                    file imports nothing and names the line; a row with fewer fields than the header reads the rest as
                    empty and is named. Cards, identities, notes and SSH keys come in as entries of their kind, with
                    their fields; columns a format does not define are kept as custom fields. Only exact duplicates
                    (same kind, title, URLs, user name, password, notes, TOTP, tags and fields) are skipped. A login
                    for a site and user name the vault holds is merged (the newer side's values stand, the vault's
                    where the file has no dates; the other password goes to history, its other differing values
                    into fields named for it, each named) or kept beside it: asked on a terminal, else kept unless
                    --merge. In Apple CSV, a ' that bulwark's export put before = + - @ is taken away (--raw-cells
                    keeps it). A value over 4 MiB or an entry over 16 MiB is refused by name.
                    A password-protected Bitwarden export or a KeePass database asks for its password (with
                    --password-stdin, the line after the master password; empty with --key-file alone). The summary counts each kind and names what was not kept.
                    """, arguments: [.files]),
        CommandSpec(name: "export", summary: "Export the vault: Bitwarden JSON (plain or password-protected), Apple CSV, CXF, or a KeePass database.",
                    usage: "bulwark export --format FORMAT [--password-protected] [--allow-loss] FILE",
                    options: [OptionSpec(name: "--format", valueName: "FORMAT", help: Commands.list(Commands.exportFormats) + " (a KeePass database with a password of its own)",
                                         values: .words(Commands.exportFormats)),
                              OptionSpec(name: "--cipher", valueName: "CIPHER", help: "kdbx: aes (default) or chacha20", values: .words(["aes", "chacha20"])),
                              OptionSpec(name: "--password-protected", valueName: nil, help: "bitwarden-json: seal the file with a password of its own, as Bitwarden's \"Password protected\" export (PBKDF2, 600,000 iterations)"),
                              OptionSpec(name: "--raw-cells", valueName: nil, help: "CSV: write cells that begin with = + - @ as they are (no leading ')"),
                              OptionSpec(name: "--allow-loss", valueName: nil, help: "Write the file even where the format cannot carry part of an entry (each is named)")],
                    details: """
                    The file is written 0600 and, unless password-protected, holds every password in plain text. An
                    entry the format cannot carry whole is named with what of it would not be written (Apple's CSV has
                    no place for kinds, custom fields, tags, old passwords or passkeys; KeePass holds one passkey an
                    entry), and nothing is written, exit 1, unless --allow-loss. CXF (the FIDO Alliance's Credential
                    Exchange Format 1.0) carries every kind, passkeys included; what it has no place for (old
                    passwords, a chosen category) travels in a custom-fields group labelled bulwark. In
                    CSV, a cell that begins with = + - @ or a tab gets a leading ' so that a spreadsheet does not run
                    it as a formula; each is named. A cell that already begins with ' before such a character gets one
                    more, so bulwark's import reads back exactly what was written. Apple's CSV has one row per website,
                    as Apple's export does. A FILE ending in .zip carries the entries' files too: Bitwarden's export
                    with attachments (data.json, attachments/ITEM-ID/NAME) or a CXF archive (index.json, each file
                    credential's bytes as documents/ID); a KeePass database holds them in its own file.
                    """, arguments: [.files]),
        CommandSpec(
            name: "analyze", summary: "Security Recommendations: breached, reused, weak and other passwords, ranked.",
            usage: "bulwark analyze [--json] [--breach-corpus FILE]... [--online [--range-url URL] [--insecure-http]] [--include-hidden] [--timings]",
            options: [
                OptionSpec(name: "--json", valueName: nil, help: "JSON: a summary and the ranked recommendations"),
                OptionSpec(name: "--breach-corpus", valueName: "FILE", help: "A Pwned Passwords file (repeat for more; replaces the config file's)"),
                OptionSpec(name: "--online", valueName: nil, help: "Also ask a Pwned Passwords range API (only each password's 5-hex-digit SHA-1 prefix is sent)"),
                OptionSpec(name: "--range-url", valueName: "URL", help: "The range API (default https://api.pwnedpasswords.com/range; URL/ABCDE is fetched)"),
                OptionSpec(name: "--insecure-http", valueName: nil, help: "Allow a plain http --range-url that is not on loopback (its prefixes travel in the clear)"),
                OptionSpec(name: "--include-hidden", valueName: nil, help: "Also list hidden recommendations"),
                OptionSpec(name: "--timings", valueName: nil, help: "Each phase's wall time on standard error (key derivation, load, breach, strength, reuse, ranking, output)"),
            ],
            details: """
            The built-in list of common passwords is always searched. Exit status: 0 when there is
            nothing to do, 10 when the worst is low or medium, 11 when high, 12 when critical.

            With --online (or online = on in the config file) each distinct 5-hex-digit prefix of the
            passwords' SHA-1s is sent to the range API with Add-Padding: true, and nothing else: no
            password, no full hash, no account. Answers are kept sealed under the vault's key for 7 days
            ($XDG_CACHE_HOME/bulwark), so a second analysis asks only for new prefixes. When the API cannot
            be reached the offline checks are still done, and standard error says what was missed.
            """),
        CommandSpec(name: "hide", summary: "Hide an entry's recommendations.", usage: "bulwark hide ENTRY [--until YYYY-MM-DD]",
                    options: [OptionSpec(name: "--until", valueName: "DATE", help: "Show them again from this day (UTC)")],
                    details: "Hidden recommendations are still counted, and listed by 'analyze --include-hidden'."),
        CommandSpec(name: "unhide", summary: "Show an entry's recommendations again.", usage: "bulwark unhide ENTRY",
                    options: [], details: ""),
        CommandSpec(
            name: "upgrade", summary: "Upgrade an account: a strong password, Sign in with Apple, or a passkey.",
            usage: "bulwark upgrade ENTRY --strong-password | --sign-in-with-apple [--hide-email] | --passkey [--code-stdin | --code-from-vault | --code-from-messages | --security-key-from-vault] | bulwark upgrade --all-high-priority",
            options: [
                OptionSpec(name: "--strong-password", valueName: nil, help: "Change the password to a strong one the service accepts"),
                OptionSpec(name: "--sign-in-with-apple", valueName: nil, help: "Convert the account to Sign in with Apple (its password is removed)"),
                OptionSpec(name: "--hide-email", valueName: nil, help: "Give the service a private relay address instead of your e-mail"),
                OptionSpec(name: "--passkey", valueName: nil, help: "Sign in with a passkey kept in the entry instead (the password stops working there)"),
                OptionSpec(name: "--code-stdin", valueName: nil, help: "Read the verification code from standard input, after the master password"),
                OptionSpec(name: "--code", valueName: "CODE", help: "The code as an argument (visible to other users; warns)"),
                OptionSpec(name: "--code-from-vault", valueName: nil, help: "Fill the code from the entry's TOTP"),
                OptionSpec(name: "--code-from-messages", valueName: nil, help: "Fill the code from a text message bound to the site"),
                OptionSpec(name: "--security-key-from-vault", valueName: nil, help: "Answer a security-key step-up with the entry's passkey for the service"),
                OptionSpec(name: "--all-high-priority", valueName: nil, help: "Upgrade every eligible High Priority account in turn"),
            ],
            details: """
            Exit status: 0 completed, 3 failed (the reason on standard error), 4 the service asks for a
            code or a security key and none was given, 5 cancelled. With --password-stdin a code may follow the master
            password as the next line (an empty line cancels).
            """),
        CommandSpec(name: "signin", summary: "Sign in to an entry's (mock) service with the stored credential.",
                    usage: UpgradeCommand.signInUsage,
                    options: [OptionSpec(name: "--sign-in-with-apple", valueName: nil,
                                         help: "Sign in with Apple again, after the account was signed out (authorization stopped)"),
                              OptionSpec(name: "--with", valueName: "password|passkey|apple",
                                         help: "The saved password, the entry's passkey (WebAuthn), or Sign in with Apple (moves a password account to it)"),
                              OptionSpec(name: "--hide-email", valueName: nil, help: "with apple: give the service a private relay address"),
                              OptionSpec(name: "--with-provider", valueName: nil,
                                         help: "Log in through the identity provider the service takes (OAuth 2.0 code flow with PKCE, OpenID Connect)"),
                              OptionSpec(name: "--ephemeral", valueName: nil, help: "with-provider: a private browser session (no provider cookie kept or used)"),
                              OptionSpec(name: "--code-from-vault", valueName: nil, help: "with-provider: the provider's second factor from its entry's TOTP"),
                              OptionSpec(name: "--transcript", valueName: "FILE",
                                         help: "with-provider: each protocol message as a JSON line (passwords, codes and tokens as lengths)")],
                    details: """
                    Exit 0 when the service accepts the credential, 1 when it refuses (with its reason), 4 when the
                    identity provider asks for a code and --code-from-vault was not given. With --with-provider the
                    command is the person's Continue and consent; the provider's login page is filled from the
                    vault's entry for its domain, as AutoFill would. Where the service also takes Sign in with Apple,
                    a terminal is asked which (the saved password, or Sign in with Apple, which moves the account to
                    it: an upgrade's exit codes); a script gets the saved password unless --with apple. After a sign-in
                    with a weak or breached password a terminal is offered the account's upgrades, as the app does.
                    """),
        CommandSpec(name: "services", summary: "List the service manifests, sign an account up, or send a Sign in with Apple notification.",
                    usage: ServicesCommand.servicesUsage,
                    options: [OptionSpec(name: "--json", valueName: nil, help: "JSON: every manifest, its capabilities and each domain's association"),
                              OptionSpec(name: "--sign-in-with-apple", valueName: nil, help: "enroll: sign up at SERVICE with Apple (no password)"),
                              OptionSpec(name: "--hide-email", valueName: nil, help: "enroll: give the service a private relay address"),
                              OptionSpec(name: "--new-account", valueName: nil,
                                         help: "enroll --sign-in-with-apple: a new account even where the vault holds one (else its upgrade is offered)"),
                              OptionSpec(name: "--passkey", valueName: nil, help: "enroll: register a passkey for the entry's account (services that accept them)"),
                              OptionSpec(name: "--security-key", valueName: nil, help: "enroll: register the USB security key plugged in, for the service's security-key step-up")],
                    details: """
                    enroll creates the entry's account at its mock service with its current credential (and TOTP secret);
                    with --sign-in-with-apple it creates a new account at SERVICE that signs in with Apple, and its entry.
                    notify sends what a change in the person's Apple ID settings sends: consent-revoked, account-delete,
                    email-disabled or email-enabled, as an event signed by the identity provider, to SERVICE's backend,
                    and prints what changed in the vault.
                    transfer moves SERVICE's app to another developer team (TEAMID): Sign in with Apple users get transfer
                    identifiers, their accounts are migrated to the new team's ids, and the entries follow.
                    """, arguments: [.words(["enroll", "notify", "transfer"]), .services,
                                     .words(["consent-revoked", "account-delete", "email-disabled", "email-enabled"]), .nothing]),
        CommandSpec(name: "code-setup", summary: "Save a verification code's set-up link (otpauth://, apple-otpauth://) to its entry.",
                    usage: CodeSetupCommand.usage,
                    options: [OptionSpec(name: "--entry", valueName: "ENTRY", help: "Save it to this entry (an id or a title)"),
                              OptionSpec(name: "--new", valueName: "TITLE", help: "Save it in a new entry with this title"),
                              OptionSpec(name: "--replace", valueName: nil, help: "Put it in place of a code the entry has")],
                    details: """
                    The entries that look like the code's (its issuer in the title or site, its account the user name)
                    are offered on the terminal before anything is saved, best first; Enter takes the first, n makes a
                    new entry, q saves nothing. Without a terminal, --entry or --new says where. The desktop's handler
                    for otpauth:// and apple-otpauth:// links (bulwark-code-setup.desktop, installed by make install and
                    the package) runs this in a terminal. The link's secret is wiped from the process's arguments at once.
                    """, arguments: [.free]),
        CommandSpec(name: "open-link", summary: "Where a link goes: a service's app (universal links) or the website.",
                    usage: OpenLinkCommand.usage,
                    options: [OptionSpec(name: "--json", valueName: nil, help: "JSON: url, route (app or website), service, app_id, because"),
                              OptionSpec(name: "--open", valueName: nil, help: "Hand a link that goes to the website to the desktop's browser")],
                    details: """
                    A link opens in a service's app when its site's apple-app-site-association applinks cover it for that
                    app (components: "/" path, "?" query, "#" fragment, exclude; or the older paths with NOT; * and ?
                    wildcards, first rule wins) and the app's manifest claims applinks:HOST. Otherwise it opens in the browser.
                    The rule that decided is said either way. The built-in mock services and --services' sites are read.
                    """, arguments: [.free]),
        CommandSpec(name: "watch", summary: "Look for the vault's passwords in new breach data without the master password.",
                    usage: WatchCommand.usage,
                    options: [OptionSpec(name: "--online", valueName: nil, help: "Also ask the range API (range-url) for the watched prefixes"),
                              OptionSpec(name: "--quiet", valueName: nil, help: "Print only news (for the timer)"),
                              OptionSpec(name: "--install", valueName: nil, help: "Keep a watch list (asks for the master password once) and a daily systemd user timer"),
                              OptionSpec(name: "--uninstall", valueName: nil, help: "Remove the timer and the watch list"),
                              OptionSpec(name: "--status", valueName: nil, help: "What is watched, the last look, news not yet shown")],
                    details: """
                    Each unlock of a watched vault keeps a watch list beside the state: for each password, the first
                    5 hex digits of its SHA-1 and a salted digest (HMAC-SHA-256 under a key derived from the vault
                    key, stored wrapped under this machine's key), never a password or a title. watch walks the
                    breach-corpus files that changed since its last look (and, with --online or online-breach-check,
                    the range API) for those prefixes and compares digests. A password found for the first time is
                    news: notify-send tells it where a desktop session is, and the next command and the app's lock
                    screen say it once. Exit 1 when the vault is not watched.
                    """, arguments: [.nothing]),
        CommandSpec(name: "sync", summary: "Keep one vault on every machine through a git remote, merged entry by entry.",
                    usage: SyncCommand.usage,
                    options: [OptionSpec(name: "--name", valueName: "MACHINE", help: "init, clone: how other machines name this one (default: the host name)"),
                              OptionSpec(name: "--json", valueName: nil, help: "status: JSON")],
                    details: """
                    init links the vault to REMOTE (any git URL: a directory, ssh, https): an empty remote gets the
                    vault, one holding this vault is joined, anything else is refused. clone sets up the vault at
                    --vault from REMOTE, asking only for the master password. sync fetches, checks, merges entry by
                    entry, commits and pushes, and says what came in and went out. The remote sees only sealed files
                    under random names. Exit 1 when the remote cannot be reached or fails a check (nothing changes here).
                    """, arguments: [.words(["init", "clone", "status"]), .nothing]),
        CommandSpec(name: "passkey", summary: "Create and use passkeys as a WebAuthn authenticator (for testing a relying party).",
                    usage: PasskeyCommand.usage,
                    options: [OptionSpec(name: "--origin", valueName: "ORIGIN", help: "create, get: the page's origin (https://host[:port]; http only on localhost)"),
                              OptionSpec(name: "--options", valueName: "FILE", help: "create: PublicKeyCredentialCreationOptionsJSON; get: PublicKeyCredentialRequestOptionsJSON"),
                              OptionSpec(name: "--entry", valueName: "ENTRY", help: "create: keep the passkey in this entry (else a new entry for the RP); get: answer with this entry's passkey"),
                              OptionSpec(name: "--credential", valueName: "ID", help: "get: the passkey to answer with, when several could"),
                              OptionSpec(name: "--json", valueName: nil, help: "list: JSON")],
                    details: """
                    create prints the RegistrationResponseJSON (attestation "none", an ES256 key on P-256); get prints the
                    AuthenticationResponseJSON (discoverable when allowCredentials is empty). Exit 1 for a bad origin, an
                    excluded credential, no matching passkey or malformed options.
                    """, arguments: [.words(["create", "get", "list", "rm"]), .nothing]),
        CommandSpec(
            name: "demo", summary: "Open the full-screen demo on an embedded vault.",
            usage: "bulwark demo [--no-lock] [--keep | --dir DIR] [--record FILE.cast] | --setup DIR | --list | --autoplay NAME [options]",
            options: [
                OptionSpec(name: "--no-lock", valueName: nil, help: "Skip the unlock screen"),
                OptionSpec(name: "--keep", valueName: nil, help: "Keep the temporary demo directory (its path is printed on exit)"),
                OptionSpec(name: "--dir", valueName: "DIR", help: "Use and keep DIR for the demo (reused when it holds one)"),
                OptionSpec(name: "--setup", valueName: "DIR", help: "Write the demo vault and services into DIR and exit"),
                OptionSpec(name: "--list", valueName: nil, help: "List the scenarios: name, then what each shows"),
                OptionSpec(name: "--autoplay", valueName: "NAME", help: "Play a scenario at a human pace; its last frame stays until a key", values: .scenarios),
                OptionSpec(name: "--speed", valueName: "FACTOR", help: "Autoplay faster (2) or slower (0.5)"),
                OptionSpec(name: "--exit", valueName: nil, help: "Exit 0 as soon as the scenario ends"),
                OptionSpec(name: "--stay", valueName: nil, help: "Keep the session open, to use, when the scenario ends"),
                OptionSpec(name: "--headless", valueName: nil, help: "Autoplay with no terminal (fixed clock, no latency)"),
                OptionSpec(name: "--size", valueName: "WxH", help: "The headless screen size (default 100x30)"),
                OptionSpec(name: "--snapshots", valueName: "DIR", help: "Headless: write the screen at each caption and at the end"),
                OptionSpec(name: "--svg", valueName: "DIR", help: "Headless: the same screens as SVG pictures, each with its caption"),
                OptionSpec(name: "--svg-animated", valueName: "FILE", help: "Headless: the scenario as one animated SVG (3 s a screen, looping)"),
                OptionSpec(name: "--html", valueName: "FILE", help: "A self-contained web player of the scenarios named after it (all by default)"),
                OptionSpec(name: "--tour", valueName: nil, help: "The stakeholder tour: the upgrade flows in order, each after a title card (→ ← chapters, Space pause, q stop)"),
                OptionSpec(name: "--gallery", valueName: "DIR", help: "Every scenario as the web player, an animated SVG each and a page (make demo-artifacts)"),
                OptionSpec(name: "--check", valueName: "DIR", help: "Headless: compare with such a directory; exit 1 with a diff"),
                OptionSpec(name: "--record", valueName: "FILE", help: "Write an asciicast recording (asciinema plays it)"),
                OptionSpec(name: "--cast-version", valueName: "2|3", help: "The recording's asciicast version (2 by default; 3 times each event from the one before)"),
            ],
            details: """
            The demo's master password is "demo". ? lists every key of a screen; q quits; Ctrl-C quits.
            During autoplay: Space pauses and resumes, n steps one action while paused, R restarts.
            """, arguments: [.scenarios]),
        CommandSpec(
            name: "open", summary: "Open the full-screen app on your vault.", usage: "bulwark open [--vault PATH]",
            options: [], details: "The first run creates the vault (the master password is typed twice)."),
        CommandSpec(
            name: "generate", summary: "Generate strong passwords, passphrases and PINs.",
            usage: "bulwark generate [--words N [--separator S] [--capitalize] [--number] | --length N [--no-lower] [--no-upper] [--no-digits] [--no-symbols] [--avoid-look-alikes] | --pin [--length N]] [--rules RULES | --domain DOMAIN] [--count N] [--json]",
            options: [
                OptionSpec(name: "--words", valueName: "N", help: "A passphrase of N words from EFF's large list (7,776 words)", number: GeneratorChoice.wordCounts),
                OptionSpec(name: "--separator", valueName: "S", help: "Between a passphrase's words (default -; '' for none)"),
                OptionSpec(name: "--capitalize", valueName: nil, help: "Each word of a passphrase starts with a capital"),
                OptionSpec(name: "--number", valueName: nil, help: "A digit after one word of a passphrase"),
                OptionSpec(name: "--length", valueName: "N", help: "A password of N characters (8 to 128), or with --pin a PIN of N digits (4 to 12)",
                           number: 4...128),
                OptionSpec(name: "--no-lower", valueName: nil, help: "A password without lower-case letters"),
                OptionSpec(name: "--no-upper", valueName: nil, help: "A password without capitals"),
                OptionSpec(name: "--no-digits", valueName: nil, help: "A password without digits"),
                OptionSpec(name: "--no-symbols", valueName: nil, help: "A password without symbols"),
                OptionSpec(name: "--avoid-look-alikes", valueName: nil, help: "Leave out characters read as one another (I l 1 | O 0 o ` ' \")"),
                OptionSpec(name: "--pin", valueName: nil, help: "A PIN: digits only (6 unless --length)"),
                OptionSpec(name: "--rules", valueName: "RULES", help: "Apple passwordrules the password must satisfy"),
                OptionSpec(name: "--domain", valueName: "DOMAIN", help: "Use the site's rules (from --quirks, then the service manifests)"),
                OptionSpec(name: "--count", valueName: "N", help: "How many passwords (default 1, at most 100000)", number: 1...100_000),
                OptionSpec(name: "--json", valueName: nil, help: "JSON: passwords, entropy in bits, what was made, what the rules changed"),
            ],
            details: """
            With no choice, Apple's format: three groups of six letters, one upper-case letter and one
            digit (about 73 bits). --length and the --no-… options make a password of that length with
            at least one character of each class left; --words a passphrase; --pin a PIN. A site's rules
            (--rules, --domain) win over a choice that breaks them, and what each changed is said; when
            they rule out Apple's format, a random password of the longest allowed length. One secret
            per line; the bits (log2 of how many equally likely secrets there are) on standard error.
            """),
        CommandSpec(
            name: "rules", summary: "Check a password against passwordrules, or show their canonical form.",
            usage: "bulwark rules check RULES | bulwark rules show RULES",
            options: [],
            details: """
            check: reads the password from standard input (or asks on the terminal); exit 0 when it
                   satisfies RULES, 1 (with the broken rules) when it does not.
            show:  print the canonical form of RULES.
            Malformed rules exit 1 with the position of the problem.
            """, arguments: [.words(["check", "show"]), .free]),
        CommandSpec(
            name: "code", summary: "Print a verification code (TOTP or HOTP).",
            usage: "bulwark code ENTRY | --uri - [--at UNIX_SECONDS] [--json]",
            options: [
                OptionSpec(name: "--uri", valueName: "-", help: "Read an otpauth:// or apple-otpauth:// URL from standard input"),
                OptionSpec(name: "--at", valueName: "UNIX_SECONDS", help: "The moment to compute the code for (default: now)"),
                OptionSpec(name: "--json", valueName: nil, help: "JSON: the code, seconds remaining and the next code"),
            ],
            details: """
            The code is the first word of the first line, followed by how long it stays valid.
            An invalid URL exits 1 with the reason.
            """),
        CommandSpec(
            name: "help", summary: "Show help for bulwark or for one command.", usage: "bulwark help [COMMAND]",
            options: [], details: "", arguments: [.commands]),
        CommandSpec(
            name: "doctor", summary: "Check the set-up: terminal, vault, config, breach corpora, quirks and services.",
            usage: "bulwark doctor [--json]",
            options: [OptionSpec(name: "--json", valueName: nil, help: "JSON: every check with its status, what was found and the fix")],
            details: """
            Each problem is named with the command that fixes it. Nothing is changed and no password is asked.
            Exit 0 when all is well, 1 when any check fails (warnings alone exit 0).
            """),
        CommandSpec(
            name: "completions", summary: "Print the shell completion script for bash, zsh or fish.",
            usage: "bulwark completions bash|zsh|fish",
            options: [],
            details: """
            bash: source <(bulwark completions bash), or save it as
                  /usr/share/bash-completion/completions/bulwark.
            zsh:  save it as _bulwark in a directory on $fpath, or
                  source <(bulwark completions zsh) after compinit.
            fish: save it as ~/.config/fish/completions/bulwark.fish.
            """, arguments: [.words(["bash", "zsh", "fish"])]),
        CommandSpec(
            name: "manpages", summary: "Write the manual pages (bulwark.1 and one per command) into a directory.",
            usage: "bulwark manpages DIR",
            options: [], details: "The pages are made from the same tables as --help; `make install` installs them.",
            arguments: [.directories]),
    ]

    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// The usage line of a command, as its help prints it (for a usage error).
    static func usage(of name: String) -> String { named(name)?.usage ?? "bulwark \(name)" }

    /// The formats, from the readers' and writers' own lists: the help, the
    /// completions, the man pages and the errors all say the same.
    static let importFormats = ImportFormat.allCases.map(\.rawValue)
    static let exportFormats = Exporter.Format.allCases.map(\.rawValue) + ["kdbx"]

    /// "a, b or c".
    static func list(_ words: [String], last: String = "or") -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " \(last) " + words.last!
    }
}
