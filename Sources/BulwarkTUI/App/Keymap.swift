/// One row of a keymap table: the keys, what they do, the words for the
/// footer and the help overlay, and why the binding is off when it is.
public struct KeyBinding<A: Sendable>: Sendable {
    public var keys: [Key]
    public var action: A
    public var help: String
    /// A short label for the footer; nil keeps the binding out of the footer.
    public var hint: String?
    /// How the footer writes the key, when the table's key names are not it
    /// (one `↑↓ move` hint standing for two bindings).
    public var hintKey: String?
    /// When set, the binding is shown dimmed and pressing it explains why.
    public var disabledReason: String?

    public init(_ keys: [Key], _ action: A, help: String, hint: String? = nil, hintKey: String? = nil,
                disabledReason: String? = nil) {
        self.keys = keys
        self.action = action
        self.help = help
        self.hint = hint
        self.hintKey = hintKey
        self.disabledReason = disabledReason
    }

    /// The keys as written for people: `j/↓`.
    public var keyLabel: String { keys.map(\.description).joined(separator: "/") }
}

/// A screen's key table. One table drives the key handling, the footer and
/// the `?` overlay, so the three can never disagree.
public struct Keymap<A: Sendable>: Sendable {
    public var title: String
    public var bindings: [KeyBinding<A>]

    public init(_ title: String, _ bindings: [KeyBinding<A>]) {
        self.title = title
        self.bindings = bindings
    }

    public func binding(for key: Key) -> KeyBinding<A>? {
        bindings.first { $0.keys.contains(key) }
    }

    /// Footer hints: enabled bindings that have a hint, in table order.
    public var footerHints: [(key: String, label: String)] {
        bindings.compactMap { binding in
            guard let hint = binding.hint, binding.disabledReason == nil else { return nil }
            return (binding.hintKey ?? binding.keys[0].description, hint)
        }
    }
}
