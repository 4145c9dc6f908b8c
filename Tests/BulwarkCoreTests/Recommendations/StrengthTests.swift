import Foundation
import Testing
@testable import BulwarkCore

@Suite struct StrengthTests {
    @Test(arguments: [
        ("alice1990", ["alice"], WeakPattern.containsAccountName),
        ("Northwind2024", ["northwind"], .containsAccountName),
        ("sunshine", [], .commonPassword),
        ("elephant7", [], .dictionaryWord),
        ("Pa$$w0rd1", [], .substitutedWord),
        ("abcdefghij", [], .sequence),
        ("Ab$Ab$Ab$Ab$", [], .repeats),
        ("19/07/1988", [], .date),
        ("ujmnhy", [], .keyboardPattern),
        ("xK9#", [], .tooShort),
    ])
    func weakPasswordsNameWhatMakesThemGuessable(password: String, words: [String], pattern: WeakPattern) {
        let strength = StrengthMeter.measure(password, accountWords: words)
        #expect(strength.bits < AnalysisSettings().weakBelowBits, "\(password): \(strength.bits) bits")
        #expect(strength.pattern == pattern, "\(password)")
    }

    @Test(arguments: ["cytxup-Gyszi6-vozzab", "Tr0ub4dor&3-extra-long", "X9#kq!2vLp$8zR", "correct horse battery staple 94"])
    func strongPasswordsAreNotWeak(password: String) {
        #expect(StrengthMeter.measure(password).bits >= AnalysisSettings().weakBelowBits, "\(password)")
    }

    @Test func theUsernameMakesAPasswordWeakerForItsOwnAccount() {
        let alone = StrengthMeter.measure("bartholomew1990")
        let own = StrengthMeter.measure("bartholomew1990", accountWords: ["bartholomew"])
        #expect(own.bits < alone.bits)
        #expect(own.pattern == .containsAccountName)
    }

    @Test(arguments: [
        ("123", PINWeakness.tooShort), ("0000", .repeats), ("1212", .repeats), ("123123", .repeats),
        ("1234", .sequence), ("4321", .sequence), ("13579", .sequence), ("8642", .sequence),
        ("2580", .common), ("6969", .repeats), ("1004", .common), ("159753", .common),
        ("1987", .date), ("2012", .date), ("0713", .date), ("2507", .date), ("250790", .date), ("07251990", .date), ("19900725", .date),
    ])
    func pinRules(pin: String, weakness: PINWeakness) {
        #expect(PINRules.weakness(of: pin) == weakness, "\(pin)")
    }

    @Test(arguments: ["8305", "4759", "602948", "93860271"])
    func unremarkablePINsPass(pin: String) {
        #expect(PINRules.weakness(of: pin) == nil, "\(pin)")
    }

    @Test func anEntryIsAPINWhenTaggedOrWhenDigitsWithoutASite() {
        #expect(PINRules.isPIN(Entry(title: "Debit card", password: "8305")))
        #expect(PINRules.isPIN(Entry(title: "Phone", urls: ["https://phone.example"], password: "830512345", tags: ["PIN"])))
        #expect(!PINRules.isPIN(Entry(title: "Site", urls: ["https://site.example"], password: "83051234")))
        #expect(!PINRules.isPIN(Entry(title: "Lock", password: "83a5")))
        #expect(!PINRules.isPIN(Entry(title: "Long", password: "830512345")))
    }
}
