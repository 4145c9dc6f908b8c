import Foundation
import Testing
@testable import BulwarkCore

@Suite struct VersionVectorTests {
    @Test func ordersByWhatEachSideHasSeen() {
        let base = VersionVector(["a": 2, "b": 1])
        #expect(base.compare(base) == .same)
        #expect(base.bumped("a").compare(base) == .newer)
        #expect(base.compare(base.bumped("b")) == .older)
        #expect(base.bumped("a").compare(base.bumped("b")) == .concurrent)
        #expect(VersionVector().compare(base) == .older)
        // A machine never seen counts as zero.
        #expect(VersionVector(["a": 2, "b": 1, "c": 0]) == base)
        #expect(base.bumped("c").compare(base) == .newer)
    }

    @Test func mergingSeesBothAndDescendsFromEach() {
        let left = VersionVector(["a": 3, "b": 1]), right = VersionVector(["a": 1, "b": 4, "c": 2])
        let merged = left.merged(with: right)
        #expect(merged == VersionVector(["a": 3, "b": 4, "c": 2]))
        #expect(merged.compare(left) == .newer && merged.compare(right) == .newer)
        #expect(merged.bumped("a").compare(merged) == .newer)
    }

    @Test func theCanonicalTextIsSortedAndStable() {
        #expect(VersionVector(["b": 1, "a": 12]).canonical == "a=12,b=1")
        #expect(VersionVector().canonical == "")
    }
}

/// A remote's URL in a message: a password or token in it never shown.
@Suite struct SyncRedactionTests {
    @Test func aPasswordInARemotesURLIsHidden() {
        #expect(SyncError.redacted("cannot reach https://jane:ghp_s3cret@github.com/jane/vault.git: 403")
                == "cannot reach https://jane:•••@github.com/jane/vault.git: 403")
        #expect(SyncError.git("cannot reach https://jane:tok@host/v.git: down").description == "cannot reach https://jane:•••@host/v.git: down")
        #expect(SyncError.redacted("git@github.com:jane/vault.git") == "git@github.com:jane/vault.git")
        #expect(SyncError.redacted("https://host/v.git") == "https://host/v.git")
    }
}
