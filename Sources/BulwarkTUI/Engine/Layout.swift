/// A small constraint layout, in the spirit of ratatui's: split a rectangle
/// into rows or columns by fixed sizes, percentages, minimums and fills.
public enum Constraint: Sendable, Hashable {
    case fixed(Int)
    case percent(Int)
    case min(Int)
    case fill
}

public enum Axis: Sendable { case horizontal, vertical }

public enum Layout {
    /// Splits `rect` along `axis`. Fixed and percent sizes are met first (in
    /// order, shrinking from the end when there is not enough room); `min` and
    /// `fill` share what is left, each `min` getting at least its minimum.
    public static func split(_ rect: Rect, _ axis: Axis, _ constraints: [Constraint]) -> [Rect] {
        let total = axis == .horizontal ? rect.width : rect.height
        var sizes = [Int](repeating: 0, count: constraints.count)
        var remaining = total
        for (index, constraint) in constraints.enumerated() {
            switch constraint {
            case .fixed(let n): sizes[index] = Swift.min(Swift.max(0, n), remaining)
            case .percent(let p): sizes[index] = Swift.min(total * Swift.max(0, p) / 100, remaining)
            case .min(let n): sizes[index] = Swift.min(Swift.max(0, n), remaining)
            case .fill: sizes[index] = 0
            }
            remaining -= sizes[index]
        }
        let flexible = constraints.indices.filter {
            if case .fill = constraints[$0] { return true }
            if case .min = constraints[$0] { return true }
            return false
        }
        if !flexible.isEmpty && remaining > 0 {
            let share = remaining / flexible.count
            var extra = remaining % flexible.count
            for index in flexible {
                sizes[index] += share + (extra > 0 ? 1 : 0)
                extra -= 1
            }
        }
        var rects: [Rect] = []
        var offset = 0
        for size in sizes {
            switch axis {
            case .horizontal: rects.append(Rect(x: rect.x + offset, y: rect.y, width: size, height: rect.height))
            case .vertical: rects.append(Rect(x: rect.x, y: rect.y + offset, width: rect.width, height: size))
            }
            offset += size
        }
        return rects
    }
}
