import Foundation
import Testing

/// The palette, the message log, undo and ranked search in a real terminal
/// (tmux), on the embedded demo.
@Suite(.serialized) struct AppPaletteTerminalTests {
    @Test func thePaletteRunsAnActionUndoBringsBackADeleteAndTheLogKeepsIt() throws {
        let tmux = try TmuxSession(width: 100, height: 30, command: AppTerminalTests.demo + " --no-lock")
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        // `:` filters as typed and runs the action selected.
        try tmux.send(":")
        try tmux.waitFor(text: "Actions")
        for character in "sort" { try tmux.send(String(character)) }
        try tmux.waitFor("the palette filtered") { $0.contains("Sort by title, site or age (cycles)") && !$0.contains("Copy the password") }
        try tmux.send("Enter")
        try tmux.waitFor(text: "Sorted by site.")
        // Searching "shiny" sorted by site: the title's match first.
        try AppTerminalTests.search(tmux, "shiny", expect: "Shiny")
        // Delete, then z: it is back.
        try tmux.send("d")
        try tmux.waitFor(text: "Delete Shiny")
        try tmux.send("y")
        try tmux.waitFor(text: "Deleted Shiny.")
        try tmux.send("z")
        try tmux.waitFor(text: "Undid deleting Shiny.")
        // The log holds every message, the undo's line with them.
        try tmux.send("M")
        let log = try tmux.waitFor("the log") { $0.contains("Messages of this session") && $0.contains("Undo: deleting Shiny") }
        #expect(log.contains("Deleted Shiny.") && log.contains("Sorted by site."))
    }
}
