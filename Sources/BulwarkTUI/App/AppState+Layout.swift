/// What the last frame drew of each list, kept in the state: the screens
/// draw, the reducers read. A reducer never asks a screen how tall it is.
extension AppState {
    /// Takes each list's window from a frame: its offset into the list's
    /// scroll state, its rows as the list's page.
    public mutating func adopt(_ windows: [ListID: ListWindow]) {
        for (id, window) in windows {
            listRows[id] = window.rows
            switch id {
            case .vault: list.offset = window.offset
            case .recommendations: recommendationList.offset = window.offset
            case .messages: messageList.offset = window.offset
            case .history: history?.list.offset = window.offset
            case .filterPicker: picker?.list.offset = window.offset
            case .signUp: signUp?.list.offset = window.offset
            case .files: files?.list.offset = window.offset
            case .palette: palette?.list.offset = window.offset
            }
        }
    }

    /// How far Page Up and Page Down move a list: a screenful less one row,
    /// as the list was last drawn (before any frame, the window's height).
    func pageRows(_ id: ListID?) -> Int {
        let rows = id.flatMap { listRows[$0] } ?? height
        return max(1, rows - 1)
    }
}
