/// A mouse report, in the frame's cells.
public enum MouseEvent: Sendable, Equatable {
    case press(x: Int, y: Int)
    case wheelUp
    case wheelDown
}

/// What a mouse report does: the key a clicked button stands for, or an
/// action (a row chosen, the list scrolled).
public enum MouseRoute: Sendable, Equatable {
    case key(Key)
    case action(AppAction)
}

/// Clicks land on the hotspots the last frame drew; the wheel moves the
/// list in charge three rows a notch.
public enum MouseRouter {
    public static let wheelRows = 3

    public static func route(_ event: MouseEvent, on frame: Buffer) -> MouseRoute? {
        switch event {
        case .wheelUp: return .action(.moveSelection(-wheelRows))
        case .wheelDown: return .action(.moveSelection(wheelRows))
        case .press(let x, let y):
            switch frame.hotspot(x: x, y: y) {
            case .key(let key)?: return .key(key)
            case .row(let list, let index)?: return .action(.selectRow(list, index))
            case .blocker?, nil: return nil
            }
        }
    }
}
