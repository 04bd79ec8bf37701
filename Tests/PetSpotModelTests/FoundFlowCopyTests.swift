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
    @Test(
        "every string appears verbatim in report-flows.md",
        .enabled(if: reportFlowsDoc != nil, "skipped: report-flows.md not found in ../shared/docs or PETSPOT_DOCS_DIR"))
    func copyMatchesDoc() throws {
        let doc = try #require(reportFlowsDoc)
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
