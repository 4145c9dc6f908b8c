@testable import BulwarkCore
import Testing

/// A write's rows put in the file's order (SQLite's byte order of ids)
/// before they are merged into the listing: sorted, a put winning over a
/// delete; ids handed over as bytes already in order are merged as given.
@Suite struct ListingOrderTests {
    static func plain(_ changes: [(id: String, version: Int64?)]) -> [String] {
        changes.map { $0.id + "=" + ($0.version.map(String.init) ?? "gone") }
    }

    @Test func putsInByteOrderStayInThatOrder() {
        #expect(Self.plain(Listing.inFileOrder(put: ["A", "B", "a", "é"], delete: [], version: 7)) == ["A=7", "B=7", "a=7", "é=7"])
    }

    @Test func putsOutOfOrderOrRepeatedAreSortedOnce() {
        // "Z" < "a" in bytes; "é" (0xC3 0xA9) after "z".
        #expect(Self.plain(Listing.inFileOrder(put: ["a", "Z", "é", "z"], delete: [], version: 3)) == ["Z=3", "a=3", "z=3", "é=3"])
        #expect(Self.plain(Listing.inFileOrder(put: ["b", "a", "b"], delete: [], version: 3)) == ["a=3", "b=3"])
        #expect(Self.plain(Listing.inFileOrder(put: ["a", "a"], delete: [], version: 3)) == ["a=3"])
    }

    @Test func deletesJoinInOrderAndAPutWins() {
        #expect(Self.plain(Listing.inFileOrder(put: ["b", "c"], delete: ["a", "c", "d"], version: 9)) == ["a=gone", "b=9", "c=9", "d=gone"])
    }

    @Test func aListingAfterPutsInOrderIsTheSameAsAfterPutsInAnyOrder() {
        var base = Listing()
        for id in ["b", "d"] { Array(id.utf8).withUnsafeBytes { base.append(id: $0, version: 1) } }
        let sorted = base.applying(put: ["a", "c", "e"], delete: [], version: 2)
        let shuffled = base.applying(put: ["e", "a", "c"], delete: [], version: 2)
        #expect(sorted == shuffled && sorted.count == 5 && sorted.newest == 2)
    }

    /// A large write's ids, handed over as bytes in the file's order, make
    /// the listing the Strings do; out of order or repeated, they take the
    /// general way and still do.
    @Test func idsHandedOverAsBytesMakeTheSameListing() {
        var base = Listing()
        for id in ["b", "d", "f"] { Array(id.utf8).withUnsafeBytes { base.append(id: $0, version: 1) } }
        for put in [["a", "c", "d", "é"], ["Z", "b"], ["é", "a", "c"], ["c", "c", "a"], ["g"]] {
            let bytes = base.applying(sortedPut: RowIDs(put), version: 4)
            #expect(bytes == base.applying(put: put, delete: [], version: 4), "\(put)")
        }
        let rewritten = base.applying(sortedPut: RowIDs(["b", "c"]), version: 4)
        #expect(rewritten.count == 4 && rewritten.newest == 4)
        #expect(base.applying(sortedPut: RowIDs([String]()), version: 4) == base)
        #expect(RowIDs(["ab", "", "c"]).strings == ["ab", "", "c"])
    }
}
