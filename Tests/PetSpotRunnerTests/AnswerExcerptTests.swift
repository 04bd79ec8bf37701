import Foundation
import PetSpotContractGroups
import PetSpotFlowChecks
import PetSpotModel
@testable import PetSpotReport
import Testing

/// What a failure keeps of its answer: bounded, whatever the answer's size.
@Suite("failing answers keep a bounded excerpt")
struct AnswerExcerptTests {
    @Test("a failing answer keeps a bounded excerpt: its start, redacted, and its full length")
    func excerptIsBounded() throws {
        let token = "petspot-staging-admin-token-0123456789"
        let recorder = ContractRecorder(secrets: SecretStore([token]))
        let session = ContractSession(
            recorder: recorder, schemas: try ContractSchemas.shared(), seed: 1, replay: "", cases: 0, progress: nil, flows: nil, backend: nil)
        // A 4 MiB JSON answer with the admin token across the cut of what is shown.
        let prefix = "{\"error\":{\"code\":\"X\",\"message\":\""
        let filler = String(repeating: "x", count: AnswerExcerpt.shownCharacters - prefix.count - 10)
        var text = prefix + filler + token
        text += String(repeating: "y", count: 4 * 1024 * 1024 - text.utf8.count - 3) + "\"}}"
        let response = TransportResponse(status: 500, headers: [("Content-Type", "application/json")], body: Data(text.utf8))
        for index in 0..<20 {
            session.record(
                "group", "contract \(index)", "expected 200, got 500", request: BackendTarget.getRequest("/api/health"), expected: "200",
                response: .success(response), redactor: Redactor(secrets: [token]))
        }
        let kept = recorder.keptFailures
        #expect(kept.count == 20)
        for failure in kept {
            let actual = failure.actual ?? ""
            #expect(actual.utf8.count <= AnswerExcerpt.shownCharacters + 64, "\(actual.utf8.count) bytes kept")
            #expect(actual.hasSuffix(" ... (4194304 bytes in all)"))
            #expect(actual.hasPrefix("500 {\"error\""))
            #expect(!actual.contains(String(token.prefix(10))), "a part of the token is shown")
        }
        // A short answer is kept whole.
        session.record(
            "group", "short", "x", request: nil, expected: nil,
            response: .success(TransportResponse(status: 500, body: Data("{\"a\":1}".utf8))))
        #expect(recorder.keptFailures.last?.actual == "500 {\"a\":1}")
    }

    @Test("what every answer shares keeps only the start of the failing answers it shows")
    func sharedObservationsKeepExcerpts() {
        var observations = SharedBehaviourObservations()
        let big = TransportResponse(status: 200, headers: [("Content-Type", "text/html")], body: Data(repeating: UInt8(ascii: "a"), count: 4 << 20))
        for _ in 0..<50 { observations.observe(BackendTarget.getRequest("/api/health"), big) }
        #expect(observations.contentType.failed == 50)
        #expect(observations.cors.failed == 50)
        for failure in observations.contentType.failures + observations.cors.failures {
            #expect(failure.response.body.count == AnswerExcerpt.keptBodyBytes)
            #expect(failure.bodyLength == 4 << 20)
            #expect(AnswerExcerpt.text(failure.response, bodyLength: failure.bodyLength, redactor: Redactor()).hasSuffix("(4194304 bytes in all)"))
        }
    }
}
