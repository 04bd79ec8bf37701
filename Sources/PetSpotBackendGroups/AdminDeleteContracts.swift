import Foundation
import PetSpotContractGroups
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

/// `DELETE /api/admin/v1/announcements/{id}` (and its alias `DELETE /api/v1/announcements/{id}`):
/// without the admin token, with a wrong one or with the token under a scheme, 401
/// `UNAUTHENTICATED` and the announcement is still there; with the token, 204 and it is gone;
/// an unknown id, 404.
package struct AdminDeleteContracts: BackendContractGroup {
    package let name = "admin delete"
    package let surfaces: Set<MockDefect.Surface> = [.adminDelete]

    /// The group.
    package init() {}

    // Contract names, as the report shows them.
    package static let noToken = "a delete without Authorization answers 401 and the announcement stays"
    package static let wrongToken = "a delete with a wrong token answers 401 and the announcement stays"
    package static let scheme = "the admin token under a scheme (Bearer) answers 401 and the announcement stays"
    package static let alias = "the alias DELETE /api/v1/announcements/{id} without a token answers 401 and the announcement stays"
    package static let deletes = "a delete with the admin token answers 204, then details answer 404"
    package static let unknown = "a delete of an unknown id with the admin token answers 404"
    static let contracts = [noToken, wrongToken, scheme, alias, deletes, unknown]

    /// The answer without an Authorization header.
    static let missing = ErrorExpectation(401, "UNAUTHENTICATED", message: "Missing Authorization header")
    /// The answer to a token that is not the admin token.
    static let invalid = ErrorExpectation(401, "UNAUTHENTICATED", message: "Invalid admin token")

    package func contracts(in session: ContractSession) -> [String] { Self.contracts }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        let token = backend.adminToken
        if token == nil {
            for contract in [Self.scheme, Self.deletes, Self.unknown] { backend.skip(contract, reason: "no --admin-token given") }
        }
        let created: GroupBackend.Created
        switch try await backend.createBase() {
        case .failure(let setup):
            backend.recordSetupFailure(Self.contracts, setup, what: "creating an announcement")
            return
        case .success(let value): created = value
        }
        let announcement = created.path
        let details = BackendTarget.getRequest(announcement.details)

        /// Sends a delete that must be refused with `expected`, then requires the announcement to
        /// still be there.
        func refused(_ contract: String, path: String, authorization: String?, _ expected: ErrorExpectation) async throws(GroupStop) {
            var request = BackendTarget.adminDeleteRequest(announcement, authorization: authorization)
            request.path = path
            let attempt = try await backend.exchange(request)
            if let problem = backend.problem(attempt.response, expected) {
                backend.record(contract, problem, attempt, expected: expected.description)
                return
            }
            let after = try await backend.exchange(details)
            var problem: String?
            if case .success(let response) = after.response, response.status == 200 {
                problem = nil
            } else {
                problem = "after the refused delete, details answer \(Self.statusText(after.response)), expected 200: the announcement is gone"
            }
            backend.record(contract, problem, problem == nil ? attempt : after, expected: "200 (the announcement is still there)")
        }

        let adminPath = announcement.adminDelete, aliasPath = announcement.details
        try await refused(Self.noToken, path: adminPath, authorization: nil, Self.missing)
        // Made up to be refused: a decoy, shown in the report, not a secret.
        let wrongToken = "petspot-contracts-wrong-\(UUID().uuidString.lowercased())"
        backend.target.transport.secrets.markDecoy(wrongToken)
        try await refused(Self.wrongToken, path: adminPath, authorization: wrongToken, Self.invalid)
        if let token { try await refused(Self.scheme, path: adminPath, authorization: "Bearer \(token)", Self.invalid) }
        try await refused(Self.alias, path: aliasPath, authorization: nil, Self.missing)
        guard let token, !backend.target.isDeleted(announcement.id) else { return }

        // With the token, through the alias route: 204, then gone.
        var request = BackendTarget.adminDeleteRequest(announcement, authorization: token)
        request.path = aliasPath
        let deletion = try await backend.exchange(request)
        if case .success(let response) = deletion.response, response.status == 204 {
            let after = try await backend.exchange(details)
            backend.record(Self.deletes, backend.problem(after.response, DetailsContracts.notFound), after, expected: "404 after the delete")
        } else {
            backend.record(Self.deletes, "expected 204, got \(Self.statusText(deletion.response))", deletion, expected: "204")
        }
        let unknown = try await backend.exchange(BackendTarget.adminDeleteRequest(AnnouncementPath(uuid: UUID()), authorization: token))
        backend.record(Self.unknown, backend.problem(unknown.response, DetailsContracts.notFound), unknown, expected: DetailsContracts.notFound.description)
    }

    /// The status of an answer, or why there is none.
    static func statusText(_ answer: Result<TransportResponse, TransportError>) -> String {
        switch answer {
        case .success(let response): "status \(response.status)"
        case .failure(let error): "no answer (\(error.description))"
        }
    }
}
