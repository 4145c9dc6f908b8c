/// The part of a list one frame showed: its first row and how many rows
/// fit. Written by the list as it draws, read back into the state.
public struct ListWindow: Sendable, Hashable {
    public var offset: Int
    public var rows: Int

    public init(offset: Int, rows: Int) {
        self.offset = offset
        self.rows = rows
    }
}
