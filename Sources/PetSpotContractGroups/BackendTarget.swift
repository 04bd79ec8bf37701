import Foundation
import PetSpotConcurrency
import PetSpotContractKit
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel
import PetSpotReport
import PetSpotRuntime

/// The backend a run's contracts are checked against, through any ``AnnouncementTransport``:
/// over HTTP for `run`, straight into the in-process strict mock for `check`.
///
/// It holds what the backend groups share: the transport with the run's request budget, the
/// profile the backend should answer as, the admin token, microchip numbers unique to the run,
/// the reports to submit, and every announcement created so far, so that
/// ``cleanUp(recorder:)`` deletes them at the end (or lists them as leftovers). Management
/// passwords and the admin token never reach a report: every request and answer is recorded
/// through a ``Redactor``.
package final class BackendTarget: Sendable {
    /// A report to submit: its flow case and the payload its flow code built.
    package typealias Submission = (flowCase: FlowCase, payload: CreateAnnouncementRequest)
    /// One request and its answer (or why there is none).
    package typealias Exchange = RecordingTransport.Exchange

    /// What the target is, for messages: a base URL, or the in-process mock.
    package let name: String
    /// The base URL requests go to over HTTP (`run`), for the `curl` line of each failure;
    /// `nil` for an in-process backend.
    package let baseURL: URL?
    /// The transport, with the run's request budget.
    package let transport: BudgetedTransport
    /// The profile the backend should answer as.
    package let profile: BackendProfile
    /// The admin token for deletes, when given.
    package let adminToken: String?
    /// Whether the groups that create announcements run without an admin token (`run
    /// --allow-leftovers`): what they create then stays on the target, listed as leftovers.
    package let createsWithoutAdminToken: Bool
    /// Microchip numbers unique to the run.
    package let microchips: MicrochipSequence
    /// Requests in flight at most.
    package let concurrency: Int
    /// Whether groups, and the sequence group's programs, run side by side within
    /// ``concurrency`` (hiding a network's latency), or one after another, the report then a
    /// function of the seed alone (`check`'s in-process mock, which has no latency to hide).
    package let sideBySide: Bool
    /// Requests that time out in a row before a group (or the cleanup) stops sending: the breaker
    /// (`--max-timeouts`).
    package let maxConsecutiveTimeouts: Int
    /// How many announcements with a photo the list-depth contract makes visible to one query
    /// (`--list-depth`).
    package let listDepth: ListDepth
    /// Masks the admin token (and, per case, management passwords) in everything recorded.
    package let redactor: Redactor
    /// The reports the submission group sends.
    package let submissions: @Sendable () async -> [Submission]
    /// Sets the clock of an in-process backend: a submitted case's instant (so each case is
    /// judged when it was made), or `nil` for the real time. When set, submissions run one at a
    /// time.
    package let serverClock: (@Sendable (Date?) -> Void)?

    private struct Registry: Sendable {
        var created: [(id: String, microchip: String?)] = []
        /// The ids of `created`, for lookups.
        var createdIds: Set<String> = []
        var deleted: Set<String> = []
        var budgetNoted = false
        /// Management passwords of the run's announcements: masked in reports, replaced by
        /// `$PETSPOT_MANAGEMENT_PASSWORD` in curl lines.
        var passwords: Set<String> = []
        /// What every answer shares (CORS, Content-Type), observed on every budgeted answer.
        var shared = SharedBehaviourObservations()
        /// Answers that matched the other profile's expectation, or this one's.
        var profileEvidence = ProfileEvidence()
        /// Catalog cases whose answer is a known production defect, and whether it is still there.
        var knownDefects: [KnownDefectSighting] = []
    }

    private let registry = Locked(Registry())

    /// The breaker's default: 3 requests in a row without an answer within `--timeout` mean the
    /// target stopped answering (a slow moment rarely times out three requests in a row).
    package static let defaultMaxConsecutiveTimeouts = 3

    /// A backend target.
    package init(
        name: String, transport: BudgetedTransport, profile: BackendProfile, adminToken: String?, microchips: MicrochipSequence,
        concurrency: Int, submissions: @escaping @Sendable () async -> [Submission],
        serverClock: (@Sendable (Date?) -> Void)? = nil, baseURL: URL? = nil, maxConsecutiveTimeouts: Int = BackendTarget.defaultMaxConsecutiveTimeouts,
        createsWithoutAdminToken: Bool = false, listDepth: ListDepth = .drawn, sideBySide: Bool = true
    ) {
        self.sideBySide = sideBySide
        self.createsWithoutAdminToken = createsWithoutAdminToken
        self.maxConsecutiveTimeouts = max(1, maxConsecutiveTimeouts)
        self.listDepth = listDepth
        self.name = name
        self.baseURL = baseURL
        self.transport = transport
        self.profile = profile
        self.adminToken = adminToken
        self.microchips = microchips
        self.concurrency = max(1, concurrency)
        transport.capRequestsInFlight(self.concurrency)
        self.redactor = Redactor(secrets: adminToken.map { [$0] } ?? [])
        self.submissions = submissions
        self.serverClock = serverClock
    }

    /// Why the groups that create announcements are skipped: without an admin token nothing they
    /// create could be deleted; `nil` when they run (a token, or ``createsWithoutAdminToken``).
    package var createRefusal: String? {
        adminToken == nil && !createsWithoutAdminToken ? Self.createRefusalReason : nil
    }

    /// The skip reason of every contract of a group that creates, in a run without an admin token.
    package static let createRefusalReason =
        "no --admin-token given: the group creates announcements, which only the token could delete (give it, or --allow-leftovers to create and list them)"

    // MARK: Requests

    /// Charges `request` to the budget (or to `hold`) and sends it. Every answer is observed: the
    /// behaviour all routes share (CORS, Content-Type, which the routing group reports), the
    /// management password of a create (masked from then on), the id of every announcement a
    /// create made (deleted at cleanup) and of every one a delete removed.
    /// - Throws: ``BudgetRefusal`` when the budget refuses it; nothing was sent then.
    package func send(_ request: TransportRequest, hold: BudgetHold? = nil) async throws(BudgetRefusal) -> Result<TransportResponse, TransportError> {
        let answer = try await transport.sendCharged(request, from: hold)
        if case .success(let response) = answer { observe(request, response) }
        return answer
    }

    /// Sends `request` outside the budget, observed like every other (created announcements are
    /// remembered for cleanup): for requests the run does not choose, such as an app's submission
    /// through the fault proxy, and for what a scenario needs to look at the store afterwards.
    package func sendOutsideBudget(_ request: TransportRequest) async -> Result<TransportResponse, TransportError> {
        let answer: Result<TransportResponse, TransportError>
        do {
            answer = .success(try await transport.sendUnbudgeted(request))
        } catch {
            answer = .failure(error)
        }
        if case .success(let response) = answer { observe(request, response) }
        return answer
    }

    /// ``sendOutsideBudget(_:)`` on the calling thread, without waiting for a task: answered on
    /// this thread by the in-process mock, else through a task this thread waits for. For threads
    /// that may block (the fault proxy's connections, a scenario's inspection).
    package func sendOutsideBudgetNow(_ request: TransportRequest) -> Result<TransportResponse, TransportError> {
        guard let answer = transport.sendUnbudgetedNow(request) else {
            return blockingAwait { await self.sendOutsideBudget(request) }
        }
        if case .success(let response) = answer { observe(request, response) }
        return answer
    }

    /// Learns what one answer says about the store and the run's secrets.
    private func observe(_ request: TransportRequest, _ response: TransportResponse) {
        let path = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if request.method == "POST", path == "/api/v1/announcements", (200..<300).contains(response.status),
            response.body.count < 64 * 1024, let body = (try? JSONValue.parse(response.body))?.objectValue
        {
            if let password = body["managementPassword"]?.stringValue, !password.isEmpty { learnPassword(password) }
            if let id = body["id"]?.stringValue { remember(id, microchip: body["microchipNumber"]?.stringValue) }
        }
        if request.method == "DELETE", response.status == 204, let id = Self.deletedId(path) { markDeleted(id) }
        registry.withLock { $0.shared.observe(request, response) }
    }

    /// The announcement id a delete path names, if it is one of the delete routes.
    package static func deletedId(_ path: String) -> String? {
        for prefix in ["/api/admin/v1/announcements/", "/api/v1/announcements/"] where path.hasPrefix(prefix) {
            let id = String(path.dropFirst(prefix.count))
            return id.isEmpty || id.contains("/") ? nil : (id.removingPercentEncoding ?? id)
        }
        return nil
    }

    /// Notes once in `recorder` that the budget refused a request (or the run stopped granting).
    package func noteRefusal(recorder: ContractRecorder) {
        let first = registry.withLock { registry -> Bool in
            defer { registry.budgetNoted = true }
            return !registry.budgetNoted
        }
        if first { recorder.note(transport.refusalNote) }
    }

    /// `POST /api/v1/announcements` with `body` as JSON.
    package static func createRequest(_ body: JSONValue) -> TransportRequest {
        TransportRequest(
            method: "POST", path: "/api/v1/announcements",
            headers: [("Content-Type", "application/json"), ("Accept", "application/json")], body: body.serializedData())
    }

    /// `GET path` accepting JSON.
    package static func getRequest(_ path: String) -> TransportRequest {
        TransportRequest(method: "GET", path: path, headers: [("Accept", "application/json")])
    }

    /// `DELETE /api/admin/v1/announcements/{id}` with `authorization` as the raw header (none when `nil`).
    package static func adminDeleteRequest(_ announcement: AnnouncementPath, authorization: String?) -> TransportRequest {
        TransportRequest(
            method: "DELETE", path: announcement.adminDelete,
            headers: authorization.map { [("Authorization", $0)] } ?? [])
    }

    // MARK: Created announcements

    /// Remembers an announcement created on the target, for cleanup.
    package func remember(_ id: String, microchip: String?) {
        registry.withLock { registry in
            registry.created.append((id, microchip))
            registry.createdIds.insert(id)
        }
    }

    /// Whether the run created the announcement `id` (rows it did not create, such as production's
    /// sample rows or others' data on a staging backend, are checked only for what the apps decode).
    package func didCreate(_ id: String) -> Bool { registry.withLock { $0.createdIds.contains(id) } }

    /// Marks an announcement as deleted by a contract.
    package func markDeleted(_ id: String) {
        _ = registry.withLock { $0.deleted.insert(id) }
    }

    /// Whether the run already deleted the announcement.
    package func isDeleted(_ id: String) -> Bool { registry.withLock { $0.deleted.contains(id) } }

    // MARK: Secrets and observations

    /// Remembers a management password the backend answered (masked everywhere from then on).
    package func learnPassword(_ password: String) {
        _ = registry.withLock { $0.passwords.insert(password) }
    }

    /// The management passwords learnt so far.
    package var knownPasswords: Set<String> { registry.withLock { $0.passwords } }

    /// The redactor for a record: the admin token and `password` (the case's own), if any.
    package func redactor(adding password: String?) -> Redactor {
        password.map { redactor.adding($0) } ?? redactor
    }

    /// What every answer shared so far.
    package var sharedObservations: SharedBehaviourObservations { registry.withLock { $0.shared } }

    /// Notes that a catalog answer matched `matched` (the expected profile or the other one).
    package func noteProfileEvidence(caseId: String, matchedExpected: Bool, otherProfileAnswer: String?) {
        registry.withLock { registry in
            if matchedExpected {
                registry.profileEvidence.matchedExpected += 1
            } else if let otherProfileAnswer {
                registry.profileEvidence.matchedOther.append((caseId, otherProfileAnswer))
            }
        }
    }

    /// The evidence gathered about which profile the backend answers as.
    package var profileEvidence: ProfileEvidence { registry.withLock { $0.profileEvidence } }

    /// Notes a catalog case marked as a known production defect, and whether the backend still has it.
    package func noteKnownDefect(_ sighting: KnownDefectSighting) {
        registry.withLock { $0.knownDefects.append(sighting) }
    }

    /// The known production defects seen so far.
    package var knownDefectSightings: [KnownDefectSighting] { registry.withLock { $0.knownDefects } }

    /// The announcements this run created and has not deleted (yet), with their microchip numbers.
    package var undeleted: [(id: String, microchip: String?)] {
        registry.withLock { registry in registry.created.filter { !registry.deleted.contains($0.id) } }
    }

    /// Deletes every announcement this run created and no contract deleted, with the admin token
    /// and outside the request budget; records the rest as leftovers. An id that is not a single
    /// path segment (``AnnouncementPath``) is never sent: it is a leftover with the reason. After
    /// ``maxConsecutiveTimeouts`` deletes in a row time out, the rest are not tried (leftovers).
    package func cleanUp(recorder: ContractRecorder) async {
        let remaining = undeleted
        guard let adminToken else {
            for item in remaining {
                recorder.leave(Leftover(id: item.id, microchipNumber: item.microchip, reason: "no --admin-token given; delete it by hand"))
            }
            return
        }
        let breaker = TimeoutBreaker(limit: maxConsecutiveTimeouts)
        await forEachConcurrently(remaining, limit: concurrency) { item in
            if breaker.isTripped {
                recorder.leave(Leftover(id: item.id, microchipNumber: item.microchip, reason: "not deleted: \(breaker.reason)"))
                return
            }
            let announcement: AnnouncementPath
            switch AnnouncementPath.of(item.id) {
            case .success(let path): announcement = path
            case .failure(let refusal):
                recorder.leave(Leftover(
                    id: item.id, microchipNumber: item.microchip,
                    reason: "not deleted: the target answered an \(refusal.description), so no request names it; find it by its microchip number"))
                return
            }
            let request = Self.adminDeleteRequest(announcement, authorization: adminToken)
            let answer: Result<TransportResponse, TransportError>
            do throws(TransportError) {
                answer = .success(try await self.transport.sendUnbudgeted(request))
            } catch {
                answer = .failure(error)
            }
            _ = breaker.trips(on: answer)
            switch answer {
            case .success(let response) where response.status == 204 || response.status == 404:
                self.markDeleted(item.id)
            case .success(let response):
                recorder.leave(Leftover(id: item.id, microchipNumber: item.microchip, reason: "delete answered \(response.status)"))
            case .failure(let error):
                recorder.leave(Leftover(id: item.id, microchipNumber: item.microchip, reason: "delete got no answer: \(String(describing: error))"))
            }
        }
    }
}

