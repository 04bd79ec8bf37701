@testable import PetSpotAdapterDriving
import PetSpotFlowChecks
import PetSpotJSON
import Testing

/// The answer rules of versions 1 and 2 in isolation: `unavailable` is an answer, `unsupported`
/// is a declaration only where sut-protocol.md makes it one, and a first line that is no answer
/// of a version the runner asks is a setup mistake.
@Suite("adapter answer rules")
struct AdapterAnswerRulesTests {
    @Test("unavailable is a valid answer with nothing else in it")
    func unavailableDecodes() throws {
        #expect(try AdapterAnswer(line: #"{"v":1,"id":4,"outcome":"unavailable"}"#, expectedId: 4) == .unavailable)
        #expect(throws: AdapterProtocolError.self) { try AdapterAnswer(line: #"{"v":1,"id":4,"outcome":"unavailable","step":"photo"}"#, expectedId: 4) }
        #expect(AdapterAnswer.unavailable.json(id: 9).serialized() == #"{"v":1,"id":9,"outcome":"unavailable"}"#)
    }

    @Test("unsupported to a version 1 question is a protocol failure of its own")
    func unsupportedToVersionOne() {
        #expect(throws: AdapterProtocolError.unsupported(version: 1)) {
            try AdapterAnswer(line: #"{"v":1,"id":2,"outcome":"unsupported"}"#, expectedId: 2)
        }
    }

    @Test("only {\"v\": 1, \"id\": N, \"outcome\": \"unsupported\"} declares version 1 only", arguments: [
        (#"{"v":1,"id":7,"outcome":"unsupported"}"#, true),
        (#"{"id":7,"outcome":"unsupported","v":1}"#, true),
        (#"{"v":2,"id":7,"outcome":"unsupported"}"#, false),
        (#"{"v":1,"id":8,"outcome":"unsupported"}"#, false),
        (#"{"v":1,"id":7,"outcome":"unsupported","why":"old"}"#, false),
        (#"{"v":1,"id":7,"outcome":"unavailable"}"#, false),
        ("unsupported", false),
    ])
    func declaration(line: String, declares: Bool) {
        #expect(AdapterAnswer.declaresVersionOneOnly(line, expectedId: 7) == declares, "\(line)")
    }

    @Test("a first line that is no JSON object, or carries another \"v\", is a setup mistake; an answer of version 1 or 2 is judged")
    func firstAnswer() {
        #expect(AdapterSetupFailure.Reason.firstAnswer("PetSpot adapter 2.0 ready") == .notAnAnswer(line: "PetSpot adapter 2.0 ready"))
        #expect(AdapterSetupFailure.Reason.firstAnswer("[1,2]") == .notAnAnswer(line: "[1,2]"))
        let three = #"{"v":3,"id":1,"outcome":"blocked"}"#
        #expect(AdapterSetupFailure.Reason.firstAnswer(three) == .unknownVersion(version: "3", line: three))
        let none = #"{"id":1,"outcome":"blocked"}"#
        #expect(AdapterSetupFailure.Reason.firstAnswer(none) == .unknownVersion(version: nil, line: none))
        #expect(AdapterSetupFailure.Reason.firstAnswer(#"{"v":1,"id":9,"outcome":"nonsense"}"#) == nil)
        #expect(AdapterSetupFailure.Reason.firstAnswer(#"{"v":2,"id":1}"#) == nil)
    }

    @Test("the setup paragraph for another \"v\" says which version came and which are asked")
    func unknownVersionParagraph() {
        let failure = AdapterSetupFailure(
            command: "./adapter", reason: .unknownVersion(version: "3", line: #"{"v":3,"id":1}"#), standardError: [])
        #expect(failure.paragraph.hasPrefix("the adapter never gave a valid answer: --sut \"./adapter\" "), "\(failure.paragraph)")
        #expect(failure.paragraph.contains("the adapter answered version 3; this runner asks version 1 and 2 questions"), "\(failure.paragraph)")
    }

    @Test("standard error of a question keeps its first lines and its last ones, and counts those between")
    func excerpt() {
        var excerpt = StandardErrorExcerpt()
        #expect(excerpt.isEmpty)
        for number in 1...20 { excerpt.add("line \(number)") }
        #expect(excerpt.lines == (1...8).map { "line \($0)" } + ["(8 more lines)"] + (17...20).map { "line \($0)" })
        var short = StandardErrorExcerpt()
        for number in 1...10 { short.add("line \(number)") }
        #expect(short.lines == (1...10).map { "line \($0)" })
        #expect(short.joined.hasPrefix("line 1 | line 2 | "))
    }
}
