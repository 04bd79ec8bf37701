import Foundation
import PetSpotConcurrency
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel

/// The captured contract as `record` asks it what it answers: an in-process mock in the
/// production profile (backend-contract.md's answers, production's documented defects included),
/// its store empty for every request so that no recorded report answers 409 to another one, its
/// clock the report's own (a report's date is judged as on the day it was made).
///
/// What it answers is what a release file keeps for each request (``RecordedAnswer``):
/// `can-i-deploy` blocks a deploy only when a candidate backend refuses a request this contract
/// accepted.
package final class ContractAtRecording: Sendable {
    /// The mock.
    package let backend: MockBackend
    /// Its transport, for a proxy in front of it.
    package let transport: InProcessTransport
    private let clock: Locked<Date>

    /// An empty production-profile mock.
    package init() {
        let clock = Locked(Date(timeIntervalSince1970: 0))
        self.clock = clock
        backend = MockBackend(profile: .production, clock: { clock.withLock { $0 } }, sampleRows: false)
        transport = InProcessTransport(backend: backend)
    }

    /// Sets the mock's clock: the instant the report at hand was made.
    package func setClock(_ instant: Date) { clock.withLock { $0 = instant } }

    /// What the contract answers to a create with `payload` at `clock`, on an empty store.
    package func answer(create payload: JSONObject, at clock: Date) -> RecordedAnswer {
        setClock(clock)
        defer { backend.removeAllAnnouncements() }
        let request = TransportRequest(
            method: "POST", path: RecordedRequest.createPath, headers: [("Content-Type", "application/json")],
            body: JSONValue.object(payload).serializedData())
        return Self.recordedAnswer(transport.answerNow(request))
    }

    /// The status, and for a refusal the envelope's code and field, of `answer`.
    package static func recordedAnswer(_ answer: Result<TransportResponse, TransportError>) -> RecordedAnswer {
        guard case .success(let response) = answer else { return RecordedAnswer(status: 599, code: "NO_ANSWER") }
        guard !(200..<300).contains(response.status) else { return RecordedAnswer(status: response.status) }
        let error = (try? JSONValue.parse(response.body))?["error"]
        return RecordedAnswer(status: response.status, code: error?["code"]?.stringValue, field: error?["field"]?.stringValue)
    }
}
