import Foundation
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel
@testable import PetSpotReport
import Testing

@Suite("counterexample rendering")
struct CounterexampleTests {
    @Test("invisible characters, non-ASCII spaces, marks and joiners are escaped; visible text is kept")
    func escapes() {
        #expect(VisibleText.escaped("a\u{00A0}b") == "a\\u{00A0}b")
        #expect(VisibleText.escaped("\u{200B}") == "\\u{200B}")
        #expect(VisibleText.escaped("7\u{0301}") == "7\\u{0301}")
        #expect(VisibleText.escaped("\u{1F468}\u{200D}\u{1F469}") == "\u{1F468}\\u{200D}\u{1F469}")
        #expect(VisibleText.escaped("tab\there") == "tab\\u{0009}here")
        #expect(VisibleText.escaped("Zürich ąę 漢字 🐶") == "Zürich ąę 漢字 🐶")
        #expect(VisibleText.escaped("\u{FEFF}x") == "\\u{FEFF}x")
    }

    @Test("long strings are compared at their first difference, with lengths in Characters")
    func firstDifference() {
        let expected = String(repeating: "a", count: 499) + "\u{1F468}\u{200D}\u{1F469}"
        let actual = expected + "z"
        let text = VisibleText.firstDifference(actual, expected)
        #expect(text.contains("character 501"))
        #expect(text.contains("lengths 501 vs 500 characters"))
        #expect(text.contains("\\u{200D}"))
    }

    @Test("payload differences of long or multi-scalar strings say where they differ")
    func payloadDifferences() {
        let long = String(repeating: "b", count: 120)
        let text = FlowAnswerChecks.payloadDifferences(["reward": .string(long + "c")], ["reward": .string(long)])
        #expect(text.contains("\"reward\" first differ at character 121 (lengths 121 vs 120 characters)"))
        let short = FlowAnswerChecks.payloadDifferences(["phone": "1\u{00A0}2"], ["phone": "12"])
        #expect(short.contains("\\u{00A0}"))
    }

    @Test("causes of one defect seen by several contracts fold into the cause with the most cases")
    func causesFold() {
        let same = FailureCause(contract: FlowAnswerChecks.sameAsReferenceContract, fields: ["chipNumber"], kind: FlowAnswerChecks.Kind.valueDiffers)
        let schema = FailureCause(contract: FlowAnswerChecks.schemaContract, fields: ["chipNumber"], kind: "does not match the captured schemas")
        let other = FailureCause(contract: FlowAnswerChecks.sameAsReferenceContract, fields: ["phone"], kind: FlowAnswerChecks.Kind.accepted)
        let flowCase = FlowContractsFixture.flowCase
        let causes: [FailureCause: FlowContracts.CauseRecord] = [
            schema: .init(order: 0, firstCase: flowCase, index: 1, cases: [1, 4]),
            same: .init(order: 1, firstCase: flowCase, index: 1, cases: [1, 2, 4]),
            other: .init(order: 2, firstCase: flowCase, index: 2, cases: [2]),
        ]
        let (roots, facets) = FlowContracts.distinct(causes)
        #expect(roots.map(\.key) == [same, other])
        #expect(facets[same] == [schema])
    }
}

enum FlowContractsFixture {
    static let flowCase = FlowCase(
        flow: .missing, inputs: ReportInputs(), context: ReportContext(timeZone: TimeZone(identifier: "UTC")!, now: Date(timeIntervalSince1970: 0)))
}
