import Foundation
import PetSpotConcurrency
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel
import PetSpotReport

/// The breaker of one group (or of the cleanup): counts the requests that timed out in a row,
/// and trips at ``limit``, after which no more requests are sent.
final class TimeoutBreaker: Sendable {
    /// Timeouts in a row that trip it.
    let limit: Int
    private let state = Locked<(inARow: Int, tripped: Bool)>((0, false))

    /// A breaker tripping after `limit` timeouts in a row.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Whether it tripped.
    var isTripped: Bool { state.withLock { $0.tripped } }

    /// Why the requests stopped, once it tripped.
    var reason: String { "\(limit) requests in a row timed out (--max-timeouts \(limit)): the target stopped answering" }

    /// Counts `answer`: a timeout adds one, any answer (or other error) starts again from zero.
    /// - Returns: `true` when this timeout tripped it (once).
    func trips(on answer: Result<TransportResponse, TransportError>) -> Bool {
        state.withLock { state in
            guard case .failure(.timedOut) = answer else {
                state.inARow = 0
                return false
            }
            state.inARow += 1
            guard state.inARow >= limit, !state.tripped else { return false }
            state.tripped = true
            return true
        }
    }
}
