import Foundation
import PetSpotContractGroups
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel
import PetSpotReport

/// The HTTP behaviour every route shares (backend-contract.md): unknown routes and methods
/// answer the JSON 404 envelope; the `OPTIONS` preflight answers 204 with the allowed methods;
/// `HEAD` is the `GET` route without a body; gzip and deflate request bodies are inflated; an
/// `:id` that is not valid percent-encoding answers 500. And, observed on every answer of the
/// run (so it runs last among the backend groups): CORS is open on every answer, and every body
/// is what its Content-Type says.
package struct RoutingContracts: BackendContractGroup {
    package let name = "routing and shared HTTP behaviour"
    // The charset rule is a create-route behaviour the catalog's charset cases exercise too.
    package let surfaces: Set<MockDefect.Surface> = [.routing]
    /// Last, alone: it reports what every answer of the run shared.
    package let runsAlone = true

    /// The group.
    package init() {}

    // Contract names, as the report shows them.
    package static let unknownRoute = "an unknown route answers the JSON 404 NOT_FOUND envelope"
    package static let unknownMethod = "an unknown method on a known path answers the JSON 404 NOT_FOUND envelope"
    package static let preflight = "an OPTIONS preflight answers 204 with the allowed methods"
    package static let head = "HEAD answers as the GET route, without a body"
    package static let gzip = "a gzip request body is inflated (create answers 201)"
    package static let deflate = "a deflate request body is inflated (create answers 201)"
    package static let badEscape = "an :id that is not valid percent-encoding answers 500 INTERNAL_SERVER_ERROR"
    package static let cors = "every answer of the run carries Access-Control-Allow-Origin: *"
    package static let contentType = "every answer of the run is what its Content-Type says (JSON on the API, the image type on /images)"
    static let contracts = [unknownRoute, unknownMethod, preflight, head, gzip, deflate, badEscape, cors, contentType]

    /// The unknown-route answer.
    static let notFound = ErrorExpectation(404, "NOT_FOUND", message: "Resource not found")

    package func contracts(in session: ContractSession) -> [String] { Self.contracts }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        defer { Self.recordObservations(backend) }

        let unknown = try await backend.exchange(BackendTarget.getRequest("/api/v1/no-such-route"))
        backend.record(Self.unknownRoute, backend.problem(unknown.response, Self.notFound), unknown, expected: Self.notFound.description)
        for (method, path) in [("PUT", "/api/v1/announcements"), ("PATCH", "/api/health")] {
            let answer = try await backend.exchange(TransportRequest(
                method: method, path: path, headers: [("Content-Type", "application/json"), ("Accept", "application/json")], body: Data("{}".utf8)))
            backend.record(Self.unknownMethod, backend.problem(answer.response, Self.notFound), answer, expected: Self.notFound.description)
        }

        let preflight = try await backend.exchange(TransportRequest(
            method: "OPTIONS", path: "/api/v1/announcements",
            headers: [("Origin", "https://app.petspot.example"), ("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Headers", "content-type")]))
        backend.record(Self.preflight, Self.preflightProblem(preflight.response), preflight, expected: "204 with Access-Control-Allow-Methods listing GET, POST and DELETE")

        let health = try await backend.exchange(BackendTarget.getRequest("/api/health"))
        let headHealth = try await backend.exchange(TransportRequest(method: "HEAD", path: "/api/health", headers: [("Accept", "application/json")]))
        backend.record(Self.head, Self.headProblem(headHealth.response, get: health.response), headHealth, expected: "200, the GET answer's Content-Type, no body")
        let headUnknown = try await backend.exchange(TransportRequest(method: "HEAD", path: AnnouncementPath(uuid: UUID()).details))
        backend.record(Self.head, Self.headProblem(headUnknown.response, status: 404), headUnknown, expected: "404, Content-Type application/json, no body")

        for (contract, coding) in [(Self.gzip, "gzip"), (Self.deflate, "deflate")] {
            let plain = [UInt8](JSONValue.object(backend.basePayload()).serializedData())
            let compressed = coding == "gzip" ? Deflate.gzip(plain) : Deflate.zlib(plain)
            let request = TransportRequest(
                method: "POST", path: "/api/v1/announcements",
                headers: [("Content-Type", "application/json"), ("Content-Encoding", coding), ("Accept", "application/json")], body: Data(compressed))
            let answer = try await backend.exchange(request)
            var problem: String?
            if case .failure(let failure) = successObject(answer.response, status: 201) { problem = failure.description }
            backend.record(contract, problem, answer, expected: "201 (the body inflated and accepted)")
        }

        let escape = try await backend.exchange(BackendTarget.getRequest("/api/v1/announcements/%E0%A4"))
        let internalError = ErrorExpectation(500, "INTERNAL_SERVER_ERROR", message: "Internal server error")
        backend.record(Self.badEscape, backend.problem(escape.response, internalError), escape, expected: internalError.description)
    }

    /// What is wrong with a preflight answer, or `nil`.
    static func preflightProblem(_ answer: Result<TransportResponse, TransportError>) -> String? {
        switch answer {
        case .failure(let error): return "no answer: \(error.description)"
        case .success(let response):
            if response.status != 204 { return "expected 204, got status \(response.status)" }
            let methods = Set((response.header("Access-Control-Allow-Methods") ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).uppercased()
            })
            let missing = ["GET", "POST", "DELETE"].filter { !methods.contains($0) }
            return missing.isEmpty ? nil : "Access-Control-Allow-Methods does not list \(missing.joined(separator: ", "))"
        }
    }

    /// What is wrong with a HEAD answer compared with the GET answer (or an expected status).
    static func headProblem(
        _ answer: Result<TransportResponse, TransportError>, get: Result<TransportResponse, TransportError>? = nil, status: Int? = nil
    ) -> String? {
        guard case .success(let response) = answer else {
            if case .failure(let error) = answer { return "no answer: \(error.description)" }
            return nil
        }
        var wantedStatus = status ?? 200
        var wantedType: String? = "application/json"
        if let get, case .success(let getResponse) = get {
            wantedStatus = getResponse.status
            wantedType = SharedBehaviourObservations.mediaType(getResponse.header("Content-Type"))
        }
        if response.status != wantedStatus { return "HEAD answered status \(response.status), the GET route answers \(wantedStatus)" }
        let type = SharedBehaviourObservations.mediaType(response.header("Content-Type"))
        if type != wantedType { return "HEAD answered Content-Type \(type ?? "none"), the GET route answers \(wantedType ?? "none")" }
        return response.body.isEmpty ? nil : "HEAD answered a body of \(response.body.count) bytes"
    }

    /// Records what every answer of the run shared.
    static func recordObservations(_ backend: GroupBackend) {
        let observed = backend.target.sharedObservations
        let recorder = backend.session.recorder, group = backend.group
        for (contract, rule) in [(cors, observed.cors), (contentType, observed.contentType)] {
            if rule.passed > 0 { recorder.pass(group: group, contract: contract, count: rule.passed) }
            for failure in rule.failures {
                backend.record(
                    contract, failure.problem, request: failure.request, expected: contract, response: .success(failure.response),
                    bodyLength: failure.bodyLength)
            }
            for _ in rule.failures.count..<max(rule.failures.count, rule.failed) {
                recorder.fail(group: group, contract: contract, ContractFailure(message: "another answer broke the rule"))
            }
        }
    }
}
