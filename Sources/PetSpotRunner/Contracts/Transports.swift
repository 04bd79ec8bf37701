import Foundation
import PetSpotConcurrency
import PetSpotHTTP
import PetSpotMockBackend
import PetSpotModel

/// A transport that counts requests against a budget and refuses those past it, and learns
/// every credential that goes through it.
///
/// `run` against a shared staging backend must stay within `--max-requests`; cleanup deletes
/// bypass the budget (``sendUnbudgeted(_:)``) so that a run never leaves data behind just
/// because it ran out of requests. When the run is interrupted (SIGINT, SIGTERM),
/// ``stopGranting(because:)`` makes every later ``reserve(_:)`` fail, so no new case starts
/// while the exchanges already begun, and the cleanup, finish.
///
/// Every request and answer passes through ``secrets``: the credentials sent and the passwords
/// handed out are learnt there, and the report is redacted with them
/// (``ContractReport/sanitized(by:)``).
package final class BudgetedTransport: AnnouncementTransport, Sendable {
    /// Requests reserved, why reservations stop (if they do), whether the budget refused one.
    private struct State: Sendable {
        /// Requests reserved.
        var used = 0
        /// Why reservations stop, once they do.
        var stopReason: String?
        /// A reservation went past the budget.
        var budgetRefused = false
    }

    /// The transport wrapped.
    private let base: any AnnouncementTransport
    /// The budget's state.
    private let state = Locked(State())
    /// The most requests ``send(_:)`` lets through.
    let limit: Int
    /// Where the credentials sent and the passwords received are learnt.
    package let secrets: SecretStore

    /// Wraps `base` with a budget of `limit` requests.
    convenience init(_ base: any AnnouncementTransport, limit: Int) {
        self.init(base, limit: limit, secrets: SecretStore())
    }

    /// Wraps `base` with a budget of `limit` requests, learning credentials into `secrets`.
    package init(_ base: any AnnouncementTransport, limit: Int, secrets: SecretStore) {
        self.base = base
        self.limit = limit
        self.secrets = secrets
    }

    /// Requests sent so far.
    var requestsSent: Int { state.withLock { $0.used } }

    /// Reserves `count` requests; `false` (and nothing reserved) when the budget cannot cover
    /// them or the run was stopped.
    func reserve(_ count: Int) -> Bool {
        state.withLock { state in
            guard state.stopReason == nil else { return false }
            guard state.used + count <= limit else {
                state.budgetRefused = true
                return false
            }
            state.used += count
            return true
        }
    }

    /// Whether a reservation was refused because the budget could not cover it.
    package var budgetRefused: Bool { state.withLock { $0.budgetRefused } }

    /// Makes every later ``reserve(_:)`` fail, for `reason` (e.g. `interrupted by SIGTERM`).
    package func stopGranting(because reason: String) {
        state.withLock { state in
            if state.stopReason == nil { state.stopReason = reason }
        }
    }

    /// Why reservations are refused, once ``stopGranting(because:)`` was called.
    package var stopReason: String? { state.withLock { $0.stopReason } }

    /// The note a report gets when a reservation is first refused: the budget was reached, or
    /// the run was stopped.
    package var refusalNote: String {
        if let reason = stopReason { return "\(reason): no new case was started; the cases under way finished and cleanup ran" }
        return "the request budget (--max-requests \(limit)) was reached; later cases were not run"
    }

    /// Sends a request already covered by ``reserve(_:)``.
    package func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        try await learning(request)
    }

    /// Sends a cleanup request outside the budget.
    func sendUnbudgeted(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        try await learning(request)
    }

    /// Sends `request` through the wrapped transport, learning the secrets of both sides.
    private func learning(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        secrets.learn(from: request)
        let response = try await base.send(request)
        secrets.learn(from: response)
        return response
    }
}

/// A transport that remembers every exchange, so a contract can report the exact request and
/// answer behind a failure.
package final class RecordingTransport: AnnouncementTransport, Sendable {
    /// One request and its answer (or transport error).
    package struct Exchange: Sendable {
        /// The request.
        package var request: TransportRequest
        /// The answer, or why there is none.
        package var response: Result<TransportResponse, TransportError>
    }

    /// The transport wrapped.
    private let base: any AnnouncementTransport
    /// The exchanges so far.
    private let log = Locked<[Exchange]>([])

    /// Records the exchanges sent through `base`.
    init(_ base: any AnnouncementTransport) {
        self.base = base
    }

    /// The exchanges so far, in order.
    var exchanges: [Exchange] { log.withLock { $0 } }

    /// Sends and records.
    package func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        do {
            let response = try await base.send(request)
            log.withLock { $0.append(Exchange(request: request, response: .success(response))) }
            return response
        } catch {
            log.withLock { $0.append(Exchange(request: request, response: .failure(error))) }
            throw error
        }
    }
}
