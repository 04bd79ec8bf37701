import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// Great-circle geometry on the sphere production uses (R = 6371 km).
package enum GreatCircle {
    /// The Earth's radius production uses, in km.
    package static let earthRadiusKilometres = 6371.0

    /// The haversine distance in km.
    package static func distance(_ lat1: Double, _ lng1: Double, _ lat2: Double, _ lng2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians, dLng = (lng2 - lng1) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLng / 2) * sin(dLng / 2)
        return earthRadiusKilometres * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// The argument of production's distance `6371 * acos(cos(radians(lat)) * cos(radians(latitude))
    /// * cos(radians(longitude) - radians(lng)) + sin(radians(lat)) * sin(radians(latitude)))`,
    /// evaluated in that order with SQLite's `radians(x) = x * (π / 180)`, from the query point
    /// (`lat`, `lng`). Above 1, SQLite's `acos` is NULL (lat 82, lng 132.519926 to itself:
    /// 1.0000000000000002).
    package static func productionAcosArgument(_ lat: Double, _ lng: Double, _ latitude: Double, _ longitude: Double) -> Double {
        func radians(_ degrees: Double) -> Double { degrees * (Double.pi / 180) }
        return cos(radians(lat)) * cos(radians(latitude)) * cos(radians(longitude) - radians(lng)) + sin(radians(lat)) * sin(radians(latitude))
    }

    /// The point `kilometres` from (`lat`, `lng`) along `bearing` degrees, rounded to 6 decimals.
    package static func destination(_ lat: Double, _ lng: Double, kilometres: Double, bearing: Double) -> (lat: Double, lng: Double) {
        let radians = Double.pi / 180
        let delta = kilometres / earthRadiusKilometres, theta = bearing * radians
        let phi1 = lat * radians, lambda1 = lng * radians
        let phi2 = asin(sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta))
        let lambda2 = lambda1 + atan2(sin(theta) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sin(phi2))
        func rounded(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
        return (rounded(phi2 / radians), rounded(lambda2 / radians))
    }
}
