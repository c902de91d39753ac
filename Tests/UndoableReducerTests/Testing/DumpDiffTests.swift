import Testing
@testable import UndoableReducerTesting

private struct Profile: Equatable {
    var name: String
    var tags: [String]
    var nickname: String?
    var status: Status
}

private enum Status: Equatable {
    case active
    case away(until: Int, note: String)
}

@Suite("Dumping and diffing values")
struct DumpDiffTests {
    @Test func structsEnumsCollectionsAndOptionalsDumpOneFieldPerLine() {
        let profile = Profile(name: "Ada", tags: ["a", "b"], nickname: nil, status: .away(until: 3, note: "lunch"))
        #expect(dump(profile) == """
        Profile(
          name: "Ada",
          tags: [
            "a",
            "b"
          ],
          nickname: nil,
          status: .away(
            until: 3,
            note: "lunch"
          )
        )
        """)
    }

    @Test func emptyCollectionsCasesWithoutPayloadAndStringsWithQuotesStayOnOneLine() {
        #expect(dump(Profile(name: "\"q\"\n", tags: [], nickname: "A", status: .active)) == #"""
        Profile(
          name: "\"q\"\n",
          tags: [],
          nickname: "A",
          status: .active
        )
        """#)
    }

    @Test func setsAndDictionariesDumpSortedSoEqualValuesDumpAlike() {
        #expect(dump(Set([3, 1, 2])) == "Set([\n  1,\n  2,\n  3\n])")
        #expect(dump(["b": 2, "a": 1]) == "[\n  \"a\": 1,\n  \"b\": 2\n]")
        #expect(dump([String: Int]()) == "[:]")
    }

    @Test func describeRendersOnOneLine() {
        #expect(describe(Status.away(until: 3, note: "x")) == ".away(until: 3, note: \"x\")")
        #expect(describe(Status.active) == ".active")
        #expect(describe(Optional<Int>.none as Any) == "nil")
        #expect(describe([1, 2]) == "[1, 2]")
    }

    @Test func equalValuesHaveNoDiff() {
        #expect(dumpDiff([1, 2, 3], [1, 2, 3]) == nil)
    }

    @Test func aDiffShowsOnlyTheDifferingLinesWithTwoLinesOfContext() {
        let before = Profile(name: "Ada", tags: ["a", "b", "c", "d", "e", "f"], nickname: nil, status: .active)
        var after = before
        after.tags[4] = "E"
        #expect(dumpDiff(before, after) == """
          …
              "c",
              "d",
        -     "e",
        +     "E",
              "f"
            ],
          …
        """)
    }

    @Test func separateChangesAreSeparatedByAnEllipsisAndNestedChangesKeepTheirIndentation() {
        let before = Profile(name: "Ada", tags: ["a", "b", "c", "d", "e", "f", "g"], nickname: nil, status: .away(until: 3, note: "x"))
        var after = before
        after.name = "Grace"
        after.status = .away(until: 4, note: "x")
        #expect(dumpDiff(before, after, context: 1) == """
          Profile(
        -   name: "Ada",
        +   name: "Grace",
            tags: [
          …
            status: .away(
        -     until: 3,
        +     until: 4,
              note: "x"
          …
        """)
    }

    @Test func insertedAndRemovedElementsAreMatchedByTheLongestCommonSubsequence() {
        #expect(lineDiff(["a", "b", "c", "d"], ["a", "c", "d", "e"], context: 0) == """
          …
        - b
          …
        + e
        """)
    }

    @Test func aChangedRunShowsItsRemovalsBeforeItsAdditions() {
        #expect(diffLines(["x", "a", "b", "y"], ["x", "c", "d", "y"]) == [
            .same("x"), .removed("a"), .removed("b"), .added("c"), .added("d"), .same("y"),
        ])
    }
}

extension DumpDiffTests {
    struct Outer: Equatable {
        struct Inner: Equatable {
            var values: [Int: String]
        }

        var inner = Inner(values: [1: "a"])
        var pairs: [(Int, label: String)] { [] }
    }

    @Test func typeNamesAreNestedButNotModuleQualified() {
        #expect(dump(Outer()) == """
        DumpDiffTests.Outer(
          inner: DumpDiffTests.Outer.Inner(
            values: [
              1: "a"
            ]
          )
        )
        """)
        #expect(describe((1, label: "x")) == #"(1, label: "x")"#)
    }
}
