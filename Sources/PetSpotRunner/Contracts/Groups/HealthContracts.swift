import PetSpotJSON
import PetSpotModel

/// `GET /api/health`: 200 with the health body. Run first: a target that does not answer at all
/// stops the run (exit code 3) before anything is created on it.
struct HealthContracts: ContractGroup {
    let name = "health"
    static let answers = "health answers 200 with the health body"

    func applies(to session: ContractSession) -> Bool { session.backend != nil }

    func check(_ session: ContractSession) async throws(RunnerError) {
        guard let backend = session.backend else { return }
        session.recorder.declare(group: name, contract: Self.answers)
        let request = BackendTarget.getRequest("/api/health")
        guard backend.reserve(1, recorder: session.recorder) else {
            session.recorder.skip(group: name, contract: Self.answers, reason: "request budget reached")
            return
        }
        let answer = await backend.send(request)
        guard case .success(let response) = answer else {
            if case .failure(let error) = answer { throw .unreachable("cannot reach \(backend.name): \(error.description)") }
            return
        }
        var problem: String?
        if response.status != 200 {
            problem = "expected 200, got \(response.status)"
        } else if let body = try? JSONValue.parse(response.body) {
            let violations = session.schemas.violations(of: body, against: .health)
            if !violations.isEmpty { problem = "body does not match health.schema.json: " + violations.prefix(3).joined(separator: "; ") }
        } else {
            problem = "body is not JSON"
        }
        session.record(name, Self.answers, problem, request: request, expected: "200 {\"status\": \"ok\", \"timestamp\": ...}", response: answer)
    }
}
