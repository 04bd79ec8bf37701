import Foundation
import PetSpotConcurrency
import PetSpotHTTP
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import PetSpotReport
import PetSpotRuntime

/// A transport that charges every request it sends to a budget and refuses those past it, and
/// learns every credential that goes through it.
///
/// `run` against a shared staging backend must stay within `--max-requests`. The budget is charged
/// when a request is sent, never ahead: ``send(_:)`` takes one request of the budget and sends,
/// or refuses with ``BudgetRefusal`` and sends nothing, so no code can send a budgeted request
/// without paying for it, and ``requestsSent`` counts what went out. A step that needs several
/// requests to mean anything (a report's create and upload) first holds them (``hold(_:)``), so
/// it is never cut in half by other cases spending the rest; held requests are charged as they are
/// sent and the unused ones go back when the hold ends. Cleanup deletes bypass the budget
/// (``sendUnbudgeted(_:)``) so that a run never leaves data behind just because it ran out of
/// requests. When the run is interrupted (SIGINT, SIGTERM), ``stopGranting(because:)`` makes
/// every later request and hold fail, so no new case starts while the cleanup finishes.
///
/// Every request and answer passes through ``secrets``: the credentials sent and the passwords
/// handed out are learnt there, and the report is redacted with them
/// (``ContractReport/sanitized(by:)``).
///
/// At most ``capRequestsInFlight(_:)`` requests are in flight at once, whichever groups send
/// them (groups that run side by side share `--concurrency`); unlimited until capped.
package final class BudgetedTransport: AnnouncementTransport, RequestGranting, Sendable {
    /// Requests sent and held, why sending stops (if it does), whether the budget refused one.
    private struct State: Sendable {
        /// Requests sent through the budget.
        var sent = 0
        /// Requests held for steps under way and not sent yet.
        var held = 0
        /// Why requests are refused, once they are.
        var stopReason: String?
        /// A request or hold went past the budget.
        var budgetRefused = false
    }

    /// The transport wrapped.
    private let base: any AnnouncementTransport
    /// The budget's state.
    private let state = Locked(State())
    /// The most requests sent through the budget.
    package let limit: Int
    /// Where the credentials sent and the passwords received are learnt.
    package let secrets: SecretStore
    /// Requests in flight at once, at most.
    private let inFlight = AsyncPermits(limit: .max)

    /// Wraps `base` with a budget of `limit` requests.
    package convenience init(_ base: any AnnouncementTransport, limit: Int) {
        self.init(base, limit: limit, secrets: SecretStore())
    }

    /// Wraps `base` with a budget of `limit` requests, learning credentials into `secrets`.
    package init(_ base: any AnnouncementTransport, limit: Int, secrets: SecretStore) {
        self.base = base
        self.limit = limit
        self.secrets = secrets
    }

    /// Lets at most `count` requests be in flight at once from now on (the run's `--concurrency`).
    package func capRequestsInFlight(_ count: Int) {
        inFlight.setLimit(count)
    }

    /// Requests sent through the budget so far (cleanup deletes excepted).
    package var requestsSent: Int { state.withLock { $0.sent } }

    /// Holds `count` requests for one step; `nil` (and nothing held) when the budget cannot cover
    /// them beside what is sent and held already, or the run was stopped.
    func hold(_ count: Int) -> BudgetHold? {
        let granted = state.withLock { state -> Bool in
            guard state.stopReason == nil else { return false }
            guard state.sent + state.held + count <= limit else {
                state.budgetRefused = true
                return false
            }
            state.held += count
            return true
        }
        return granted ? BudgetHold(transport: self, count: count) : nil
    }

    /// Charges one request: from `hold` while it has some left, else from the budget's free part.
    /// - Throws: ``BudgetRefusal`` when neither can pay (nothing is charged).
    private func charge(from hold: BudgetHold?) throws(BudgetRefusal) {
        let fromHold = hold?.take() ?? false
        let refusal = state.withLock { state -> BudgetRefusal? in
            if fromHold {
                state.held -= 1
            } else {
                if let reason = state.stopReason { return BudgetRefusal(reason: reason) }
                guard state.sent + state.held < limit else {
                    state.budgetRefused = true
                    return BudgetRefusal(reason: nil)
                }
            }
            state.sent += 1
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Gives back the `count` requests a hold did not send.
    fileprivate func release(_ count: Int) {
        state.withLock { $0.held -= count }
    }

    /// Whether a request or hold was refused because the budget could not cover it.
    package var budgetRefused: Bool { state.withLock { $0.budgetRefused } }

    /// Makes every later request and hold fail, for `reason` (e.g. `interrupted by SIGTERM`);
    /// requests already held may still be sent, so a step under way finishes.
    package func stopGranting(because reason: String) {
        state.withLock { state in
            if state.stopReason == nil { state.stopReason = reason }
        }
    }

    /// Why requests are refused, once ``stopGranting(because:)`` was called.
    package var stopReason: String? { state.withLock { $0.stopReason } }

    /// The note a report gets when a request is first refused: the budget was reached, or the run
    /// was stopped.
    package var refusalNote: String {
        if let reason = stopReason { return "\(reason): no new case was started; the cases under way finished and cleanup ran" }
        return "the request budget (--max-requests \(limit)) was reached; later cases were not run"
    }

    /// Charges one request of the budget (or of `hold`) and sends it.
    /// - Returns: the answer, or why there is none.
    /// - Throws: ``BudgetRefusal`` when the budget refuses it; then nothing was sent.
    package func sendCharged(
        _ request: TransportRequest, from hold: BudgetHold? = nil
    ) async throws(BudgetRefusal) -> Result<TransportResponse, TransportError> {
        try charge(from: hold)
        do {
            return .success(try await learning(request))
        } catch {
            return .failure(error)
        }
    }

    /// Charges one request of the budget and sends it; a refusal is a transport error (for code
    /// that only knows ``AnnouncementTransport``).
    package func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        do {
            return try await sendCharged(request).get()
        } catch let refusal as BudgetRefusal {
            throw .noConnection(refusal.description)
        } catch let error as TransportError {
            throw error
        } catch {
            throw .noConnection(String(describing: error))
        }
    }

    /// Sends a cleanup request outside the budget.
    func sendUnbudgeted(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        try await learning(request)
    }

    /// Sends `request` outside the budget on the calling thread, when the wrapped transport can
    /// answer without a task (the in-process mock); `nil` otherwise.
    func sendUnbudgetedNow(_ request: TransportRequest) -> Result<TransportResponse, TransportError>? {
        guard let immediate = base as? InProcessTransport else { return nil }
        secrets.learn(from: request)
        let answer = immediate.answerNow(request)
        if case .success(let response) = answer { secrets.learn(from: response) }
        return answer
    }

    /// Sends `request` through the wrapped transport, learning the secrets of both sides.
    private func learning(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        secrets.learn(from: request)
        await inFlight.acquire()
        defer { inFlight.release() }
        let response = try await base.send(request)
        secrets.learn(from: response)
        return response
    }
}

/// Requests held from a ``BudgetedTransport`` for one step; the ones not sent go back to the
/// budget when the hold is dropped.
package final class BudgetHold: Sendable {
    private let transport: BudgetedTransport
    private let remaining: Locked<Int>

    fileprivate init(transport: BudgetedTransport, count: Int) {
        self.transport = transport
        remaining = Locked(count)
    }

    /// Takes one held request; `false` when none is left.
    fileprivate func take() -> Bool {
        remaining.withLock { remaining in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
    }

    deinit {
        let unused = remaining.withLock { $0 }
        if unused > 0 { transport.release(unused) }
    }
}
