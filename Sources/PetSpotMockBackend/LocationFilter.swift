import Foundation

/// The list route's `lat`/`lng`/`range` filter: great-circle distance strictly below `range` km.
///
/// The query is read as production's Express handler reads it: a parameter given with an empty
/// value (`lat=`) counts as absent; numbers are read with JavaScript's `parseFloat`
/// (`lat=50.06abc` is 50.06, `abc` is NaN); a parameter given twice is read as its values
/// joined with commas (`lat=1&lat=2` is `"1,2"`, so 1) in production, and refused by the strict
/// profile. The checks, in order: `lat` and `lng` both or neither; `lat` a number within ±90;
/// `lng` a number within ±180; `range` a number, an integer, not zero, not negative (default 5).
struct LocationFilter {
    static let earthRadiusKilometres = 6371.0
    /// The Earth's radius in miles (a planted defect uses it with kilometre ranges).
    static let earthRadiusMiles = 3959.0
    static let defaultRangeKilometres = 5.0

    let latitude: Double
    let longitude: Double
    let rangeKilometres: Double
    let earthRadius: Double
    /// Distances rounded to whole kilometres and compared with `<=` (a planted defect).
    let roundsInclusively: Bool
    /// Whether the distance is production's `acos` expression, NULL (no match) when its
    /// argument rounds outside -1...1.
    let usesProductionAcos: Bool

    /// The filter the query asks for, `nil` when it has no `lat`/`lng`.
    /// - Throws: the ``MockProblem`` of the first bad parameter (400 `INVALID_PARAMETER`).
    init?(query: [(name: String, value: String)], behaviour: MockBehaviour) throws(MockProblem) {
        func parameter(_ name: String) throws(MockProblem) -> String? {
            let values = query.filter { $0.name == name }.map(\.value)
            guard let first = values.first else { return nil }
            if values.count > 1 {
                guard behaviour.isProduction else { throw .parameterRepeated(name) }
                return values.joined(separator: ",")
            }
            if first.isEmpty && !behaviour.has(.listEmptyParameterRejected) { return nil }
            return first
        }
        func number(_ text: String, _ name: String) throws(MockProblem) -> Double {
            let (value, isWholeText) = JavaScript.parseFloatPrefix(text)
            guard !value.isNaN, isWholeText || !behaviour.has(.listStrictNumberParsing) else { throw .parameterNotNumber(name) }
            return value
        }
        let latitudeText = try parameter("lat"), longitudeText = try parameter("lng"), rangeText = try parameter("range")
        switch (latitudeText, longitudeText) {
        case (.some, nil), (nil, .some):
            if behaviour.has(.listPartnerOptional) { return nil }
            throw latitudeText == nil ? .parameterPartnerMissing(missing: "lat", given: "lng")
                : .parameterPartnerMissing(missing: "lng", given: "lat")
        default: break
        }
        var coordinates: (Double, Double)?
        if let latitudeText, let longitudeText {
            let latitude = try number(latitudeText, "lat")
            guard (-90...90).contains(latitude) || behaviour.has(.listLatitudeUnchecked) else {
                throw .parameterOutOfRange("lat", bound: 90)
            }
            let longitude = try number(longitudeText, "lng")
            guard (-180...180).contains(longitude) else { throw .parameterOutOfRange("lng", bound: 180) }
            coordinates = (latitude, longitude)
        }
        var range = behaviour.has(.listDefaultRange10km) ? 10 : LocationFilter.defaultRangeKilometres
        if let rangeText {
            range = try number(rangeText, "range")
            guard range.isFinite && range == range.rounded() || behaviour.has(.listRangeFractionAccepted) else {
                throw .rangeNotInteger
            }
            guard range != 0 || behaviour.has(.listRangeZeroAccepted) else { throw .rangeZero }
            guard range >= 0 || behaviour.has(.listRangeNegativeAccepted) else { throw .rangeNegative }
        }
        guard let (latitude, longitude) = coordinates else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        self.rangeKilometres = range
        self.earthRadius = behaviour.has(.listEarthRadiusMiles) ? LocationFilter.earthRadiusMiles : LocationFilter.earthRadiusKilometres
        self.roundsInclusively = behaviour.has(.listRangeRoundedInclusive)
        self.usesProductionAcos = behaviour.isProduction
    }

    /// Whether the point lies strictly within `rangeKilometres` (haversine; production's `acos`
    /// expression in the production profile, which misses some points at distance 0).
    func contains(latitude otherLatitude: Double, longitude otherLongitude: Double) -> Bool {
        let distance: Double
        if usesProductionAcos {
            let argument = LocationFilter.productionAcosArgument(latitude, longitude, otherLatitude, otherLongitude)
            // SQLite's acos of an argument outside -1...1 is NULL, and NULL < range is not true.
            guard (-1...1).contains(argument) else { return false }
            distance = earthRadius * acos(argument)
        } else {
            distance = LocationFilter.distance(latitude, longitude, otherLatitude, otherLongitude, radius: earthRadius)
        }
        return roundsInclusively ? distance.rounded() <= rangeKilometres : distance < rangeKilometres
    }

    /// The argument of production's `acos`, evaluated in its order (SQLite's `radians(x)` is
    /// `x * (π / 180)`): from the query point (`lat`, `lng`) to an announcement's point. It can
    /// exceed 1 for equal points (lat 82, lng 132.519926: 1.0000000000000002).
    static func productionAcosArgument(_ lat: Double, _ lng: Double, _ latitude: Double, _ longitude: Double) -> Double {
        func radians(_ degrees: Double) -> Double { degrees * (Double.pi / 180) }
        return cos(radians(lat)) * cos(radians(latitude)) * cos(radians(longitude) - radians(lng)) + sin(radians(lat)) * sin(radians(latitude))
    }

    /// The great-circle distance in kilometres (R = 6371 km).
    static func distanceKilometres(_ lat1: Double, _ lng1: Double, _ lat2: Double, _ lng2: Double) -> Double {
        distance(lat1, lng1, lat2, lng2, radius: earthRadiusKilometres)
    }

    /// The haversine distance on a sphere of `radius`.
    static func distance(_ lat1: Double, _ lng1: Double, _ lat2: Double, _ lng2: Double, radius: Double) -> Double {
        let radians = Double.pi / 180
        let deltaLatitude = (lat2 - lat1) * radians
        let deltaLongitude = (lng2 - lng1) * radians
        let a = sin(deltaLatitude / 2) * sin(deltaLatitude / 2)
            + cos(lat1 * radians) * cos(lat2 * radians) * sin(deltaLongitude / 2) * sin(deltaLongitude / 2)
        let c = 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
        return radius * c
    }
}
