import Foundation
import PetSpotContractKit
import PetSpotHTTP
import PetSpotJSON
import Testing
@testable import PetSpotMockBackend

/// The list's query as production's handler reads it: `parseFloat`, empty values absent,
/// `range` a positive integer in km (default 5), distances strictly below the range.
@Suite("List query")
struct MockListQueryTests {
    /// Creates an announcement with a photo at `latitude` (longitude 21.0122). The "center" ones
    /// lie 11 m south of the query point (52.2296): at the query point itself, production's
    /// rounding defect leaves an announcement out (MockSampleRowsTests).
    static func place(_ backend: MockBackend, latitude: Double) -> String {
        let (id, password) = createAnnouncement(backend, [("locationLatitude", .number(JSONNumber(latitude))), ("locationLongitude", 21.0122)])
        _ = upload(backend, id: id, password: password, parts: [TestPart(name: "photo", filename: "a.png", content: tinyPNG)])
        return id
    }

    static func ids(_ backend: MockBackend, _ query: String) -> [String]? {
        let response = backend.answer(request("GET", "/api/v1/announcements\(query)"))
        guard response.status == 200 else { return nil }
        return json(response)["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
    }

    @Test("the default range is 5 km, strictly", arguments: BackendProfile.allCases)
    func defaultRange(profile: BackendProfile) {
        let backend = makeBackend(profile)
        let center = Self.place(backend, latitude: 52.2296)
        let inside = Self.place(backend, latitude: 52.2297 + 0.0440)   // 4.89 km north
        let outside = Self.place(backend, latitude: 52.2297 + 0.0460)  // 5.11 km north
        #expect(LocationFilter.distanceKilometres(52.2297, 21.0122, 52.2737, 21.0122) < 5)
        #expect(LocationFilter.distanceKilometres(52.2297, 21.0122, 52.2757, 21.0122) > 5)
        #expect(Self.ids(backend, "?lat=52.2297&lng=21.0122") == [center, inside])
        #expect(Self.ids(backend, "?lat=52.2297&lng=21.0122&range=5") == [center, inside])
        #expect(Self.ids(backend, "?lat=52.2297&lng=21.0122&range=6") == [center, inside, outside])
        #expect(Self.ids(backend, "?lat=52.2297&lng=21.0122&range=1e1") == [center, inside, outside], "parseFloat reads 1e1 as 10")
    }

    @Test("numbers are read with parseFloat; empty values count as absent", arguments: BackendProfile.allCases)
    func parseFloatSemantics(profile: BackendProfile) {
        let backend = makeBackend(profile)
        let center = Self.place(backend, latitude: 52.2296)
        let far = Self.place(backend, latitude: 53.5)
        #expect(Self.ids(backend, "?lat=52.2297abc&lng=21.0122xyz") == [center])
        #expect(Self.ids(backend, "?lat=%2052.2297&lng=21.0122&range=5km") == [center])
        #expect(Self.ids(backend, "?lat=52.2297&lng=21.0122&range=2.0") == [center], "2.0 is an integer")
        #expect(Self.ids(backend, "?lat=&lng=&range=") == [center, far])
        #expect(Self.ids(backend, "?lat=52.2297&lng=21.0122&range=") == [center])
        #expect(Self.ids(backend, "?range=200") == [center, far], "range alone filters nothing")
        #expect(Self.ids(backend, "?lat=52.2297&lng=21.0122&range=200&unknown=1") == [center, far])
    }

    @Test("a parameter given twice: production reads the values joined with commas, strict refuses it")
    func repeatedParameters() {
        let production = makeBackend(.production)
        let center = Self.place(production, latitude: 52.2296)
        #expect(Self.ids(production, "?lat=52.2297&lat=10&lng=21.0122") == [center], "\"52.2297,10\" reads as 52.2297")
        #expect(Self.ids(production, "?lat=&lat=&lng=1") == nil, "\",\" is not a number")
        let strict = makeBackend(.strict)
        let response = strict.answer(request("GET", "/api/v1/announcements?lat=1&lat=2&lng=1"))
        expectError(response, 400, "INVALID_PARAMETER", field: "lat")
        #expect(message(response) == "Parameter 'lat' must be given at most once")
    }
}
