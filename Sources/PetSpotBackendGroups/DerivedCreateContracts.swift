import PetSpotContractGroups
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend

/// Negative create requests derived from the create-request schema: each required field dropped,
/// each field `null`, of a wrong type, past its bounds, against its pattern or enum, and unknown
/// keys; one contract per kind of derivation. A derived case is kept only when the schema itself
/// rejects its body.
package struct DerivedCreateContracts: BackendContractGroup {
    package let name = "create negatives (schema-derived)"
    package let surfaces: Set<MockDefect.Surface> = [.create]

    /// The group.
    package init() {}

    /// One contract per captured case: the catalogs, not the planted defects, say what each expects.
    package let plantedDefectsCoverEveryContract = false

    /// Every body is one the schema refuses, so a backend that keeps the contract creates nothing
    /// (one that wrongly accepts a case fails it, and what it created is listed as a leftover).
    package let createsAnnouncements = false

    package func contracts(in session: ContractSession) -> [String] { SchemaDerivedCases.Category.allCases.map(\.contractName) }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        let schemas = backend.schemas
        let derived = SchemaDerivedCases.make(schema: schemas.documents[.createRequest], base: schemas.documents.negativeCases.basePayload) { body in
            !schemas.violations(of: body, against: .createRequest).isEmpty
        }
        try await backend.forEach(derived) { item throws(GroupStop) in
            var body = item.body
            if item.field != "microchipNumber" || item.category == .unknownKey { body["microchipNumber"] = .string(backend.microchip()) }
            try await backend.sendNegative(
                BackendTarget.createRequest(.object(body)), expected: item.expected, contract: item.category.contractName, caseId: item.id)
        }
    }
}
