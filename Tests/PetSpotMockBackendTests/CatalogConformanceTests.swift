import Foundation
import PetSpotContractKit
import PetSpotHTTP
import PetSpotJSON
import Testing
@testable import PetSpotMockBackend

/// The mock against the captured contract: every negative case of Contracts/ answered as the
/// catalog says, in both profiles (the catalog's production answer, or its strict answer where
/// the strict mock differs).
@Suite("Mock backend against the contract catalog")
struct CatalogConformanceTests {
    static let catalog = try! ContractDocuments.load().negativeCases
    static let now = Date(timeIntervalSince1970: 1_795_262_400)  // 2026-11-21T12:00:00Z

    @Test("every create case is answered as catalogued", arguments: BackendProfile.allCases)
    func createCases(profile: BackendProfile) throws {
        var mismatches: [String] = []
        for (index, negativeCase) in Self.catalog.cases.enumerated() {
            let backend = MockBackend(profile: profile, clock: { Self.now })
            let base = Self.catalog.basePayload(microchipNumber: String(900_000_000_000_000 + index))
            if negativeCase.setup == .createBaseFirst {
                let created = backend.answer(Self.createRequest(bytes: JSONValue.object(base).serializedBytes(), contentType: "application/json"))
                guard created.status == 201 else {
                    mismatches.append("\(negativeCase.id): setup create answered \(created.status)")
                    continue
                }
            }
            let body = try negativeCase.body(from: base)
            let response = backend.answer(Self.createRequest(bytes: body.bytes, contentType: body.contentType))
            let json = try? JSONValue.parse(response.body)
            if let mismatch = negativeCase.expected(for: profile).mismatch(status: response.status, body: json) {
                mismatches.append("\(negativeCase.id): \(mismatch)")
            }
            if response.status >= 400 {
                #expect(json?["error"]?["requestId"]?.stringValue?.isEmpty == false, "\(negativeCase.id): no requestId")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(Self.catalog.cases.count) cases differ:\n\(mismatches.joined(separator: "\n"))")
    }

    static func createRequest(bytes: [UInt8], contentType: String?) -> HTTPRequest {
        var headers: HTTPHeaders = ["Host": "127.0.0.1"]
        if let contentType { headers.set("Content-Type", contentType) }
        headers.set("Content-Length", String(bytes.count))
        return HTTPRequest(method: "POST", target: "/api/v1/announcements", headers: headers, body: bytes)
    }
}
