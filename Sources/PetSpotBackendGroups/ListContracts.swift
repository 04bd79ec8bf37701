import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

/// `GET /api/v1/announcements`: only announcements with a photo; the `lat`/`lng`/`range` filter
/// checked by a great-circle oracle; the parameter catalogue with production's messages.
///
/// The oracle creates announcements at known distances (0.5 to 12 km) from a remote point in
/// the South Pacific, where no one else reports pets, and compares only the run's own ids, so
/// announcements of others on a shared staging backend (even another run at the same point)
/// cannot make it fail. Distances stay at least 0.4 km away from every range queried.
package struct ListContracts: BackendContractGroup {
    package let name = "list"
    package let surfaces: Set<MockDefect.Surface> = [.list]

    /// The group.
    package init() {}

    // Contract names, as the report shows them.
    package static let onlyWithPhoto = "the list answers only announcements with a photo"
    package static let defaultRange = "lat/lng without range filter at 5 km (great-circle, R = 6371 km)"
    package static let ranges = "lat/lng/range answer exactly the run's announcements closer than range km"
    package static let parseFloat = "query numbers are read like parseFloat (lat=-48.8767abc is -48.8767)"
    package static let emptyAbsent = "an empty lat= counts as absent (200, unfiltered)"

    /// The centre: near Point Nemo, the ocean's pole of inaccessibility.
    static let centre = (lat: -48.8767, lng: -123.3933)
    /// Distances in km (and bearings in degrees) of the announcements with a photo.
    static let placed: [(kilometres: Double, bearing: Double)] = [(0.5, 0), (4.4, 72), (5.4, 144), (7.0, 216), (12.0, 288)]
    /// The announcement without a photo: inside every range queried.
    static let photoless = (kilometres: 0.3, bearing: 30.0)
    /// The ranges queried explicitly (km).
    static let queriedRanges = [1, 6, 10]

    /// One bad query and the answer it must get.
    package struct ParameterCase {
        /// The contract the case is reported under.
        package let contract: String
        /// The query's parameters, in order (values percent-encoded when sent).
        let query: [(String, String)]
        /// The answer it must get.
        let expected: ErrorExpectation
    }

    /// The bad queries: each parameter missing its partner, out of range, not a number, and every bad range.
    package static var parameterCases: [ParameterCase] {
        let lat = "\(centre.lat)", lng = "\(centre.lng)"
        func bad(_ contract: String, _ query: [(String, String)], _ message: String) -> ParameterCase {
            ParameterCase(contract: contract, query: query, expected: ErrorExpectation(400, "INVALID_PARAMETER", message: message))
        }
        return [
            bad("lat without lng answers 400 INVALID_PARAMETER", [("lat", lat), ("range", "1")], "Parameter 'lng' is required when 'lat' is provided"),
            bad("lng without lat answers 400 INVALID_PARAMETER", [("lng", lng), ("range", "1")], "Parameter 'lat' is required when 'lng' is provided"),
            bad("lat=91 answers 400 INVALID_PARAMETER", [("lat", "91"), ("lng", lng), ("range", "1")], "Parameter 'lat' must be between -90 and 90"),
            bad("lat=-90.5 answers 400 INVALID_PARAMETER", [("lat", "-90.5"), ("lng", lng), ("range", "1")], "Parameter 'lat' must be between -90 and 90"),
            bad("lng=180.5 answers 400 INVALID_PARAMETER", [("lat", lat), ("lng", "180.5"), ("range", "1")], "Parameter 'lng' must be between -180 and 180"),
            bad("lat that is not a number answers 400 INVALID_PARAMETER", [("lat", "north"), ("lng", lng), ("range", "1")], "Parameter 'lat' must be a valid number"),
            bad("lng that is not a number answers 400 INVALID_PARAMETER", [("lat", lat), ("lng", "west"), ("range", "1")], "Parameter 'lng' must be a valid number"),
            bad("range that is not a number answers 400 INVALID_PARAMETER", [("lat", lat), ("lng", lng), ("range", "far")], "Parameter 'range' must be a valid number"),
            bad("range=0 answers 400 INVALID_PARAMETER", [("lat", lat), ("lng", lng), ("range", "0")], "Parameter 'range' must be greater than zero"),
            bad("a negative range answers 400 INVALID_PARAMETER", [("lat", lat), ("lng", lng), ("range", "-5")], "Parameter 'range' must be a positive number"),
            bad("range=1.5 answers 400 INVALID_PARAMETER", [("lat", lat), ("lng", lng), ("range", "1.5")], "Parameter 'range' must be an integer"),
        ]
    }

    /// One announcement of the oracle.
    struct Placed {
        /// Its id.
        let id: String
        /// Its latitude as sent.
        let latitude: Double
        /// Its longitude as sent.
        let longitude: Double
        /// Whether a photo was uploaded.
        let hasPhoto: Bool
        /// Its great-circle distance from the centre, in km.
        var distance: Double { GreatCircle.distance(ListContracts.centre.lat, ListContracts.centre.lng, latitude, longitude) }
    }

    /// The contracts the oracle checks.
    static let oracleContracts = [onlyWithPhoto, defaultRange, ranges, parseFloat, emptyAbsent]

    package func contracts(in session: ContractSession) -> [String] { Self.oracleContracts + Self.parameterCases.map(\.contract) }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        let oracleContracts = Self.oracleContracts
        try await backend.forEach(Self.parameterCases) { item throws(GroupStop) in
            let exchange = try await backend.exchange(BackendTarget.getRequest(RequestPath.list(item.query)))
            backend.record(item.contract, backend.problem(exchange.response, item.expected), exchange, expected: item.expected.description)
        }

        // Setup: announcements at known distances, all but one with a photo.
        var placed: [Placed] = []
        for (index, spot) in (Self.placed + [Self.photoless]).enumerated() {
            let hasPhoto = index < Self.placed.count
            let point = GreatCircle.destination(Self.centre.lat, Self.centre.lng, kilometres: spot.kilometres, bearing: spot.bearing)
            var body = backend.basePayload()
            body["locationLatitude"] = .number(JSONNumber(point.lat))
            body["locationLongitude"] = .number(JSONNumber(point.lng))
            switch try await backend.create(body) {
            case .failure(let setup):
                backend.recordSetupFailure(oracleContracts, setup, what: "creating an announcement \(spot.kilometres) km from the centre")
                return
            case .success(let created):
                if hasPhoto {
                    let upload = try await backend.exchange(photoUploadRequest(
                        created.path, password: created.password, fileName: "pet.png", contentType: "image/png",
                        bytes: SampleImage.png(tag: "petspot-contracts list \(index)")))
                    guard case .success(let response) = upload.response, response.status == 201 else {
                        for contract in oracleContracts {
                            backend.record(contract, "setup: the photo upload did not answer 201", upload, expected: "201 {}", password: created.password)
                        }
                        return
                    }
                }
                placed.append(Placed(id: created.id, latitude: point.lat, longitude: point.lng, hasPhoto: hasPhoto))
            }
        }
        let lat = "\(Self.centre.lat)", lng = "\(Self.centre.lng)"
        let target = backend.target
        let isOwn = { (id: String) in target.didCreate(id) }

        // Unfiltered: every announcement of the run with a photo, none without.
        let all = try await backend.exchange(BackendTarget.getRequest(RequestPath.list([])))
        backend.record(
            Self.onlyWithPhoto, Self.listProblem(all.response, placed: placed, range: nil, schemas: backend.schemas, isOwn: isOwn), all,
            expected: "200, the run's announcements with a photo and not the one without")
        let empty = try await backend.exchange(BackendTarget.getRequest(RequestPath.list(["lat": ""])))
        backend.record(
            Self.emptyAbsent, Self.listProblem(empty.response, placed: placed, range: nil, schemas: backend.schemas, isOwn: isOwn), empty,
            expected: "200, unfiltered: the run's announcements with a photo")

        // Filtered.
        let byDefault = try await backend.exchange(BackendTarget.getRequest(RequestPath.list(["lat": lat, "lng": lng])))
        backend.record(
            Self.defaultRange, Self.listProblem(byDefault.response, placed: placed, range: 5, schemas: backend.schemas, isOwn: isOwn), byDefault,
            expected: Self.expectedText(placed, range: 5))
        for range in Self.queriedRanges {
            let answer = try await backend.exchange(BackendTarget.getRequest(RequestPath.list(["lat": lat, "lng": lng, "range": "\(range)"])))
            backend.record(
                Self.ranges, Self.listProblem(answer.response, placed: placed, range: Double(range), schemas: backend.schemas, isOwn: isOwn), answer,
                expected: Self.expectedText(placed, range: Double(range)))
        }
        let sloppy = try await backend.exchange(BackendTarget.getRequest(RequestPath.list(["lat": lat + "abc", "lng": lng, "range": "1"])))
        backend.record(
            Self.parseFloat, Self.listProblem(sloppy.response, placed: placed, range: 1, schemas: backend.schemas, isOwn: isOwn), sloppy,
            expected: Self.expectedText(placed, range: 1))
    }

    /// `200 with ids [...] of the run's`.
    static func expectedText(_ placed: [Placed], range: Double) -> String {
        let inside = placed.filter { $0.hasPhoto && $0.distance < range }
        return "200 listing, of the run's announcements, exactly those with a photo closer than \(Int(range)) km: "
            + inside.map { "\($0.id) (\(formatted($0.distance)) km)" }.joined(separator: ", ")
    }

    /// Kilometres with two decimals.
    static func formatted(_ kilometres: Double) -> String { String(format: "%.2f", kilometres) }

    /// What is wrong with a list answer, comparing only the run's ids: with `range`, exactly
    /// the announcements with a photo closer than it; without, every one with a photo.
    /// Rows the run did not create (production's sample rows, others' data) are checked only
    /// for what the apps decode (``ListAnswer``).
    static func listProblem(
        _ answer: Result<TransportResponse, TransportError>, placed: [Placed], range: Double?, schemas: ContractSchemas,
        isOwn: (String) -> Bool
    ) -> String? {
        let body: JSONObject
        switch successObject(answer, status: 200) {
        case .failure(let problem): return problem.description
        case .success(let object): body = object
        }
        if let problem = ListAnswer.problem(body, schemas: schemas, isOwn: isOwn) { return problem }
        let listed = Set(body["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
        var problems: [String] = []
        for item in placed {
            let wanted = item.hasPhoto && (range.map { item.distance < $0 } ?? true)
            let isListed = listed.contains(item.id)
            guard wanted != isListed else { continue }
            let place = "\(formatted(item.distance)) km away" + (item.hasPhoto ? "" : ", without a photo")
            problems.append(isListed ? "lists \(item.id) (\(place))" : "does not list \(item.id) (\(place))")
        }
        guard !problems.isEmpty else { return nil }
        return (range.map { "with range \(Int($0)) km the list " } ?? "the unfiltered list ") + problems.joined(separator: "; ")
    }
}
