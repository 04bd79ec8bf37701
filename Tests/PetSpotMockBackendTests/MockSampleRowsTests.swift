import Foundation
import PetSpotContractKit
import PetSpotHTTP
import PetSpotJSON
import Testing
@testable import PetSpotMockBackend

/// Production's sample rows and its list rounding defect, as the production profile reproduces
/// them (backend-contract.md): what a run against production meets and must not report.
@Suite("production's sample rows and list rounding")
struct MockSampleRowsTests {
    static func rows(_ backend: MockBackend, _ query: String = "") -> [JSONValue] {
        json(backend.answer(request("GET", "/api/v1/announcements\(query)")))["data"]?.arrayValue ?? []
    }

    @Test("with sample rows, the store starts with production's 8 announcements as backend-contract.md describes them")
    func sampleRows() throws {
        let backend = MockBackend(profile: .production, clock: { fixedNow }, sampleRows: true)
        let listed = Self.rows(backend)
        #expect(listed.compactMap { $0["id"]?.stringValue } == (1...8).map { digit in
            [8, 4, 4, 4, 12].map { String(repeating: String(digit), count: $0) }.joined(separator: "-")
        })
        for row in listed {
            let id = try #require(row["id"]?.stringValue)
            // createdAt an ISO instant with milliseconds, updatedAt SQLite's form without T or zone.
            #expect(row["createdAt"]?.stringValue?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil)
            #expect(row["updatedAt"]?.stringValue?.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$"#, options: .regularExpression) != nil)
            let url = try #require(row["photoUrl"]?.stringValue)
            #expect(url.hasPrefix("/images/seed-\(id)."))
            let image = backend.answer(request("GET", url))
            #expect(image.status == 200 && image.headers["Content-Type"]?.hasPrefix("image/") == true, "\(url)")
        }
        #expect(listed.filter { $0["microchipNumber"]?.stringValue == SampleRows.takenMicrochip }.count == 1)
        let duplicate = backend.answer(createRequest(createBody([("microchipNumber", .string(SampleRows.takenMicrochip))])))
        expectError(duplicate, 409, "CONFLICT", field: "microchipNumber")
        #expect(MockBackend(profile: .production, clock: { fixedNow }).storedAnnouncementCount == 0, "none by default")
    }

    @Test("the production profile leaves out an announcement at exactly the query point when acos rounds above 1; strict lists it")
    func roundingDefect() {
        for profile in BackendProfile.allCases {
            let backend = MockBackend(profile: profile, clock: { fixedNow })
            // 6371 * acos(...) of the point to itself: the argument is 1.0000000000000002 here.
            let rounded = createAnnouncement(backend, [("locationLatitude", 82), ("locationLongitude", 132.519926)])
            // The argument is exactly 1 here: production lists it.
            let exact = createAnnouncement(backend, [("locationLatitude", -48.8767), ("locationLongitude", -123.3933)])
            for owner in [rounded, exact] {
                _ = upload(backend, id: owner.id, password: owner.password, parts: [TestPart(name: "photo", filename: "a.png", content: tinyPNG)])
            }
            let atRounded = Self.rows(backend, "?lat=82&lng=132.519926&range=1").count
            let besideRounded = Self.rows(backend, "?lat=82.0001&lng=132.519926&range=1").count
            let atExact = Self.rows(backend, "?lat=-48.8767&lng=-123.3933&range=1").count
            #expect(atRounded == (profile == .production ? 0 : 1), "\(profile)")
            #expect(besideRounded == 1, "\(profile): 11 m away it is listed")
            #expect(atExact == 1, "\(profile)")
        }
    }
}
