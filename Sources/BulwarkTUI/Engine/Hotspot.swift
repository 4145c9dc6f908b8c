/// A place on the frame a mouse click means something: a key (a footer
/// hint, a dialog's button), a list row, or a dialog's background, which
/// takes the click so that nothing underneath does. Drawn with the frame,
/// so what a click hits is always what the person sees.
/// The app's lists, so that a click on a row counts only for the list in
/// charge (a row seen around a dialog is not the dialog's).
public enum ListID: Sendable, Hashable { case vault, recommendations, messages, history, signUp, filterPicker, files, palette }

public struct Hotspot: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        case key(Key)
        /// A row of one of the app's lists.
        case row(ListID, Int)
        case blocker
    }

    public let area: Rect
    public let target: Target
}

extension Rect {
    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }
}

extension Buffer {
    public mutating func addHotspot(_ area: Rect, _ target: Hotspot.Target) {
        let clipped = area.intersection(self.area)
        guard !clipped.isEmpty else { return }
        hotspots.append(Hotspot(area: clipped, target: target))
    }

    /// What a click at (x, y) hits: the last drawn place there wins, as the
    /// last drawn cells do; a dialog's background hits nothing.
    public func hotspot(x: Int, y: Int) -> Hotspot.Target? {
        guard let hit = hotspots.last(where: { $0.area.contains(x: x, y: y) }), hit.target != .blocker else { return nil }
        return hit.target
    }
}
