import Foundation
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// The properties of a submission under faults (report-flows.md, "Submission"), from the user's
/// side and the backend's, judged on a ``ScenarioRun``.
package enum SubmissionProperty: String, CaseIterable, Sendable, Hashable {
    /// The alert says what report-flows.md says for the failure the app met.
    case alert
    /// The app gives up on a held answer by the request time-out it was given (within
    /// ``ScenarioExecutor/longestAllowedWait(requestTimeout:)``, and not before
    /// ``ScenarioExecutor/earliestAllowedGiveUp(requestTimeout:)``).
    case timeout = "time-out"
    /// The app leaves the flow only when both requests succeeded for one announcement, which is
    /// then listed with its photo.
    case leavesFlow = "leaves-flow"
    /// After an alert or a Cancel every input is kept: the next attempt sends the same report.
    case inputsKept = "inputs-kept"
    /// Once the network is healthy again, Try Again gets the report through.
    case getsThrough = "gets-through"
    /// A report ends with exactly one listed announcement and no leftover the user cannot see.
    case oneAnnouncement = "one-announcement"

    /// The contract's name in the report.
    package var contract: String {
        switch self {
        case .alert: "the alert says what report-flows.md says for the failure the app met"
        case .timeout: "the app gives up on a held answer by the request time-out it was given"
        case .leavesFlow: "the app leaves the flow only when both requests succeeded for one announcement, which is then listed with its photo"
        case .inputsKept: "after an alert or a Cancel every input is kept: the next attempt sends the same report"
        case .getsThrough: "once the network is healthy again, Try Again gets the report through"
        case .oneAnnouncement: "a report ends with exactly one listed announcement and no leftover the user cannot see"
        }
    }

    /// The alert report-flows.md asks for after no answer at all (no connection, a time-out).
    static let noConnection = SubmissionFailure.noConnection.userMessage
    /// The alert report-flows.md asks for after a 4xx or 5xx answer.
    static let wentWrong = SubmissionFailure.backendError(request: .create, status: 500, envelope: nil).userMessage

    /// What is wrong with `run` by each property it breaks (none for a run the protocol broke:
    /// the protocol contract reports those).
    package static func problems(_ run: ScenarioRun) -> [SubmissionProperty: String] {
        guard run.protocolError == nil else { return [:] }
        var problems: [SubmissionProperty: String] = [:]
        problems[.alert] = alertProblem(run)
        problems[.timeout] = timeoutProblem(run)
        problems[.leavesFlow] = leavesFlowProblem(run)
        problems[.inputsKept] = inputsKeptProblem(run)
        problems[.getsThrough] = getsThroughProblem(run)
        problems[.oneAnnouncement] = oneAnnouncementProblem(run)
        return problems
    }

    // MARK: The properties

    private static func alertProblem(_ run: ScenarioRun) -> String? {
        for (number, attempt) in run.attempts.enumerated() {
            guard case .success(.alert(let message)) = attempt.turn.answer else { continue }
            guard let last = attempt.exchanges.last else {
                return "attempt \(number + 1) showed the alert \"\(message)\" without sending a request"
            }
            let written = last.delivery.writtenStatus
            if written == 201 {
                return "attempt \(number + 1) showed the alert \"\(message)\" although its last request (\(describe(last.request))) was answered 201"
            }
            let expected = written == nil ? noConnection : wentWrong
            if message != expected {
                return "attempt \(number + 1) met \(met(last)) at \(describe(last.request)) and showed \"\(message)\"; report-flows.md says \"\(expected)\""
            }
        }
        return nil
    }

    private static func timeoutProblem(_ run: ScenarioRun) -> String? {
        let given = ContractReport.plainNumber(run.requestTimeout)
        for exchange in run.exchanges where exchange.fault == .holdPastTimeout {
            let allowed = ScenarioExecutor.longestAllowedWait(requestTimeout: run.requestTimeout) + exchange.watchDelay
            let request = "request \(exchange.index + 1) (\(describe(exchange.request)))"
            switch exchange.delivery {
            case .outwaited(let seconds):
                return "the app still waited for the held answer to \(request) after \(ContractReport.seconds(seconds)) s, when the runner "
                    + "closed the connection: it was given a request time-out of \(given) s (at most \(ContractReport.seconds(allowed)) s allowed)"
            case .gaveUp(let seconds) where seconds > allowed:
                return "the app waited \(ContractReport.seconds(seconds)) s for the held answer to \(request) before giving up: it was given a "
                    + "request time-out of \(given) s (at most \(ContractReport.seconds(allowed)) s allowed)"
            case .gaveUp(let seconds) where ScenarioRun.gaveUpTooSoon(on: exchange, requestTimeout: run.requestTimeout):
                let earliest = ContractReport.seconds(ScenarioExecutor.earliestAllowedGiveUp(requestTimeout: run.requestTimeout))
                return "the app gave up on the held answer to \(request) after \(ContractReport.seconds(seconds)) s: it was given a "
                    + "request time-out of \(given) s (giving up before \(earliest) s is not waiting for it)"
            default:
                continue
            }
        }
        return nil
    }

    private static func leavesFlowProblem(_ run: ScenarioRun) -> String? {
        for (number, attempt) in run.attempts.enumerated() {
            guard case .success(.submitted(let password)) = attempt.turn.answer else { continue }
            let attemptText = "attempt \(number + 1)"
            guard let last = attempt.exchanges.last, let request = last.request, let uploaded = ScenarioExecutor.uploadId(request) else {
                return "\(attemptText) left the flow, but its last request was "
                    + (attempt.exchanges.last.map { "\(describe($0.request)) (\(met($0)))" } ?? "none") + ", not the photo upload"
            }
            guard last.delivery.writtenStatus == 201 else {
                return "\(attemptText) left the flow although its photo upload met \(met(last))"
            }
            let before = run.exchanges.filter { $0.index < last.index }
            guard let latest = before.last(where: { exchange in
                guard let request = exchange.request, ScenarioExecutor.isCreate(request) else { return false }
                return exchange.delivery.writtenStatus == 201
            }), let created = run.created.first(where: { $0.request == latest.index }) else {
                return "\(attemptText) left the flow, but no create had been answered 201 to the app before its upload to \(uploaded)"
            }
            if created.id != uploaded {
                return "\(attemptText) left the flow after uploading the photo to \(uploaded), not to \(created.id), the announcement its last create made: "
                    + "that announcement has no photo and is not listed"
            }
            if password != created.password {
                return "\(attemptText) left the flow showing a management password that is not \(created.id)'s (the one its create answered)"
            }
            if !created.existsAtEnd || created.photoURL == nil || !created.servesThePhoto {
                let state = !created.existsAtEnd ? "it is gone" : created.photoURL == nil ? "it has no photo, so it is not listed" : "its photo URL does not serve the photo the user attached"
                return "\(attemptText) left the flow for \(created.id), but \(state)"
            }
        }
        return nil
    }

    private static func inputsKeptProblem(_ run: ScenarioRun) -> String? {
        let creates = run.exchanges.compactMap { exchange -> (Int, JSONValue?)? in
            guard let request = exchange.request, ScenarioExecutor.isCreate(request) else { return nil }
            return (exchange.index, try? JSONValue.parse(request.body))
        }
        if let first = creates.first {
            for (index, body) in creates.dropFirst() where body != first.1 {
                let differences = differences(first.1, body)
                return "request \(index + 1) sent another report than request \(first.0 + 1)"
                    + (differences.isEmpty ? "" : " (it differs in " + differences.map { key, before, after in
                        "\(key): request \(first.0 + 1) sent \(before), request \(index + 1) sent \(after)"
                    }.joined(separator: "; ") + ")")
            }
        }
        for exchange in run.exchanges {
            guard let request = exchange.request, ScenarioExecutor.uploadId(request) != nil else { continue }
            if request.body.range(of: run.photo) == nil {
                return "request \(exchange.index + 1) uploaded another photo than the one the user attached"
            }
        }
        return nil
    }

    private static func getsThroughProblem(_ run: ScenarioRun) -> String? {
        let faultCount = run.scenario.faults.count
        let healthy = run.attempts.filter { $0.requestsBefore >= faultCount }
        guard !healthy.isEmpty, !healthy.contains(where: { if case .success(.submitted) = $0.turn.answer { true } else { false } }) else { return nil }
        let shown = healthy.map { attempt -> String in
            switch attempt.turn.answer {
            case .success(let answer): answer.description
            case .failure(let error): error.description
            }
        }
        let reason = healthy.last?.exchanges.last.map { " (its last request, \(describe($0.request)), got \(met($0)))" } ?? ""
        return "the network was healthy from request \(faultCount + 1) on, but \(healthy.count) attempt(s) then ended with "
            + shown.joined(separator: "; ") + reason + ": the report never got through"
    }

    private static func oneAnnouncementProblem(_ run: ScenarioRun) -> String? {
        guard let success = run.attempts.last(where: { if case .success(.submitted) = $0.turn.answer { true } else { false } }),
            let upload = success.exchanges.last?.request.flatMap(ScenarioExecutor.uploadId)
        else { return nil }
        let leftovers = run.created.filter { $0.existsAtEnd && $0.id != upload }
        guard !leftovers.isEmpty else { return nil }
        let described = leftovers.map { leftover in
            "\(leftover.id) (created by request \(leftover.request + 1)"
                + (leftover.deliveredToApp ? ", its answer reached the app" : ", its answer never reached the app")
                + (leftover.photoURL == nil ? "; no photo: not listed, the user cannot see or delete it" : "; with a photo: listed beside the report")
                + ")"
        }
        return "the report ended with \(upload) listed, but the backend also holds " + described.joined(separator: ", ")
    }

    // MARK: Wording

    /// `POST /api/v1/announcements (create)`.
    static func describe(_ request: TransportRequest?) -> String {
        guard let request else { return "a request whose connection was reset before it was read" }
        let path = request.path.split(separator: "?").first.map(String.init) ?? request.path
        if ScenarioExecutor.isCreate(request) { return "\(request.method) \(path) (create)" }
        if ScenarioExecutor.uploadId(request) != nil { return "\(request.method) \(path) (photo upload)" }
        return "\(request.method) \(path)"
    }

    /// What the app met on one request: `no answer (answer lost)`, `a 409 answer`.
    static func met(_ exchange: ProxiedExchange) -> String {
        switch exchange.delivery {
        case .answered(let status): return "a \(status) answer" + (exchange.fault.map { " (\($0))" } ?? "")
        case .unread(let status, let seconds):
            return "a \(status) answer, left unread when it closed the connection after \(ContractReport.seconds(seconds)) s" + (exchange.fault.map { " (\($0))" } ?? "")
        case .noAnswer: return "no answer (\(exchange.fault?.description ?? "the connection closed"))"
        case .gaveUp(let seconds): return "a time-out after \(ContractReport.seconds(seconds)) s" + (exchange.fault.map { " (\($0))" } ?? "")
        case .outwaited(let seconds):
            return "no answer: the runner closed the connection after \(ContractReport.seconds(seconds)) s" + (exchange.fault.map { " (\($0))" } ?? "")
        }
    }

    /// The top-level keys whose values differ between two JSON objects, with both values as JSON
    /// (`absent` for a key one of them lacks), by key.
    private static func differences(_ left: JSONValue?, _ right: JSONValue?) -> [(key: String, left: String, right: String)] {
        guard let left = left?.objectValue, let right = right?.objectValue else { return [] }
        let keys = Set(left.keys).union(right.keys)
        return keys.filter { left[$0] != right[$0] }.sorted().map { key in
            (key, left[key]?.serialized() ?? "absent", right[key]?.serialized() ?? "absent")
        }
    }
}
