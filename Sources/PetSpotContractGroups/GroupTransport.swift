import Foundation
import PetSpotConcurrency
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel
import PetSpotReport

/// A transport through ``GroupBackend/send(_:)``; a request the group does not send is a
/// transport error naming why.
struct GroupTransport: AnnouncementTransport {
    let backend: GroupBackend

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let answer: Result<TransportResponse, TransportError>
        do {
            answer = try await backend.send(request)
        } catch {
            throw .noConnection("not sent: \(backend.stopReason)")
        }
        return try answer.get()
    }
}
