import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel

/// The catalog's negative create requests (`Contracts/catalog/create-negative-cases.json`),
/// each with the answer the run's profile must give; one contract per case.
struct CreateCatalogContracts: ContractGroup {
    let name = "create negatives (catalog)"

    func applies(to session: ContractSession) -> Bool { session.backend != nil }

    static func contractName(_ item: NegativeCase) -> String { "\(item.id): \(item.description)" }

    func check(_ session: ContractSession) async throws(RunnerError) {
        guard let backend = session.backend else { return }
        let catalog = session.schemas.documents.negativeCases
        for item in catalog.cases { session.recorder.declare(group: name, contract: Self.contractName(item)) }
        await forEachConcurrently(catalog.cases, limit: backend.concurrency) { item in
            await run(item, catalog: catalog, session: session, backend: backend)
        }
    }

    private func run(_ item: NegativeCase, catalog: CaseCatalog, session: ContractSession, backend: BackendTarget) async {
        let contract = Self.contractName(item)
        guard backend.reserve(item.setup == nil ? 1 : 2, recorder: session.recorder) else {
            session.recorder.skip(group: name, contract: contract, reason: "request budget reached")
            return
        }
        let base = catalog.basePayload(microchipNumber: backend.microchips.next())
        if item.setup == .createBaseFirst {
            let setup = BackendTarget.createRequest(.object(base))
            let answer = await backend.send(setup)
            guard case .success(let response) = answer, response.status == 201,
                let id = (try? JSONValue.parse(response.body))?["id"]?.stringValue
            else {
                session.record(name, contract, "setup: creating the base payload did not answer 201", request: setup, expected: "201", response: answer)
                return
            }
            backend.remember(id, microchip: base["microchipNumber"]?.stringValue)
        }
        let body: CaseBody
        do {
            body = try item.body(from: base)
        } catch {
            session.record(name, contract, "the case cannot be built: \(error.description)", request: nil, expected: nil, response: nil)
            return
        }
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if let contentType = body.contentType { headers.insert(("Content-Type", contentType), at: 0) }
        let request = TransportRequest(method: "POST", path: "/api/v1/announcements", headers: headers, body: Data(body.bytes))
        let other: BackendProfile = backend.profile == .production ? .strict : .production
        await session.sendNegative(
            request, expected: item.expected(for: backend.profile), group: name, contract: contract, caseId: item.id,
            microchip: base["microchipNumber"]?.stringValue, otherProfile: item.expected(for: other),
            knownDefect: KnownDefect(item.knownProductionDefect, sane: item.strictExpected, profile: backend.profile))
    }
}

extension ContractSession {
    /// Sends a create request that must be refused as `expected` (an error answer must also match
    /// the error envelope); a create that succeeds anyway is remembered for cleanup. Where the
    /// other profile expects another answer (`otherProfile`), notes which of the two came, for
    /// the hint that the run's `--profile` is the wrong one.
    func sendNegative(
        _ request: TransportRequest, expected: ExpectedResponse, group: String, contract: String, caseId: String, microchip: String?,
        otherProfile: ExpectedResponse? = nil, knownDefect: KnownDefect? = nil
    ) async {
        guard let backend else { return }
        let answer = await backend.send(request)
        var problem: String?
        switch answer {
        case .failure(let error): problem = "no answer: \(error.description)"
        case .success(let response):
            let body = try? JSONValue.parse(response.body)
            problem = expected.mismatch(status: response.status, body: body)
            if problem == nil, expected.isError, let body {
                let violations = schemas.violations(of: body, against: .errorEnvelope)
                if !violations.isEmpty { problem = "error body does not match error-envelope.schema.json: " + violations.prefix(3).joined(separator: "; ") }
            }
            if (200..<300).contains(response.status), let id = body?["id"]?.stringValue {
                backend.remember(id, microchip: microchip)
            }
            if let knownDefect {
                problem = knownDefect.judge(caseId: caseId, problem: problem, status: response.status, body: body, backend: backend)
            }
            if let otherProfile, otherProfile != expected, knownDefect == nil {
                let matchesOther = otherProfile.mismatch(status: response.status, body: body) == nil
                backend.noteProfileEvidence(
                    caseId: caseId, matchedExpected: problem == nil, otherProfileAnswer: matchesOther ? otherProfile.description : nil)
            }
        }
        record(group, contract, problem, request: request, expected: expected.description, response: answer, caseId: caseId)
    }
}

/// A catalog case whose production answer is a known backend defect, checked in the production
/// profile: production's answer passes and is listed as still present; the sane answer also
/// passes, with a notice to update the catalog; anything else fails.
struct KnownDefect {
    /// What the defect is.
    let text: String
    /// The sane answer (the case's `strictExpected`).
    let sane: ExpectedResponse

    /// The defect of a case in `profile`, or `nil` (no defect, or the strict profile, which
    /// expects the sane answer anyway).
    init?(_ text: String?, sane: ExpectedResponse?, profile: BackendProfile) {
        guard profile == .production, let text, let sane else { return nil }
        self.text = text
        self.sane = sane
    }

    /// The case's problem once the defect is taken into account, noting what was seen.
    func judge(caseId: String, problem: String?, status: Int, body: JSONValue?, backend: BackendTarget) -> String? {
        if problem == nil {
            backend.noteKnownDefect(KnownDefectSighting(caseId: caseId, defect: text, stillPresent: true, saneAnswer: sane.description))
            return nil
        }
        guard sane.mismatch(status: status, body: body) == nil else { return problem }
        backend.noteKnownDefect(KnownDefectSighting(caseId: caseId, defect: text, stillPresent: false, saneAnswer: sane.description))
        return nil
    }
}
