import Foundation
import PetSpotConcurrency
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel
import PetSpotReport

/// The backend as one contract group sees it: sends its requests through the run's budget,
/// hands out the run's microchip numbers, and records its cases under the group's name.
///
/// A value of it may be bound to a ``BudgetHold`` (``holding(_:_:)``): its requests are then paid
/// from the hold first, so a step that needs several requests is not cut in half.
package struct GroupBackend: Sendable {
    /// The group's name in the report.
    package let group: String
    /// The run.
    package let session: ContractSession
    /// The backend under test.
    package let target: BackendTarget
    /// The requests held for the current step, if any.
    private let hold: BudgetHold?
    /// Set once the budget refused one of this group's requests, or the breaker tripped.
    private let refusal: RefusalFlag
    /// The group's consecutive timeouts.
    private let breaker: TimeoutBreaker

    /// The backend of `group` in `session`.
    init(group: String, session: ContractSession, target: BackendTarget) {
        self.group = group
        self.session = session
        self.target = target
        hold = nil
        refusal = RefusalFlag()
        breaker = TimeoutBreaker(limit: target.maxConsecutiveTimeouts)
    }

    private init(_ other: GroupBackend, hold: BudgetHold) {
        group = other.group
        session = other.session
        target = other.target
        refusal = other.refusal
        breaker = other.breaker
        self.hold = hold
    }

    /// The profile the backend should answer as.
    package var profile: BackendProfile { target.profile }
    /// The admin token, when given.
    package var adminToken: String? { target.adminToken }
    /// Requests in flight at most.
    package var concurrency: Int { target.concurrency }
    /// The captured contract.
    package var schemas: ContractSchemas { session.schemas }
    /// Whether the budget refused a request of this group, or its breaker tripped.
    var wasRefused: Bool { refusal.isSet }

    /// Why the group sends no more requests: its breaker tripped, the run stopped granting
    /// requests (an interruption, the deadline), or the budget was reached.
    var stopReason: String {
        if breaker.isTripped { return breaker.reason }
        return target.transport.stopReason ?? "request budget reached"
    }

    // MARK: Sending

    /// Charges `request` to the budget and sends it. The answer's absence by timeout counts
    /// toward the group's breaker: after ``BackendTarget/maxConsecutiveTimeouts`` in a row, the
    /// group sends nothing more (noted once in the report).
    /// - Returns: the answer, or why there is none.
    /// - Throws: ``GroupStop/requestsRefused`` when the budget refuses it (noted once in the
    ///   report), or once the breaker tripped; nothing was sent then.
    package func send(_ request: TransportRequest) async throws(GroupStop) -> Result<TransportResponse, TransportError> {
        if breaker.isTripped {
            refusal.set()
            throw .requestsRefused
        }
        let answer: Result<TransportResponse, TransportError>
        do {
            answer = try await target.send(request, hold: hold)
        } catch {
            refusal.set()
            target.noteRefusal(recorder: session.recorder)
            throw .requestsRefused
        }
        if breaker.trips(on: answer) {
            refusal.set()
            session.recorder.note("\(group): \(breaker.reason); its other contracts were skipped")
        }
        return answer
    }

    /// Sends `request` and returns it with its answer.
    package func exchange(_ request: TransportRequest) async throws(GroupStop) -> BackendTarget.Exchange {
        BackendTarget.Exchange(request: request, response: try await send(request))
    }

    /// Holds `count` requests for one step and runs `body` with a backend that pays from them, so
    /// the step is never cut in half by other cases spending the budget. The requests `body` does
    /// not send go back to the budget.
    /// - Throws: ``GroupStop/requestsRefused`` when the budget cannot hold them (nothing is sent).
    package func holding<T>(_ count: Int, _ body: (GroupBackend) async throws(GroupStop) -> T) async throws(GroupStop) -> T {
        guard let hold = target.transport.hold(count) else {
            refusal.set()
            target.noteRefusal(recorder: session.recorder)
            throw .requestsRefused
        }
        return try await body(GroupBackend(self, hold: hold))
    }

    /// A transport through this backend (charged, observed, counted by the breaker) for code that
    /// takes one, such as the model's ``ReportSubmitter``; a refused request reaches that code as a
    /// transport error.
    package var transport: any AnnouncementTransport { GroupTransport(backend: self) }

    /// Runs `body` for every item, at most `limit` (by default ``concurrency``) at once; once the
    /// budget refuses a request no further item starts.
    package func forEach<Item: Sendable>(
        _ items: [Item], limit: Int? = nil, _ body: @escaping @Sendable (Item) async throws(GroupStop) -> Void
    ) async throws(GroupStop) {
        let refusal = self.refusal
        let stop = RefusalFlag()
        await forEachConcurrently(items, limit: limit ?? concurrency) { item in
            guard !refusal.isSet, !stop.isSet else { return }
            do throws(GroupStop) {
                try await body(item)
            } catch {
                stop.set(error)
            }
        }
        if let error = stop.error { throw error }
    }

    // MARK: What the run owns

    /// A microchip number unique to the run.
    package func microchip() -> String { target.microchips.next() }

    /// The catalog's valid base payload with a fresh microchip number of the run.
    package func basePayload() -> JSONObject {
        session.schemas.documents.negativeCases.basePayload(microchipNumber: microchip())
    }

    /// An announcement the run created: its id and paths, management password and the 201 answer.
    package struct Created: Sendable {
        /// The announcement's id.
        package var id: String { path.id }
        /// Its paths (the id as one path segment).
        package let path: AnnouncementPath
        /// Its management password (a secret: never printed).
        package let password: String
        /// The 201 answer's body.
        package let answer: JSONObject
        /// The create exchange.
        package let exchange: BackendTarget.Exchange
    }

    /// A setup request that did not answer as needed.
    package struct FailedSetup: Error, Sendable {
        /// The request.
        package let request: TransportRequest
        /// Its answer.
        package let response: Result<TransportResponse, TransportError>
        /// What was wrong with it, when it answered 201 (an id that is no path segment); `nil`
        /// when it did not answer 201 with an id and a management password.
        package var problem: String? = nil
    }

    /// Creates an announcement from `body` (it is deleted at cleanup).
    /// - Returns: the created announcement, or the exchange when it did not answer 201 with an id
    ///   that is a single path segment (``AnnouncementPath``) and a management password.
    package func create(_ body: JSONObject) async throws(GroupStop) -> Result<Created, FailedSetup> {
        let request = BackendTarget.createRequest(.object(body))
        let answer = try await send(request)
        guard case .success(let response) = answer, response.status == 201,
            let object = (try? JSONValue.parse(response.body))?.objectValue, let id = object["id"]?.stringValue,
            let password = object["managementPassword"]?.stringValue
        else {
            return .failure(FailedSetup(request: request, response: answer))
        }
        switch AnnouncementPath.of(id) {
        case .failure(let refusal):
            return .failure(FailedSetup(request: request, response: answer, problem: refusal.answered(by: "create")))
        case .success(let path):
            return .success(Created(path: path, password: password, answer: object, exchange: BackendTarget.Exchange(request: request, response: answer)))
        }
    }

    /// The paths of the announcement `id`, which `what` (`create`, `the list`) answered in
    /// `exchange`; `nil` when `id` is not a single path segment, after recording that as a failure
    /// of `contract` (`create answered id '../../x?y', not a single path segment (it contains
    /// '/')`). The id is then never sent back: a group that gets `nil` sends nothing about it.
    package func path(
        of id: String, answeredIn exchange: BackendTarget.Exchange, by what: String, failing contract: String, password: String? = nil
    ) -> AnnouncementPath? {
        switch AnnouncementPath.of(id) {
        case .success(let path): return path
        case .failure(let refusal):
            record(contract, refusal.answered(by: what), exchange, expected: "an id that is a single path segment", password: password)
            return nil
        }
    }

    /// Creates the catalog's base payload with a fresh microchip number.
    package func createBase() async throws(GroupStop) -> Result<Created, FailedSetup> {
        try await create(basePayload())
    }

    // MARK: Recording

    /// What is wrong with `answer` against `expected`, or `nil`.
    package func problem(_ answer: Result<TransportResponse, TransportError>, _ expected: ErrorExpectation) -> String? {
        expected.problem(answer, profile: profile, schemas: schemas)
    }

    /// Records a passing case of `contract`.
    package func pass(_ contract: String) {
        session.recorder.pass(group: group, contract: contract)
    }

    /// Marks `contract` skipped with `reason`.
    package func skip(_ contract: String, reason: String) {
        session.recorder.skip(group: group, contract: contract, reason: reason)
    }

    /// Records one case of `contract`: a pass when `problem` is `nil`, else a failure with the
    /// request and answer, redacted with the admin token and `password`.
    package func record(
        _ contract: String, _ problem: String?, _ exchange: BackendTarget.Exchange, expected: String, password: String? = nil,
        caseId: String? = nil
    ) {
        session.record(group, contract, problem, exchange, expected: expected, password: password, caseId: caseId)
    }

    /// Records one case of `contract` from its parts (see ``ContractSession/record(_:_:_:request:expected:response:input:caseId:redactor:bodyLength:)``).
    package func record(
        _ contract: String, _ problem: String?, request: TransportRequest?, expected: String?,
        response: Result<TransportResponse, TransportError>?, input: JSONValue? = nil, caseId: String? = nil, redactor: Redactor? = nil,
        bodyLength: Int? = nil
    ) {
        session.record(
            group, contract, problem, request: request, expected: expected, response: response, input: input, caseId: caseId, redactor: redactor,
            bodyLength: bodyLength)
    }

    /// Records a failed setup as a failure of each of `contracts`, saying what went wrong:
    /// `setup: creating an announcement got no answer: timed out`, `... did not answer 201`.
    package func recordSetupFailure(_ contracts: [String], _ setup: FailedSetup, what: String) {
        let problem = switch (setup.problem, setup.response) {
        case (let found?, _): "setup: \(what): \(found)"
        case (nil, .failure(let error)): "setup: \(what) got no answer: \(error)"
        case (nil, .success): "setup: \(what) did not answer 201"
        }
        for contract in contracts {
            record(contract, problem, request: setup.request, expected: "201", response: setup.response)
        }
    }
}
