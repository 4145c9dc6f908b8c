import Foundation
import Testing
@testable import BulwarkTUI

/// The scenario language: each verb read as written, and a wrong line named.
@Suite struct ScenarioTests {
    @Test func everyVerbReads() throws {
        let scenario = try Scenario.parse("""
            # title: T
            # shows: S
            caption Hello
            type demo
            key Enter j
            wait ok
            repeat j until Shiny
            pause 0.5
            appleid consent-revoked Shiny Store
            transfer shiny NEWTEAM001
            """, name: "x")
        #expect(scenario.title == "T" && scenario.shows == "S")
        #expect(scenario.steps.map(\.step) == [.caption("Hello"), .type("demo"), .keys([.enter, .char("j")]), .wait("ok"),
                                               .repeatUntil(.char("j"), "Shiny"), .pause(0.5),
                                               .appleID(event: "consent-revoked", entry: "Shiny Store"),
                                               .transfer(service: "shiny", team: "NEWTEAM001")])
        #expect(scenario.steps.map(\.line) == [3, 4, 5, 6, 7, 8, 9, 10])
    }

    @Test func aWrongLineIsNamed() {
        #expect(throws: Scenario.ParseError.self) { try Scenario.parse("appleid password-changed Shiny", name: "x") }
        #expect(throws: Scenario.ParseError.self) { try Scenario.parse("appleid account-delete", name: "x") }
        #expect(throws: Scenario.ParseError.self) { try Scenario.parse("frobnicate", name: "x") }
        #expect(throws: Scenario.ParseError.self) { try Scenario.parse("transfer shiny", name: "x") }
        do { _ = try Scenario.parse("caption ok\nappleid email-nope Shiny", name: "x"); Issue.record("no error") } catch {
            #expect("\(error)".contains("line 2") && "\(error)".contains("email-disabled, email-enabled, consent-revoked, account-delete"))
        }
    }
}
