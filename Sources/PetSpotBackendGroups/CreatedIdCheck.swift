import Foundation
import PetSpotContractGroups
import PetSpotFlowGenerators
import PetSpotConcurrency
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

/// A transport for the model's submitter that sends nothing more once a create answered an id
/// that is not a single path segment (``AnnouncementPath``): the submitter would put it in the
/// photo upload's path, with the management password.
struct CreatedIdCheck: AnnouncementTransport {
    /// The transport wrapped.
    let base: any AnnouncementTransport
    /// Why requests are no longer sent, once a create answered such an id.
    private let refusal = Locked<AnnouncementPath.Refusal?>(nil)

    init(base: any AnnouncementTransport) {
        self.base = base
    }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        if let refused = refusal.withLock({ $0 }) { throw .noConnection("not sent: the create answered an \(refused.description)") }
        let response = try await base.send(request)
        if request.method == "POST", request.path == "/api/v1/announcements", response.status == 201,
            let id = (try? JSONValue.parse(response.body))?["id"]?.stringValue, case .failure(let refused) = AnnouncementPath.of(id)
        {
            refusal.withLock { $0 = refused }
        }
        return response
    }
}
