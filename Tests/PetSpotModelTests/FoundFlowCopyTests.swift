import Foundation
import Testing
@testable import PetSpotModel

/// report-flows.md beside the project (../shared/docs), or at `PETSPOT_DOCS_DIR`.
private let reportFlowsDoc: String? = {
    let environment = ProcessInfo.processInfo.environment["PETSPOT_DOCS_DIR"]
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let directory = environment.map { URL(fileURLWithPath: $0) }
        ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/docs")
    return try? String(contentsOf: directory.appendingPathComponent("report-flows.md"), encoding: .utf8)
}()

@Suite("Found flow copy")
struct FoundFlowCopyTests {
    @Test("every string appears verbatim in report-flows.md")
    func copyMatchesDoc() throws {
        guard let doc = reportFlowsDoc else { return sharedDataMissing("report-flows.md not found in ../shared/docs or PETSPOT_DOCS_DIR") }
        // The doc wraps lines; compare with whitespace runs collapsed.
        let flat = doc.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (name, text) in FoundFlowCopy.english.allStrings {
            #expect(flat.contains("\"\(text)\"") || flat.contains(text), "\(name): \"\(text)\" not in report-flows.md")
        }
    }

    @Test("the copy holds the screens' key strings")
    func keyStrings() {
        let copy = FoundFlowCopy.english
        #expect(copy.contactInfo.button == "Submit report")
        #expect(copy.petDetails.collarPlaceholder == "00000-00000-00000")
        #expect(copy.contactInfo.body.contains("\u{2019}"))
        #expect(copy.allStrings.count == 29)
    }
}

/// Shared data a test needs (beside the clone in `../shared`, or where its variable points) was
/// not found: a warning locally ("passed ... with N warnings" closes the run), a failure in CI
/// (`CI=true`, as `.ci/run` and CI services set it), so no run passes silently without it.
func sharedDataMissing(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let inCI = ProcessInfo.processInfo.environment["CI"] == "true"
    Issue.record(
        Comment(rawValue: "shared data missing: \(what); " + (inCI ? "CI=true requires it" : "this test checked nothing")),
        severity: inCI ? .error : .warning, sourceLocation: sourceLocation)
}
