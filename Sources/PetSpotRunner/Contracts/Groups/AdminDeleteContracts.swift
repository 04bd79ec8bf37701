import Foundation
import PetSpotJSON
import PetSpotModel

/// `DELETE /api/admin/v1/announcements/{id}` (and its alias `DELETE /api/v1/announcements/{id}`):
/// without the admin token, with a wrong one or with the token under a scheme, 401
/// `UNAUTHENTICATED` and the announcement is still there; with the token, 204 and it is gone;
/// an unknown id, 404.
struct AdminDeleteContracts: ContractGroup {
    let name = "admin delete"
    // Contract names, as the report shows them.
    static let noToken = "a delete without Authorization answers 401 and the announcement stays"
    static let wrongToken = "a delete with a wrong token answers 401 and the announcement stays"
    static let scheme = "the admin token under a scheme (Bearer) answers 401 and the announcement stays"
    static let alias = "the alias DELETE /api/v1/announcements/{id} without a token answers 401 and the announcement stays"
    static let deletes = "a delete with the admin token answers 204, then details answer 404"
    static let unknown = "a delete of an unknown id with the admin token answers 404"
    static let contracts = [noToken, wrongToken, scheme, alias, deletes, unknown]

    /// The answer without an Authorization header.
    static let missing = ErrorExpectation(401, "UNAUTHENTICATED", message: "Missing Authorization header")
    /// The answer to a token that is not the admin token.
    static let invalid = ErrorExpectation(401, "UNAUTHENTICATED", message: "Invalid admin token")

    /// Applies whenever the session has a backend.
    func applies(to session: ContractSession) -> Bool { session.backend != nil }

    func check(_ session: ContractSession) async throws(RunnerError) {
        guard let backend = session.backend else { return }
        let token = backend.adminToken
        guard session.reserve(token == nil ? 7 : 12, group: name, contracts: Self.contracts) else { return }
        if token == nil {
            for contract in [Self.scheme, Self.deletes, Self.unknown] {
                session.recorder.skip(group: name, contract: contract, reason: "no --admin-token given")
            }
        }
        let created: BackendTarget.Created
        switch await backend.create(backend.basePayload(session)) {
        case .failure(let setup):
            session.recordSetupFailure(name, Self.contracts, setup, what: "creating an announcement")
            return
        case .success(let value): created = value
        }
        let id = created.id
        let details = BackendTarget.getRequest("/api/v1/announcements/\(id)")

        /// Sends a delete that must be refused with `expected`, then requires the announcement to
        /// still be there.
        func refused(_ contract: String, path: String, authorization: String?, _ expected: ErrorExpectation) async {
            var request = BackendTarget.adminDeleteRequest(id: id, authorization: authorization)
            request.path = path
            let attempt = await backend.exchange(request)
            if let problem = session.problem(attempt.response, expected) {
                if case .success(let response) = attempt.response, response.status == 204 { backend.markDeleted(id) }
                session.record(name, contract, problem, attempt, expected: expected.description)
                return
            }
            let after = await backend.exchange(details)
            var problem: String?
            if case .success(let response) = after.response, response.status == 200 {
                problem = nil
            } else {
                problem = "after the refused delete, details answer \(Self.statusText(after.response)), expected 200: the announcement is gone"
            }
            session.record(name, contract, problem, problem == nil ? attempt : after, expected: "200 (the announcement is still there)")
        }

        let adminPath = "/api/admin/v1/announcements/\(id)", aliasPath = "/api/v1/announcements/\(id)"
        await refused(Self.noToken, path: adminPath, authorization: nil, Self.missing)
        await refused(Self.wrongToken, path: adminPath, authorization: "petspot-contracts-wrong-\(UUID().uuidString.lowercased())", Self.invalid)
        if let token { await refused(Self.scheme, path: adminPath, authorization: "Bearer \(token)", Self.invalid) }
        await refused(Self.alias, path: aliasPath, authorization: nil, Self.missing)
        guard let token, !backend.isDeleted(id) else { return }

        // With the token, through the alias route: 204, then gone.
        var request = BackendTarget.adminDeleteRequest(id: id, authorization: token)
        request.path = aliasPath
        let deletion = await backend.exchange(request)
        if case .success(let response) = deletion.response, response.status == 204 {
            backend.markDeleted(id)
            let after = await backend.exchange(details)
            session.record(name, Self.deletes, session.problem(after.response, DetailsContracts.notFound), after, expected: "404 after the delete")
        } else {
            session.record(name, Self.deletes, "expected 204, got \(Self.statusText(deletion.response))", deletion, expected: "204")
        }
        let unknown = await backend.exchange(BackendTarget.adminDeleteRequest(id: UUID().uuidString.lowercased(), authorization: token))
        session.record(name, Self.unknown, session.problem(unknown.response, DetailsContracts.notFound), unknown, expected: DetailsContracts.notFound.description)
    }

    /// The status of an answer, or why there is none.
    static func statusText(_ answer: Result<TransportResponse, TransportError>) -> String {
        switch answer {
        case .success(let response): "status \(response.status)"
        case .failure(let error): "no answer (\(error.description))"
        }
    }
}
