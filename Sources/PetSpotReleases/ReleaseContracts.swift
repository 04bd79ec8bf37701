import Foundation
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel
import PetSpotReport

/// `can-i-deploy`'s check of one release in the field against a candidate backend: every
/// request the release holds is sent again, as the build would send it today
/// (``ReplayedPayload``), and each answer is held against the one the captured contract gave
/// when the release was recorded.
///
/// Its contracts, in the group "release NAME":
/// - every report the build sends that the contract accepted is accepted (a refusal here breaks
///   the release: the build's users can no longer send that kind of report);
/// - for a release recorded through protocol version 2, every request of the build's own
///   submission that the contract accepted is accepted (the create and the photo upload, with
///   the id and password the replayed create was answered);
/// - every request of the release is replayed and answered (a budget, a deadline or a target that
///   stops answering leaves the release unjudged, never compatible).
/// A request the contract refused when the release was recorded (the build's own defect) is
/// sent too, and counted apart as a known refusal (refused again) or as now accepted: neither
/// blocks a deploy.
///
/// It runs with `run`'s ritual (``GroupBackend``): every request charged to the budget, a
/// create and what depends on it held together, credentials masked, a curl line for every
/// refusal. Every announcement it creates is deleted with the admin token as soon as its report
/// or submission is judged (what a delete misses, the run's cleanup deletes or lists): a backend
/// keeps microchip numbers unique, and short ones are few (ten of one digit), so a release's
/// numbers must be free again for the next release's.
package struct ReleaseContracts: BackendContractGroup {
    /// The release.
    package let release: RecordedRelease
    /// Today's UTC day, which the replayed dates are moved to.
    package let today: CalendarDate
    /// Fresh microchip numbers for the replay.
    package let microchips: ReplayMicrochips

    /// A release's group.
    package init(release: RecordedRelease, today: CalendarDate, microchips: ReplayMicrochips) {
        self.release = release
        self.today = today
        self.microchips = microchips
    }

    package var name: String { "release \(release.name)" }
    package var surfaces: Set<MockDefect.Surface> { [] }
    package var plantedDefectsCoverEveryContract: Bool { false }

    /// The contract about the reports.
    var reportsContract: String { "every report \(release.name) sends that the contract accepted when it was recorded is accepted" }
    /// The contract about the submission's requests.
    var submissionContract: String { "every request of \(release.name)'s own submission that the contract accepted is accepted" }
    /// The contract that nothing was left unjudged.
    var completeContract: String { "every request of \(release.name) is replayed and answered" }

    package func contracts(in session: ContractSession) -> [String] {
        [reportsContract] + (release.submissions.isEmpty ? [] : [submissionContract]) + [completeContract]
    }

    /// What the replay found, request by request.
    final class Tally: Sendable {
        /// The requests of one contract refused with one answer, and the first of them.
        struct Group {
            var contract: String
            var status: Int
            var code: String?
            var field: String?
            var known: Bool
            var count = 0
            var failure: ContractFailure
            var examplePayload: String
        }

        struct State {
            var tried = 0
            var accepted = 0
            var nowAccepted = 0
            var notChecked = 0
            /// Requests not sent because the create they depend on was refused.
            var dependents = 0
            var groups: [Group] = []
            var checked: [String: (run: Int, failed: Int)] = [:]
        }

        let state = Locked(State())
    }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        let tally = Tally()
        backend.session.recorder.describe(
            group: name,
            "recorded \(release.recordedOn) with protocol version \(release.protocolVersion): \(release.reports.count) reports"
                + (release.submissions.isEmpty ? "" : ", \(release.submissions.count) submissions of the app's own code")
                + (release.unavailableFlows.isEmpty ? "" : "; no \(release.unavailableFlows.map(\.rawValue).joined(separator: " or ")) flow"))
        var stop: GroupStop?
        do {
            try await backend.forEach(release.reports) { report throws(GroupStop) in
                try await replay(report, backend, tally)
            }
            for submission in release.submissions {
                try await replay(submission, backend, tally)
            }
        } catch {
            stop = error
        }
        let expected = release.reports.count + release.submissions.reduce(0) { $0 + $1.requests.count }
        finish(backend, tally, expected: expected)
        if let stop { throw stop }
    }

    // MARK: Replaying

    /// Sends `report` again (another microchip number if the first is taken) and tallies the answer.
    func replay(_ report: RecordedReport, _ backend: GroupBackend, _ tally: Tally) async throws(GroupStop) {
        var exchange: BackendTarget.Exchange?
        for _ in 0..<3 {
            let payload = ReplayedPayload.make(report.payload, recordedAt: report.clock, today: today, microchips: microchips)
            let sent = try await backend.exchange(BackendTarget.createRequest(.object(payload)))
            exchange = sent
            guard report.contract.isAccepted, Self.isMicrochipTaken(sent.response), payload["microchipNumber"] != nil else { break }
        }
        guard let exchange else { return }
        backend.session.progress?.advance()
        tally.count(exchange, recorded: report.contract, contract: reportsContract, backend: backend, release: release)
        try await deleteCreated(id: Self.createdId(exchange.response), backend)
    }

    /// Deletes the announcement `id` with the admin token, now that it is judged.
    func deleteCreated(id: String?, _ backend: GroupBackend) async throws(GroupStop) {
        guard let id, let token = backend.adminToken, case .success(let path) = AnnouncementPath.of(id) else { return }
        _ = try await backend.exchange(BackendTarget.adminDeleteRequest(path, authorization: token))
    }

    /// The id a create answered 201 with, if any.
    static func createdId(_ response: Result<TransportResponse, TransportError>) -> String? {
        guard case .success(let answer) = response, answer.status == 201 else { return nil }
        return (try? JSONValue.parse(answer.body))?["id"]?.stringValue
    }

    /// Sends the requests of one recorded submission in order, the upload with the id and
    /// password the replayed create was answered.
    func replay(_ submission: RecordedSubmission, _ backend: GroupBackend, _ tally: Tally) async throws(GroupStop) {
        let createdId = try await backend.holding(submission.requests.count) { held throws(GroupStop) -> String? in
            var created: (id: String, password: String)?
            var createBroke = false
            for recorded in submission.requests {
                guard let request = transportRequest(recorded, submission: submission, created: created) else {
                    // Its create was refused: the refusal already judges the release (a break when
                    // the contract accepted the create, the build's own defect otherwise).
                    if !createBroke { tally.state.withLock { $0.notChecked += 1 } }
                    tally.state.withLock { $0.dependents += 1 }
                    continue
                }
                let exchange = try await held.exchange(request)
                held.session.progress?.advance()
                if recorded.path == RecordedRequest.createPath, case .success(let answer) = exchange.response, answer.status == 201,
                    let object = (try? JSONValue.parse(answer.body))?.objectValue, let id = object["id"]?.stringValue,
                    let password = object["managementPassword"]?.stringValue
                {
                    created = (id, password)
                } else if recorded.path == RecordedRequest.createPath {
                    createBroke = true
                }
                tally.count(exchange, recorded: recorded.contract, contract: submissionContract, backend: held, release: release, password: created?.password)
            }
            return created?.id
        }
        try await deleteCreated(id: createdId, backend)
    }

    /// The request `recorded` stands for today, or `nil` when it needs an announcement the replay
    /// did not get (its create was refused) or names an id that is not a path segment.
    func transportRequest(_ recorded: RecordedRequest, submission: RecordedSubmission, created: (id: String, password: String)?) -> TransportRequest? {
        let needsCreated = recorded.path.contains("{id}") || (recorded.authorization ?? "").contains("{")
        if needsCreated && created == nil { return nil }
        var path = recorded.path
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if let created {
            guard let segment = try? AnnouncementPath(created.id) else { return nil }
            path = path.replacingOccurrences(of: "{id}", with: segment.segment)
        }
        if var authorization = recorded.authorization {
            if let created {
                authorization = authorization.replacingOccurrences(of: "{id}", with: created.id)
                    .replacingOccurrences(of: "{managementPassword}", with: created.password)
            }
            let words = authorization.split(separator: " ", maxSplits: 1)
            // A recorded Basic credential is kept decoded (`{id}:{managementPassword}`): base64 has no `:`.
            if words.count == 2, words[0].lowercased() == "basic", words[1].contains(":") {
                authorization = basicAuthorization(String(words[1]))
            }
            headers.append(("Authorization", authorization))
        }
        let body: Data
        switch recorded.body {
        case .json(let value):
            var sent = value
            if recorded.path == RecordedRequest.createPath, case .object(let payload) = value {
                sent = .object(ReplayedPayload.make(payload, recordedAt: submission.clock, today: today, microchips: microchips))
            }
            headers.append(("Content-Type", "application/json"))
            body = sent.serializedData()
        case .multipart(let parts):
            let boundary = "PetSpotContractsRelease5d2a"
            var data = Data()
            for part in parts {
                var disposition = "form-data; name=\"\(part.name)\""
                if let fileName = part.fileName { disposition += "; filename=\"\(fileName)\"" }
                data.append(Data("--\(boundary)\r\nContent-Disposition: \(disposition)\r\n".utf8))
                if let type = part.contentType { data.append(Data("Content-Type: \(type)\r\n".utf8)) }
                data.append(Data("\r\n".utf8))
                data.append(Self.bytes(of: part))
                data.append(Data("\r\n".utf8))
            }
            data.append(Data("--\(boundary)--\r\n".utf8))
            headers.append(("Content-Type", "multipart/form-data; boundary=\(boundary)"))
            body = data
        case .text(let text):
            body = Data(text.utf8)
        case .none:
            body = Data()
        }
        return TransportRequest(method: recorded.method, path: path, headers: headers, body: body)
    }

    /// Bytes of the recorded part's kind and size: a real PNG or JPEG (padded in a comment to
    /// the recorded size), or that many bytes of text.
    static func bytes(of part: RecordedPart) -> Data {
        let tag = "petspot-contracts can-i-deploy"
        var image: Data
        switch part.kind {
        case "png": image = SampleImage.png(tag: tag)
        case "jpeg": image = SampleImage.jpeg(tag: tag)
        default: return Data(repeating: UInt8(ascii: "x"), count: part.byteCount)
        }
        let padding = part.byteCount - image.count
        if padding > 0 {
            image = part.kind == "png"
                ? SampleImage.png(tag: tag + String(repeating: " ", count: padding))
                : SampleImage.jpeg(tag: tag + String(repeating: " ", count: min(padding, 65_000)))
        }
        return image
    }

    /// Whether the answer is the 409 of a microchip number someone already uses.
    static func isMicrochipTaken(_ response: Result<TransportResponse, TransportError>) -> Bool {
        guard case .success(let answer) = response, answer.status == 409 else { return false }
        return (try? JSONValue.parse(answer.body))?["error"]?["field"] == "microchipNumber"
    }

    // MARK: Judging

    /// Records the contracts' cases and the release's line of the matrix.
    func finish(_ backend: GroupBackend, _ tally: Tally, expected: Int) {
        let state = tally.state.withLock { $0 }
        let recorder = backend.session.recorder
        for contract in contracts(in: backend.session) where contract != completeContract {
            let checked = state.checked[contract] ?? (0, 0)
            let failures = state.groups.filter { !$0.known && $0.contract == contract }.map { group in
                var failure = group.failure
                failure.message = "\(group.count) request\(group.count == 1 ? "" : "s") " + failure.message
                return failure
            }
            if checked.run > 0 {
                recorder.record(group: name, contract: contract, casesRun: checked.run, casesFailed: checked.failed, failures: failures)
            }
        }
        let unjudged = state.notChecked + max(0, expected - state.tried - state.dependents)
        if unjudged == 0 {
            recorder.pass(group: name, contract: completeContract, count: expected)
        } else {
            recorder.fail(group: name, contract: completeContract, ContractFailure(
                message: "\(unjudged) of \(expected) requests of \(release.name) were not replayed or not answered (\(backend.target.transport.stopReason ?? "a create they depend on was refused, or no answer came")): the release is not judged",
                expected: "every request replayed and answered", actual: "\(unjudged) unjudged", replay: backend.session.replay))
        }
        let refused = state.groups.filter { !$0.known }.reduce(0) { $0 + $1.count }
        let verdict: ReleaseOutcome.Verdict = refused > 0 ? .breaks : unjudged > 0 ? .notChecked : .compatible
        recorder.release(ReleaseOutcome(
            name: release.name, recordedOn: release.recordedOn, protocolVersion: release.protocolVersion, verdict: verdict,
            tried: state.tried, accepted: state.accepted,
            refusals: Self.refusals(state.groups),
            nowAccepted: state.nowAccepted, notChecked: unjudged, unavailableFlows: release.unavailableFlows.map(\.rawValue)))
    }
}

