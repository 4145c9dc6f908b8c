import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// Ctrl-G in the form: the generator's choices with a fresh sample and its
/// bits as they change, Enter puts the sample in the form and remembers the
/// choices in the config file; Esc leaves the password as it was.
@Suite struct GeneratorSheetTests {
    /// A sample fixed for the goldens (the live one is drawn from the CSPRNG).
    static let fixed = GeneratedSample(value: "Cried-Ungloved-Wolf-Lung0-Balsamic-Tiger", bits: 80.9,
                                       summary: "a passphrase of 6 words from EFF's list of 7,776",
                                       notes: ["the site requires digit: a digit follows one word"])

    @Test(arguments: [(80, 24), (60, 16)])
    func theSheetShowsItsChoicesASampleAndItsBits(width: Int, height: Int) async throws {
        let f = try AppFixture(width: width, height: height)
        await f.press(.char("n"))
        await f.type("Garden Club")
        await f.press(.tab)
        await f.type("https://garden.example")
        await f.press(.tab, .tab, .ctrl("g"))
        let first = try #require(f.state.generatorSheet?.sample)
        #expect(first.summary == "a password in Apple's format" && first.value.count == 20)
        // The kind turns with →; a passphrase's rows replace the password's.
        await f.press(.right, .right)
        #expect(f.state.generatorSheet?.choice.kind == .passphrase && f.state.generatorSheet?.rows == [.kind, .words, .separator, .capitalize, .number])
        let sample = try #require(f.state.generatorSheet?.sample)
        #expect(sample.value.split(separator: "-").count >= 6 && sample.summary == "a passphrase of 6 words from EFF's list of 7,776")
        await f.press(.down, .down, .down, .down, .char(" "))
        #expect(f.state.generatorSheet?.choice.number == true && f.state.generatorSheet?.focusedRow == .number)
        f.store.send(.generator(.sampled(Self.fixed)))
        await f.store.settle()
        f.golden("generator-sheet")
    }

    @Test func enterUsesTheSampleAndRemembersTheChoicesEscKeepsThePassword() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        try "# mine\nlock-after-minutes = 10\n".write(to: config, atomically: true, encoding: .utf8)
        let f = try AppFixture { $0.configPath = config }
        await f.press(.char("n"))
        await f.type("Garden Club")
        await f.press(.tab, .tab, .tab, .ctrl("g"), .right)
        #expect(f.state.generatorSheet?.choice.kind == .password && f.state.generatorSheet?.rows.count == 7)
        // A password's length steps with ←→; the last class left stays on.
        await f.press(.down, .left, .left)
        #expect(f.state.generatorSheet?.choice.length == 18)
        await f.press(.down, .char(" "), .down, .char(" "), .down, .char(" "), .down, .char(" "))
        #expect(f.state.generatorSheet?.choice.lower == false && f.state.generatorSheet?.choice.symbols == true)
        let made = try #require(f.state.generatorSheet?.sample?.value)
        #expect(made.count == 18 && made.allSatisfy { !$0.isLetter && !$0.isNumber })
        await f.press(.enter)
        #expect(f.state.overlayKind == nil && f.state.editor?.fields[3].text == made && f.state.editor?.fields[3].masked == false)
        #expect(f.state.status?.hasPrefix("Generated a password of 18 characters (") == true)
        let written = try String(contentsOf: config, encoding: .utf8)
        #expect(written == "# mine\nlock-after-minutes = 10\n"
                + "generator = kind=password length=18 lower=no upper=no digits=no symbols=yes avoid-look-alikes=no words=6 separator=- capitalize=no number=no pin-length=6\n")
        #expect(try Configuration.parse(written, file: config.path, home: "/").generator == f.state.generatorChoice)
        // Esc: the password as it was.
        await f.press(.ctrl("g"), .char("r"), .escape)
        #expect(f.state.overlayKind == nil && f.state.editor?.fields[3].text == made)
    }
}
