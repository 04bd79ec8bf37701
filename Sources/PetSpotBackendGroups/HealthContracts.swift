import PetSpotContractGroups
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

/// `GET /api/health`: 200 with the health body. Run first: a target that does not answer at all
/// stops the run (exit code 3) before anything is created on it.
package struct HealthContracts: BackendContractGroup {
    package let name = "health"
    package let surfaces: Set<MockDefect.Surface> = []
    /// It only reads.
    package let createsAnnouncements = false
    /// First, alone: its answer tells whether the target can be reached before anything else is sent.
    package let runsAlone = true

    /// The group.
    package init() {}

    package static let answers = "health answers 200 with the health body"

    package func contracts(in session: ContractSession) -> [String] { [Self.answers] }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        let request = BackendTarget.getRequest("/api/health")
        let answer = try await backend.send(request)
        guard case .success(let response) = answer else {
            if case .failure(let error) = answer { throw .unreachable(.unreachable("cannot reach \(backend.target.name): \(error.description)")) }
            return
        }
        var problem: String?
        if response.status != 200 {
            problem = "expected 200, got \(response.status)"
        } else if let body = try? JSONValue.parse(response.body) {
            let violations = backend.schemas.violations(of: body, against: .health)
            if !violations.isEmpty { problem = "body does not match health.schema.json: " + violations.prefix(3).joined(separator: "; ") }
        } else {
            problem = "body is not JSON"
        }
        backend.record(Self.answers, problem, request: request, expected: "200 {\"status\": \"ok\", \"timestamp\": ...}", response: answer)
    }
}