extension ContractSession {
    /// Records one case of `contract` in `group`: a pass when `problem` is `nil`, else a failure
    /// with the request and an excerpt of the answer (``AnswerExcerpt``: a long body keeps only
    /// its start), redacted, and (against a backend reached over HTTP) a `curl` line that sends
    /// the same request, its secrets read from environment variables. `bodyLength` is the full
    /// length of an answer body already cut (``AnswerExcerpt/kept(_:)``).
    package func record(
        _ group: String, _ contract: String, _ problem: String?, request: TransportRequest?, expected: String?,
        response: Result<TransportResponse, TransportError>?, input: JSONValue? = nil, caseId: String? = nil,
        redactor: Redactor? = nil, bodyLength: Int? = nil
    ) {
        guard let problem else {
            recorder.pass(group: group, contract: contract)
            return
        }
        recorder.fail(group: group, contract: contract, failure(
            problem, request: request, expected: expected, response: response, input: input, caseId: caseId, redactor: redactor,
            bodyLength: bodyLength))
    }

    /// The failure ``record(_:_:_:request:expected:response:input:caseId:redactor:bodyLength:)``
    /// records, for a group that records its cases in one pass (``ContractRecorder/record(group:contract:casesRun:casesFailed:failures:seconds:)``).
    package func failure(
        _ problem: String, request: TransportRequest?, expected: String?, response: Result<TransportResponse, TransportError>?,
        input: JSONValue? = nil, caseId: String? = nil, redactor: Redactor? = nil, bodyLength: Int? = nil
    ) -> ContractFailure {
        let redactor = redactor ?? backend?.redactor ?? Redactor()
        let actual: String? = response.map {
            switch $0 {
            case .success(let answer): AnswerExcerpt.text(answer, bodyLength: bodyLength, redactor: redactor)
            case .failure(let error): "no answer: \(error.description)"
            }
        }
        var reproduce: String?
        if let request, let backend, let baseURL = backend.baseURL {
            reproduce = CurlReproduction(
                baseURL: baseURL, adminToken: backend.adminToken, managementPasswords: backend.knownPasswords.union(redactor.secrets)
            ).command(for: request)
        }
        return ContractFailure(
            message: redactor.scrub(problem), caseId: caseId, request: request.map(redactor.request), expected: expected,
            actual: actual, originalInput: input, seed: seed, replay: replay, reproduce: reproduce)
    }

    /// Records `exchange` as one case of `contract`.
    package func record(
        _ group: String, _ contract: String, _ problem: String?, _ exchange: BackendTarget.Exchange, expected: String,
        password: String? = nil, caseId: String? = nil
    ) {
        record(
            group, contract, problem, request: exchange.request, expected: expected, response: exchange.response, caseId: caseId,
            redactor: backend?.redactor(adding: password))
    }
}

/// Runs `body` for every item with at most `limit` running at once.
package func forEachConcurrently<Item: Sendable>(
    _ items: [Item], limit: Int, _ body: @escaping @Sendable (Item) async -> Void
) async {
    await withTaskGroup(of: Void.self) { group in
        var index = 0
        let width = max(1, limit)
        while index < items.count && index < width {
            let item = items[index]
            group.addTask { await body(item) }
            index += 1
        }
        while await group.next() != nil {
            if index < items.count {
                let item = items[index]
                group.addTask { await body(item) }
                index += 1
            }
        }
    }
}
