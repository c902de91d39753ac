#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// One failed assertion of a ``TestStore``: what went wrong, and where the test asserted it.
public struct TestFailure: Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, with a diff for a state that does not match.
    public var message: String
    /// The file of the assertion, as `#fileID` gives it (`Module/File.swift`).
    public var fileID: String
    /// The file of the assertion, as `#filePath` gives it.
    public var filePath: String
    /// The line of the assertion.
    public var line: Int
    /// The column of the assertion.
    public var column: Int
    /// `filePath` as the compiler gave it, which `XCTFail` needs.
    private var compiledFilePath: StaticString?

    /// A failure with `message`, asserted at the given place.
    public init(message: String, fileID: String, filePath: String, line: Int, column: Int) {
        self.message = message
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    init(_ message: String, at site: CallSite) {
        self.init(message: message, fileID: "\(site.fileID)", filePath: "\(site.filePath)", line: Int(site.line), column: Int(site.column))
        compiledFilePath = site.filePath
    }

    /// The file path for `XCTFail`: the compiler's, unless the failure was made by hand or
    /// moved elsewhere since.
    var staticFilePath: StaticString? {
        guard let compiledFilePath, "\(compiledFilePath)" == filePath else { return nil }
        return compiledFilePath
    }

    public static func == (lhs: TestFailure, rhs: TestFailure) -> Bool {
        lhs.message == rhs.message && lhs.fileID == rhs.fileID && lhs.filePath == rhs.filePath
            && lhs.line == rhs.line && lhs.column == rhs.column
    }

    /// `File.swift:12: message`.
    public var description: String { "\(fileID):\(line): \(message)" }
}

/// Where a ``TestStore`` sends its failures: to the test framework running the test (the
/// default), to one framework always, or to your own closure.
///
/// ```swift
/// final class FeatureTests: XCTestCase {
///     func testLoading() async {
///         let store = TestStore(initialState: Feature.State(), reducer: Feature(), reportingFailuresTo: .xcTest)
///         await store.send(.refreshTapped) { $0.isLoading = true }
///     }
/// }
/// ```
///
/// A reporter of your own (`TestFailureReporter { failure in ... }`) collects failures
/// instead, to test that a store fails where it should: XCTest on Linux has no
/// `XCTExpectFailure`.
public struct TestFailureReporter: Sendable {
    private let report: @Sendable (TestFailure) -> Void

    /// A reporter that hands every failure to `report`.
    public init(_ report: @escaping @Sendable (TestFailure) -> Void) {
        self.report = report
    }

    /// Reports `failure`.
    public func callAsFunction(_ failure: TestFailure) {
        report(failure)
    }

    /// A Swift Testing issue inside a Swift Testing test, an XCTest failure otherwise: the
    /// default.
    public static var automatic: TestFailureReporter {
        TestFailureReporter { failure in
            #if canImport(Testing)
            if Test.current != nil { return recordIssue(failure) }
            #endif
            failTestCase(failure)
        }
    }

    #if canImport(XCTest)
    /// Always an XCTest failure (`XCTFail`), as in an `XCTestCase` that also links Swift
    /// Testing.
    public static var xcTest: TestFailureReporter {
        TestFailureReporter(failTestCase)
    }
    #endif

    #if canImport(Testing)
    /// Always a Swift Testing issue (`Issue.record`), at the assertion's place.
    public static var swiftTesting: TestFailureReporter {
        TestFailureReporter(recordIssue)
    }
    #endif
}

#if canImport(Testing)
@Sendable private func recordIssue(_ failure: TestFailure) {
    Issue.record(
        Comment(rawValue: failure.message),
        sourceLocation: SourceLocation(
            fileID: failure.fileID,
            filePath: failure.filePath,
            line: failure.line,
            column: failure.column
        )
    )
}
#endif

@Sendable private func failTestCase(_ failure: TestFailure) {
    #if canImport(XCTest)
    if let file = failure.staticFilePath {
        XCTFail(failure.message, file: file, line: UInt(failure.line))
    } else {
        XCTFail("\(failure.filePath):\(failure.line): \(failure.message)")
    }
    #else
    print("\(failure.fileID):\(failure.line): TestStore failure: \(failure.message)")
    #endif
}
