import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel

/// Example answers for the OpenAPI document, taken from the catalogs: every catalog case is
/// sent to an in-process mock in the production profile, and each answer that is what the case
/// expects becomes an example of its status (equal answers are one example naming every case).
///
/// The cases the catalogs do not cover (list parameters, details, admin delete, images) are
/// asked the same way with requests made from backend-contract.md's message table. Answers
/// are made reproducible: every `requestId` is `req-example`, and the unknown announcement id
/// is fixed.
package struct OpenAPIExamples: Sendable {
    /// An example: a one-line summary, where it came from, and the answer's body.
    package struct Example: Sendable, Hashable {
        /// The example's name in its `examples` map (the first case id).
        package var name: String
        /// One line: what was sent.
        package var summary: String
        /// Where it came from: the catalog and case ids.
        package var description: String
        /// The answer's body.
        package var value: JSONValue
    }

    /// Examples by the handler of the route (``BackendRoute/handler``) and status: both delete
    /// routes share theirs.
    package private(set) var answers: [RouteHandler: [Int: [Example]]] = [:]

    /// The announcement id used for "no announcement with that id".
    package static let unknownId = "00000000-0000-4000-8000-000000000000"
    /// The value every example's `requestId` is set to.
    package static let requestId = "req-example"

    /// Collects the examples of `documents`' catalogs from a fresh production-profile mock.
    package init(documents: ContractDocuments) {
        let backend = MockBackend(profile: .production)
        collectCreate(documents.negativeCases, backend: backend)
        collectPhotos(documents, backend: backend)
        collectDocumented(documents.negativeCases, backend: backend)
    }

    /// The examples of the routes of `handler` answered with `status`, in the order first seen.
    package func examples(_ handler: RouteHandler, _ status: Int) -> [Example] {
        answers[handler]?[status] ?? []
    }

    /// The statuses the routes of `handler` have examples of, ascending.
    package func statuses(_ handler: RouteHandler) -> [Int] {
        (answers[handler] ?? [:]).keys.sorted()
    }

    // MARK: Collecting

    private mutating func collectCreate(_ catalog: CaseCatalog, backend: MockBackend) {
        for (index, item) in catalog.cases.enumerated() where item.expected.isError {
            let microchip = "9000000\(String(format: "%08d", index))"
            let base = catalog.basePayload(microchipNumber: microchip)
            if item.setup == .createBaseFirst { _ = Self.send(Self.createRequest(Data(JSONValue.object(base).serializedBytes())), to: backend) }
            guard let body = try? item.body(from: base) else { continue }
            var headers: [(name: String, value: String)] = [("Accept", "application/json")]
            if let contentType = body.contentType { headers.insert(("Content-Type", contentType), at: 0) }
            let request = TransportRequest(method: "POST", path: "/api/v1/announcements", headers: headers, body: Data(body.bytes))
            let defect = item.knownProductionDefect.map { " Known production defect: \($0)." } ?? ""
            record(
                .create, request, expected: item.expected, backend: backend, name: item.id, summary: item.description,
                source: "create-negative-cases.json, case `\(item.id)`.\(defect)")
        }
    }

    private mutating func collectPhotos(_ documents: ContractDocuments, backend: MockBackend) {
        let base = documents.negativeCases.basePayload(microchipNumber: "900000099999999")
        let answer = Self.send(Self.createRequest(Data(JSONValue.object(base).serializedBytes())), to: backend)
        guard answer.status == 201, let id = answer.body?["id"]?.stringValue, let password = answer.body?["managementPassword"]?.stringValue,
            let created = try? AnnouncementPath(id)
        else { return }
        for item in documents.photoUploadCases.cases where item.expected.isError {
            let target: AnnouncementPath
            switch item.announcement {
            case .created: target = created
            case .unknown: target = AnnouncementPath(constant: Self.unknownId)
            case .malformed: target = AnnouncementPath(constant: PhotoUploadCase.Target.malformedID)
            }
            let request = item.request(to: target, credentials: PhotoCredentials(id: target.id, password: password))
            let defect = item.knownProductionDefect.map { " Known production defect: \($0)." } ?? ""
            record(
                .uploadPhoto, request, expected: item.expected, backend: backend, name: item.id, summary: item.description,
                source: "photo-upload-cases.json, case `\(item.id)`.\(defect)")
        }
    }

    /// The answers backend-contract.md states outside the catalogs, asked of the mock.
    private mutating func collectDocumented(_ catalog: CaseCatalog, backend: MockBackend) {
        let source = "backend-contract.md, asked of the production-profile mock."
        let list: [(String, String, String, String?)] = [
            ("lat-without-lng", "lat without lng", "lat=50.06", "lng"),
            ("lng-without-lat", "lng without lat", "lng=19.94", "lat"),
            ("lat-not-a-number", "lat is not a number", "lat=abc&lng=19.94", "lat"),
            ("lat-out-of-range", "lat beyond 90", "lat=90.5&lng=19.94", "lat"),
            ("lng-out-of-range", "lng beyond 180", "lat=50.06&lng=180.5", "lng"),
            ("range-not-integer", "range is not an integer", "lat=50.06&lng=19.94&range=1.5", "range"),
            ("range-zero", "range is 0", "lat=50.06&lng=19.94&range=0", "range"),
            ("range-negative", "range is negative", "lat=50.06&lng=19.94&range=-3", "range"),
        ]
        for (name, summary, query, field) in list {
            record(
                .list, TransportRequest(method: "GET", path: "/api/v1/announcements?\(query)", headers: [("Accept", "application/json")]),
                expected: ExpectedResponse(status: 400, code: "INVALID_PARAMETER", field: field), backend: backend, name: name,
                summary: "GET /api/v1/announcements?\(query): \(summary)", source: source)
        }
        record(
            .details, TransportRequest(method: "GET", path: "/api/v1/announcements/\(Self.unknownId)"),
            expected: ExpectedResponse(status: 404, code: "NOT_FOUND"), backend: backend, name: "unknown-id",
            summary: "no announcement with that id", source: source)
        record(
            .details, TransportRequest(method: "GET", path: "/api/v1/announcements/%E0%A4%A"),
            expected: ExpectedResponse(status: 500, code: "INTERNAL_SERVER_ERROR"), backend: backend, name: "bad-percent-encoding",
            summary: "an id that is not valid percent-encoding (%E0%A4%A)", source: source)
        let deletes: [(String, String, String?, ExpectedResponse)] = [
            ("no-authorization", "no Authorization header", nil, ExpectedResponse(status: 401, code: "UNAUTHENTICATED")),
            ("wrong-token", "a wrong admin token", "not-the-admin-token", ExpectedResponse(status: 401, code: "UNAUTHENTICATED")),
            ("unknown-id", "no announcement with that id", backend.adminToken, ExpectedResponse(status: 404, code: "NOT_FOUND")),
        ]
        for (name, summary, token, expected) in deletes {
            record(
                .delete, BackendTarget.adminDeleteRequest(AnnouncementPath(constant: Self.unknownId), authorization: token), expected: expected,
                backend: backend, name: name, summary: summary, source: source)
        }
        record(
            .image, TransportRequest(method: "GET", path: "/images/\(Self.unknownId).png"),
            expected: ExpectedResponse(status: 404, code: "NOT_FOUND"), backend: backend, name: "no-such-image",
            summary: "no stored photo by that name", source: source)
    }

    /// Sends `request`; keeps its answer as an example when it is what `expected` says.
    private mutating func record(
        _ handler: RouteHandler, _ request: TransportRequest, expected: ExpectedResponse, backend: MockBackend, name: String,
        summary: String, source: String
    ) {
        let answer = Self.send(request, to: backend)
        guard var body = answer.body, expected.mismatch(status: answer.status, body: body) == nil else { return }
        if var error = body["error"]?.objectValue, error["requestId"] != nil {
            error["requestId"] = .string(Self.requestId)
            body = ["error": .object(error)]
        }
        var byStatus = answers[handler] ?? [:]
        var list = byStatus[answer.status] ?? []
        if let index = list.firstIndex(where: { $0.value == body }) {
            list[index].description += " Also `\(name)`: \(summary)."
        } else {
            list.append(Example(name: name, summary: summary, description: "From \(source)", value: body))
        }
        byStatus[answer.status] = list
        answers[handler] = byStatus
    }

    private static func createRequest(_ body: Data) -> TransportRequest {
        TransportRequest(method: "POST", path: "/api/v1/announcements", headers: [("Content-Type", "application/json")], body: body)
    }

    private static func send(_ request: TransportRequest, to backend: MockBackend) -> (status: Int, body: JSONValue?) {
        let response = backend.answer(InProcessTransport.httpRequest(request))
        return (response.status, try? JSONValue.parse(response.body))
    }
}
