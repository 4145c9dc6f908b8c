import Testing
@testable import BulwarkCore

/// A password's accounts: one held as it is (no list), a list from the
/// second on, in the order they joined.
@Suite struct ReuseMembersTests {
    @Test func membersJoinAndLeaveInOrder() throws {
        var members = ReuseMembers.one("a")
        #expect(Array(members) == ["a"])
        members.append("b")
        members.append("c")
        let copy = members
        members.append("d")
        #expect(Array(members) == ["a", "b", "c", "d"])
        #expect(Array(copy) == ["a", "b", "c"])  // a copy is not changed by the append
        let withoutB = try #require(members.removing("b"))
        #expect(Array(withoutB) == ["a", "c", "d"])
        let last = try #require(ReuseMembers.many(["a", "c"]).removing("a"))
        guard case .one("c") = last else { Issue.record("one member left is held as one: \(last)"); return }
        #expect(ReuseMembers.one("a").removing("a") == nil)
        #expect(Array(try #require(ReuseMembers.one("a").removing("x"))) == ["a"])
    }
}
