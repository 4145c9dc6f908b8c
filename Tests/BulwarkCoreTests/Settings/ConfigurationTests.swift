import Foundation
import Testing
@testable import BulwarkCore

@Suite struct ConfigurationTests {
    @Test func everyKeyIsReadAndPathsAreResolved() throws {
        let text = """
        # bulwark
        breach-corpus = ~/pwned/v8.txt
        breach-corpus = local.txt
          quirks=/srv/quirks   
        services = ../services
        weak-below-bits = 40.5
        old-after-days = 180
        lock-after-minutes = 2
        reveal-seconds = 10
        clipboard-seconds = 5
        """
        let config = try Configuration.parse(text, file: "/etc/bulwark/config", home: "/home/jane")
        #expect(config.breachCorpora == ["/home/jane/pwned/v8.txt", "/etc/bulwark/local.txt"])
        #expect(config.quirks == "/srv/quirks")
        #expect(config.services == "/etc/bulwark/../services")
        #expect(config.analysis == AnalysisSettings(weakBelowBits: 40.5, oldAfterDays: 180))
        #expect(config.lockAfterMinutes == 2 && config.revealSeconds == 10 && config.clipboardSeconds == 5)
    }

    @Test func onlineChecksAreOffUnlessAsked() throws {
        let standard = try Configuration.parse("", file: "/c", home: "/h")
        #expect(!standard.onlineBreachCheck && standard.rangeURL == "https://api.pwnedpasswords.com/range")
        let mirror = try Configuration.parse("online = on\nrange-url = https://mirror.example/pwned/range\n", file: "/c", home: "/h")
        #expect(mirror.onlineBreachCheck && mirror.rangeURL == "https://mirror.example/pwned/range")
        #expect(try Configuration.parse("online = true\n", file: "/c", home: "/h").onlineBreachCheck)
        #expect(try !Configuration.parse("online = False\n", file: "/c", home: "/h").onlineBreachCheck)
        #expect(throws: Configuration.ParseError(file: "/c", line: 1, reason: "'online' must be on or off (true or false)")) {
            try Configuration.parse("online = maybe\n", file: "/c", home: "/h")
        }
        #expect(throws: Configuration.ParseError(file: "/c", line: 1, reason: "'range-url' must be an http or https URL")) {
            try Configuration.parse("range-url = file:///etc/passwd\n", file: "/c", home: "/h")
        }
    }

    @Test func symbolsAndMouse() throws {
        let config = try Configuration.parse("symbols = ASCII\nmouse = off\n", file: "/c", home: "/h")
        #expect(config.symbols == "ascii" && !config.mouse)
        #expect(try Configuration.parse("", file: "/c", home: "/h").mouse)
        // Asking before a service is told: on unless turned off.
        #expect(try Configuration.parse("", file: "/c", home: "/h").confirmServiceChanges)
        #expect(try !Configuration.parse("confirm-service-changes = OFF\n", file: "/c", home: "/h").confirmServiceChanges)
        // bulwark agent: off, and 15 minutes, unless set.
        let plain = try Configuration.parse("", file: "/c", home: "/h")
        #expect(!plain.agent && plain.agentLockAfterMinutes == 15)
        let set = try Configuration.parse("agent = on\nagent-lock-after-minutes = 2.5\n", file: "/c", home: "/h")
        #expect(set.agent && set.agentLockAfterMinutes == 2.5)
        // The SSH agent's approvals: no command and 60 seconds unless set.
        #expect(plain.sshApproveCommand == nil && plain.sshApproveWaitSeconds == 60)
        let approving = try Configuration.parse("ssh-approve-command = /usr/local/bin/approve\nssh-approve-wait-seconds = 20\n", file: "/c", home: "/h")
        #expect(approving.sshApproveCommand == "/usr/local/bin/approve" && approving.sshApproveWaitSeconds == 20)
    }

    @Test(arguments: [
        ("quirks", 1, "expected 'key = value'"),
        ("# ok\ncolour = blue", 2, "unknown key 'colour' (known: breach-corpus, quirks, services, weak-below-bits, old-after-days, lock-after-minutes, reveal-seconds, clipboard-seconds, backups-kept, backup-every-minutes, symbols, mouse, online, range-url, generator, attachment-limit-mib, attachments-limit-mib, confirm-service-changes, git-credential-store, agent, agent-lock-after-minutes, ssh-approve-command, ssh-approve-wait-seconds)"),
        ("symbols = fancy", 1, "'symbols' must be unicode, console or ascii"),
        ("mouse = maybe", 1, "'mouse' must be on or off"),
        ("confirm-service-changes = later", 1, "'confirm-service-changes' must be on or off"),
        ("quirks =", 1, "'quirks' has no value"),
        ("\n\nold-after-days = 0", 3, "'old-after-days' must be a number from 1 to 36500"),
        ("lock-after-minutes = never", 1, "'lock-after-minutes' must be a number from 0.5 to 1440.0"),
        ("reveal-seconds = 0", 1, "'reveal-seconds' must be a number from 1.0 to 3600.0"),
        ("agent = always", 1, "'agent' must be on or off"),
        ("agent-lock-after-minutes = 0", 1, "'agent-lock-after-minutes' must be a number from 0.01 to 1440.0"),
        ("ssh-approve-command = approve --yes", 1, "'ssh-approve-command' must be a program's absolute path (it is run without a shell)"),
        ("ssh-approve-wait-seconds = 0", 1, "'ssh-approve-wait-seconds' must be a number from 1.0 to 3600.0"),
    ])
    func malformedLinesNameTheLine(text: String, line: Int, reason: String) {
        #expect(throws: Configuration.ParseError(file: "/c", line: line, reason: reason)) {
            try Configuration.parse(text, file: "/c", home: "/h")
        }
    }

    @Test func thePathFollowsXDGThenHomeAndAMissingFileIsTheDefaults() throws {
        #expect(Configuration.defaultPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]).path == "/x/bulwark/config")
        #expect(Configuration.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]).path == "/h/.config/bulwark/config")
        #expect(Configuration.defaultPath(environment: ["BULWARK_CONFIG": "/c", "XDG_CONFIG_HOME": "/x"]).path == "/c")
        #expect(try Configuration.load(environment: ["BULWARK_CONFIG": "/nonexistent/config"]) == Configuration())
    }
}
