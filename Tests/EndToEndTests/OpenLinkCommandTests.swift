import Foundation
import Testing

/// `bulwark open-link`: the route of a link through the real binary, said
/// with the rule that decided; `--open` hands a website route to the browser.
@Suite struct OpenLinkCommandTests {
    @Test func aLinkIsRoutedAndTheRuleThatDecidedIsSaid() throws {
        let app = try Binary.run(["open-link", "https://shiny.example/orders/42?view=app"])
        #expect(app.status == 0 && app.stderr.isEmpty)
        #expect(app.stdout == #"https://shiny.example/orders/42?view=app opens in Shiny's app (SHINY00001.example.shiny): shiny.example's applinks give it to SHINY00001.example.shiny ({ "/": "/orders/?*", "?": { "view": "app" } }) and Shiny's app claims applinks:shiny.example."# + "\n")
        let web = try Binary.run(["open-link", "https://shiny.example/orders/42"])
        #expect(web.status == 0 && web.stdout == "https://shiny.example/orders/42 opens in the browser: no rule of shiny.example's applinks covers /orders/42.\n")
        let json = try Binary.run(["open-link", "--json", "https://shinystore.example/product/7"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: String])
        #expect(object == ["url": "https://shinystore.example/product/7", "route": "app", "service": "shiny", "app_id": "SHINY00001.example.shiny",
                           "because": #"shinystore.example's applinks give it to SHINY00001.example.shiny ("/product/*") and Shiny's app claims applinks:shinystore.example"#])
        let bad = try Binary.run(["open-link", "not a link\u{1B}[2J"])
        #expect(bad.status == 2 && bad.stdout.isEmpty && bad.stderr == "bulwark: not a link\\e[2J is not a link (https://HOST/PATH).\n")
    }

    @Test func openHandsAWebsiteRouteToTheBrowser() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-open-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A stand-in browser that writes what it was given and ends; bulwark does not wait for it, so the test reads the pipe it fills.
        let fifo = dir.appendingPathComponent("opened").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let opener = dir.appendingPathComponent("opener")
        try "#!/bin/sh\nprintf '%s\\n' \"$1\" > \(fifo)\n".write(to: opener, atomically: true, encoding: .utf8)
        #expect(chmod(opener.path, 0o755) == 0)
        // Opened read-write, so neither this open nor a read waits for a writer that never comes: a line or a minute, whichever is first.
        let reader = open(fifo, O_RDWR)
        #expect(reader >= 0)
        defer { close(reader) }
        let result = try Binary.run(["open-link", "--open", "https://shiny.example/account/help/reset"], environment: ["BULWARK_OPENER": opener.path])
        #expect(result.status == 0 && result.stdout.hasPrefix("https://shiny.example/account/help/reset opens in the browser: "))
        var line: [UInt8] = []
        var byte: UInt8 = 0
        var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        while line.last != 0x0A, poll(&ready, 1, 60_000) == 1, read(reader, &byte, 1) == 1 { line.append(byte) }
        #expect(String(decoding: line, as: UTF8.self) == "https://shiny.example/account/help/reset\n")
    }
}
