import Foundation
import PetSpotConcurrency
import PetSpotHTTP
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import PetSpotReport

/// A transport that remembers every exchange, so a contract can report the exact request and
/// answer behind a failure.
package final class RecordingTransport: AnnouncementTransport, Sendable {
    /// One request and its answer (or transport error).
    package struct Exchange: Sendable {
        /// The request.
        package var request: TransportRequest
        /// The answer, or why there is none.
        package var response: Result<TransportResponse, TransportError>

        /// `request` and its answer.
        package init(request: TransportRequest, response: Result<TransportResponse, TransportError>) {
            self.request = request
            self.response = response
        }
    }

    /// The transport wrapped.
    private let base: any AnnouncementTransport
    /// The exchanges so far.
    private let log = Locked<[Exchange]>([])

    /// Records the exchanges sent through `base`.
    package init(_ base: any AnnouncementTransport) {
        self.base = base
    }

    /// The exchanges so far, in order.
    package var exchanges: [Exchange] { log.withLock { $0 } }

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
