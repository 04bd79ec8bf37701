import PetSpotPropertyEngine
import PetSpotPropertyEngineTestSupport
import PetSpotPropertyTesting
import XCTest

/// Checks that `XCTAssertProperty` reports failures at the caller's file and line.
///
/// While `isCapturing` is set, recorded failures are captured instead of failing the test,
/// so the test can assert on them; every other failure is recorded normally.
final class XCTestIntegrationTests: XCTestCase {
    private struct Captured {
        let message: String
        let filePath: String
        let line: Int
    }

    private var isCapturing = false
    private var captured: [Captured] = []
    private let seeded = PropertyConfiguration(seed: 7, readsEnvironment: false)

    #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
        guard isCapturing else { return super.record(issue) }
        captured.append(Captured(
            message: issue.compactDescription, filePath: issue.sourceCodeContext.location?.fileURL.path ?? "",
            line: issue.sourceCodeContext.location?.lineNumber ?? -1))
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard isCapturing else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        captured.append(Captured(message: description, filePath: filePath, line: lineNumber))
    }
    #endif

    /// Runs `body` capturing the failures it records.
    private func capturing(_ body: () -> Void) -> [Captured] {
        captured = []
        isCapturing = true
        body()
        isCapturing = false
        return captured
    }

    func testFailureIsReportedAtCallerLine() {
        let expectedLine = #line + 2
        let failures = capturing {
            XCTAssertProperty(Gen.int(in: 0...10_000), configuration: seeded) { $0 < 1000 }
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.line, expectedLine)
        XCTAssertEqual(failures.first?.filePath, "\(#filePath)")
        let message = failures.first?.message ?? ""
        XCTAssertTrue(message.contains("PETSPOT_SEED=7 swift test --filter \"testFailureIsReportedAtCallerLine\""), message)
        XCTAssertTrue(message.contains("Shrunk counterexample"), message)
        XCTAssertTrue(message.contains("1000"), message)
    }

    func testThrowingAndPropertyFormsReportAtCallerLine() {
        let expectedLines = [#line + 2, #line + 6]
        let failures = capturing {
            XCTAssertProperty(
                Gen.string(from: .asciiLetters), name: "throwing", configuration: seeded, verifying: { text in
                    try require(text.count < 2, "\(text) is too long")
                })
            XCTAssertProperty(StackMachine().property(name: "stack"), configuration: seeded)
        }
        XCTAssertEqual(failures.map(\.line), expectedLines)
        XCTAssertTrue(failures.first?.message.contains("\"aa\"") ?? false, failures.first?.message ?? "")
        XCTAssertTrue(failures.last?.message.contains("[push(0), push(1), pop]") ?? false, failures.last?.message ?? "")
    }

    func testPassingPropertyRecordsNothing() {
        let failures = capturing {
            XCTAssertProperty(Gen.int(in: 0...10), configuration: seeded) { $0 <= 10 }
        }
        XCTAssertEqual(failures.count, 0)
    }
}
