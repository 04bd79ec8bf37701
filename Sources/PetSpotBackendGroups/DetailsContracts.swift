import Foundation
import PetSpotContractGroups
import PetSpotFlowChecks
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

/// `GET /api/v1/announcements/{id}`: the announcement as create answered it, without
/// `managementPassword`; the 404 envelope for an unknown and for a malformed id.
package struct DetailsContracts: BackendContractGroup {
    package let name = "details"
    package let surfaces: Set<MockDefect.Surface> = [.details]

    /// The group.
    package init() {}

    // Contract names, as the report shows them.
    package static let sameAsCreate = "details answer what create answered, without managementPassword"
    package static let unknown = "an unknown id answers the 404 NOT_FOUND envelope"
    package static let malformed = "a malformed id answers the 404 NOT_FOUND envelope"
    static let contracts = [sameAsCreate, unknown, malformed]
    /// Production's message for an unknown announcement.
    static let notFound = ErrorExpectation(404, "NOT_FOUND", message: "Resource not found")

    package func contracts(in session: ContractSession) -> [String] { Self.contracts }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        switch try await backend.createBase() {
        case .failure(let setup):
            backend.recordSetupFailure([Self.sameAsCreate], setup, what: "creating an announcement")
        case .success(let created):
            let read = try await backend.exchange(BackendTarget.getRequest(created.path.details))
            backend.record(
                Self.sameAsCreate, Self.sameAsCreateProblem(read.response, created: created.answer, schemas: backend.schemas), read,
                expected: "200 with the create answer's members, no managementPassword", password: created.password)
        }
        let unknown = try await backend.exchange(BackendTarget.getRequest(AnnouncementPath(uuid: UUID()).details))
        backend.record(Self.unknown, backend.problem(unknown.response, Self.notFound), unknown, expected: Self.notFound.description)
        let malformed = try await backend.exchange(BackendTarget.getRequest("/api/v1/announcements/not-a-uuid"))
        backend.record(Self.malformed, backend.problem(malformed.response, Self.notFound), malformed, expected: Self.notFound.description)
    }

    /// What differs between a details answer and the create answer it must repeat, or `nil`.
    static func sameAsCreateProblem(
        _ answer: Result<TransportResponse, TransportError>, created: JSONObject, schemas: ContractSchemas
    ) -> String? {
        let body: JSONObject
        switch successObject(answer, status: 200) {
        case .failure(let problem): return problem.description
        case .success(let object): body = object
        }
        if body["managementPassword"] != nil { return "the details contain managementPassword" }
        let violations = schemas.violations(of: .object(body), against: .announcement)
        if !violations.isEmpty { return "body does not match announcement.schema.json: " + violations.prefix(3).joined(separator: "; ") }
        for (key, value) in created.members where key != "managementPassword" && key != "updatedAt" {
            if body[key] != value { return "\(key) is \(body[key]?.serialized() ?? "missing"), create answered \(value.serialized())" }
        }
        return nil
    }
}
