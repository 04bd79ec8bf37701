import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

/// The catalog's photo upload cases (`Contracts/catalog/photo-upload-cases.json`): credentials,
/// part names, sizes and file formats, against one announcement created for them; one contract
/// per case.
package struct PhotoUploadCatalogContracts: BackendContractGroup {
    package let name = "photo upload (catalog)"
    package let surfaces: Set<MockDefect.Surface> = [.photo]

    /// The group.
    package init() {}

    /// One contract per captured case: the catalogs, not the planted defects, say what each expects.
    package let plantedDefectsCoverEveryContract = false

    static func contractName(_ item: PhotoUploadCase) -> String { "\(item.id): \(item.description)" }

    package func contracts(in session: ContractSession) -> [String] { session.schemas.documents.photoUploadCases.cases.map(Self.contractName) }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        let cases = backend.schemas.documents.photoUploadCases.cases
        let created: GroupBackend.Created
        switch try await backend.createBase() {
        case .success(let base): created = base
        case .failure(let setup):
            backend.recordSetupFailure(cases.map(Self.contractName), setup, what: "creating an announcement")
            return
        }
        let redactor = backend.target.redactor.adding(created.password)
        let target = backend.target
        try await backend.forEach(cases) { item throws(GroupStop) in
            let contract = Self.contractName(item)
            let announcement: AnnouncementPath
            switch item.announcement {
            case .created: announcement = created.path
            case .unknown: announcement = AnnouncementPath(uuid: UUID())
            case .malformed: announcement = AnnouncementPath(constant: PhotoUploadCase.Target.malformedID)
            }
            let request = item.request(to: announcement, credentials: PhotoCredentials(id: announcement.id, password: created.password))
            if item.authorization.isDecoy { backend.target.transport.secrets.markDecoys(in: request) }
            let answer = try await backend.send(request)
            let expected = item.expected(for: backend.profile)
            var problem: String?
            switch answer {
            case .failure(let error): problem = "no answer: \(error.description)"
            case .success(let response):
                let body = try? JSONValue.parse(response.body)
                problem = expected.mismatch(status: response.status, body: body)
                let knownDefect = KnownDefect(item.knownProductionDefect, sane: item.strictExpected, profile: backend.profile)
                if let knownDefect {
                    problem = knownDefect.judge(caseId: item.id, problem: problem, status: response.status, body: body, backend: target)
                }
                let other = item.expected(for: backend.profile == .production ? .strict : .production)
                if other != expected, knownDefect == nil {
                    let matchesOther = other.mismatch(status: response.status, body: body) == nil
                    target.noteProfileEvidence(caseId: item.id, matchedExpected: problem == nil, otherProfileAnswer: matchesOther ? other.description : nil)
                }
            }
            backend.record(contract, problem, request: request, expected: expected.description, response: answer, caseId: item.id, redactor: redactor)
        }
    }
}
