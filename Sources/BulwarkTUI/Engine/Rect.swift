/// A rectangle of cells. Sizes never go negative: an operation that would
/// make one gives an empty rectangle, so layout code cannot crash on a tiny
/// terminal.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var isEmpty: Bool { width == 0 || height == 0 }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var description: String { "\(x),\(y) \(width)x\(height)" }

    public func inset(by amount: Int) -> Rect {
        inset(horizontal: amount, vertical: amount)
    }

    public func inset(horizontal: Int, vertical: Int) -> Rect {
        Rect(x: x + horizontal, y: y + vertical, width: width - 2 * horizontal, height: height - 2 * vertical)
    }

    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// A rectangle of the given size centred in this one (clamped to fit).
    public func centered(width w: Int, height h: Int) -> Rect {
        let cw = min(w, width), ch = min(h, height)
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }
}