extension ReleaseContracts {
    /// The refusal groups of the matrix: one per answer and known-ness, whichever contract's
    /// requests they were (new refusals first), with the first group's example.
    static func refusals(_ groups: [Tally.Group]) -> [ReleaseOutcome.Refusal] {
        var refusals: [ReleaseOutcome.Refusal] = []
        for group in groups.filter({ !$0.known }) + groups.filter(\.known) {
            if let index = refusals.firstIndex(where: {
                $0.status == group.status && $0.code == group.code && $0.field == group.field && $0.known == group.known
            }) {
                refusals[index].count += group.count
            } else {
                refusals.append(ReleaseOutcome.Refusal(
                    status: group.status, code: group.code, field: group.field, count: group.count, known: group.known,
                    examplePayload: group.examplePayload, exampleAnswer: group.failure.actual ?? "", reproduce: group.failure.reproduce))
            }
        }
        return refusals
    }
}

extension ReleaseContracts.Tally {
    /// Tallies one replayed request of `contract`, recorded as `recorded`.
    func count(
        _ exchange: BackendTarget.Exchange, recorded: RecordedAnswer, contract: String, backend: GroupBackend, release: RecordedRelease,
        password: String? = nil
    ) {
        guard case .success(let answer) = exchange.response else {
            state.withLock { $0.notChecked += 1 }
            return
        }
        let actual = ContractAtRecording.recordedAnswer(.success(answer))
        state.withLock { state in
            state.tried += 1
            state.checked[contract, default: (0, 0)].run += 1
            if actual.isAccepted {
                if recorded.isAccepted { state.accepted += 1 } else { state.nowAccepted += 1; state.accepted += 1 }
                return
            }
            let known = !recorded.isAccepted
            if !known { state.checked[contract, default: (0, 0)].failed += 1 }
            if let index = state.groups.firstIndex(where: {
                $0.status == actual.status && $0.code == actual.code && $0.field == actual.field && $0.known == known && $0.contract == contract
            }) {
                state.groups[index].count += 1
                return
            }
            let redactor = backend.target.redactor(adding: password)
            let failure = backend.session.failure(
                known
                    ? "refused \(actual), as the contract refused it (\(recorded)) when \(release.name) was recorded: the build's own defect"
                    : "refused \(actual); the contract accepted it (\(recorded.status)) when \(release.name) was recorded on \(release.recordedOn)",
                request: exchange.request, expected: known ? "refused (\(recorded))" : "accepted (\(recorded.status)), as when the release was recorded",
                response: exchange.response, redactor: redactor)
            var unseeded = failure
            unseeded.seed = nil
            state.groups.append(Group(
                contract: contract, status: actual.status, code: actual.code, field: actual.field, known: known, count: 1, failure: unseeded,
                examplePayload: redactor.scrub(String(decoding: exchange.request.body, as: UTF8.self))))
        }
    }
}
