import Foundation
import PetSpotHTTP
import PetSpotMockBackend
import PetSpotModel

/// A transport that counts requests against a budget and refuses those past it.
///
/// `run` against a shared staging backend must stay within `--max-requests`; cleanup deletes
/// bypass the budget (``sendUnbudgeted(_:)``) so that a run never leaves data behind just
/// because it ran out of requests.
public final class BudgetedTransport: AnnouncementTransport, @unchecked Sendable {
    // Unchecked: `used` is guarded by `lock`.
    private let base: any AnnouncementTransport
    private let lock = NSLock()
    private var used = 0
    /// The most requests ``send(_:)`` lets through.
    public let limit: Int

    /// Wraps `base` with a budget of `limit` requests.
    public init(_ base: any AnnouncementTransport, limit: Int) {
        self.base = base
        self.limit = limit
    }

    /// Requests sent so far.
    public var requestsSent: Int { lock.withLock { used } }

    /// Reserves `count` requests; `false` (and nothing reserved) when the budget cannot cover them.
    public func reserve(_ count: Int) -> Bool {
        lock.withLock {
            guard used + count <= limit else { return false }
            used += count
            return true
        }
    }

    /// Sends a request already covered by ``reserve(_:)``.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        try await base.send(request)
    }

    /// Sends a cleanup request outside the budget.
    public func sendUnbudgeted(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        try await base.send(request)
    }
}

/// A transport that remembers every exchange, so a contract can report the exact request and
/// answer behind a failure.
public final class RecordingTransport: AnnouncementTransport, @unchecked Sendable {
    // Unchecked: `log` is guarded by `lock`.
    /// One request and its answer (or transport error).
    public struct Exchange: Sendable {
        /// The request.
        public var request: TransportRequest
        /// The answer, or why there is none.
        public var response: Result<TransportResponse, TransportError>
    }

    private let base: any AnnouncementTransport
    private let lock = NSLock()
    private var log: [Exchange] = []

    /// Records the exchanges sent through `base`.
    public init(_ base: any AnnouncementTransport) {
        self.base = base
    }

    /// The exchanges so far, in order.
    public var exchanges: [Exchange] { lock.withLock { log } }

    /// Sends and records.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        do {
            let response = try await base.send(request)
            lock.withLock { log.append(Exchange(request: request, response: .success(response))) }
            return response
        } catch {
            lock.withLock { log.append(Exchange(request: request, response: .failure(error))) }
            throw error
        }
    }
}
