import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

/// The catalog's negative create requests (`Contracts/catalog/create-negative-cases.json`),
/// each with the answer the run's profile must give; one contract per case.
package struct CreateCatalogContracts: BackendContractGroup {
    package let name = "create negatives (catalog)"
    // The charset rule is a create-route behaviour the catalog's charset cases exercise.
    package let surfaces: Set<MockDefect.Surface> = [.create, .routing]

    /// The group.
    package init() {}

    /// One contract per captured case: the catalogs, not the planted defects, say what each expects.
    package let plantedDefectsCoverEveryContract = false

    static func contractName(_ item: NegativeCase) -> String { "\(item.id): \(item.description)" }

    package func contracts(in session: ContractSession) -> [String] { session.schemas.documents.negativeCases.cases.map(Self.contractName) }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        let catalog = backend.schemas.documents.negativeCases
        try await backend.forEach(catalog.cases) { item throws(GroupStop) in
            // A case with a setup request is one step: its two requests are held together.
            try await backend.holding(item.setup == nil ? 1 : 2) { backend throws(GroupStop) in
                try await run(item, catalog: catalog, backend: backend)
            }
        }
    }

    private func run(_ item: NegativeCase, catalog: CaseCatalog, backend: GroupBackend) async throws(GroupStop) {
        let contract = Self.contractName(item)
        let base = catalog.basePayload(microchipNumber: backend.microchip())
        if item.setup == .createBaseFirst, case .failure(let setup) = try await backend.create(base) {
            backend.recordSetupFailure([contract], setup, what: "creating the base payload")
            return
        }
        let body: CaseBody
        do {
            body = try item.body(from: base)
        } catch {
            backend.record(contract, "the case cannot be built: \(error.description)", request: nil, expected: nil, response: nil)
            return
        }
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if let contentType = body.contentType { headers.insert(("Content-Type", contentType), at: 0) }
        let request = TransportRequest(method: "POST", path: "/api/v1/announcements", headers: headers, body: Data(body.bytes))
        let other: BackendProfile = backend.profile == .production ? .strict : .production
        try await backend.sendNegative(
            request, expected: item.expected(for: backend.profile), contract: contract, caseId: item.id,
            otherProfile: item.expected(for: other),
            knownDefect: KnownDefect(item.knownProductionDefect, sane: item.strictExpected, profile: backend.profile))
    }
}

extension GroupBackend {
    /// Sends a create request that must be refused as `expected` (an error answer must also match
    /// the error envelope). Where the other profile expects another answer (`otherProfile`), notes
    /// which of the two came, for the hint that the run's `--profile` is the wrong one.
    func sendNegative(
        _ request: TransportRequest, expected: ExpectedResponse, contract: String, caseId: String,
        otherProfile: ExpectedResponse? = nil, knownDefect: KnownDefect? = nil
    ) async throws(GroupStop) {
        let backend = target
        let answer = try await send(request)
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
            if let knownDefect {
                problem = knownDefect.judge(caseId: caseId, problem: problem, status: response.status, body: body, backend: backend)
            }
            if let otherProfile, otherProfile != expected, knownDefect == nil {
                let matchesOther = otherProfile.mismatch(status: response.status, body: body) == nil
                backend.noteProfileEvidence(
                    caseId: caseId, matchedExpected: problem == nil, otherProfileAnswer: matchesOther ? otherProfile.description : nil)
            }
        }
        record(contract, problem, request: request, expected: expected.description, response: answer, caseId: caseId)
    }
}
