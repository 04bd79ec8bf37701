import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// Production's known list defect (backend-contract.md): an announcement at exactly the query
/// point can be missing, because SQLite's `acos` of an argument rounded just above 1 is NULL.
package enum ExactPointListDefect {
    /// The case id the report names.
    package static let caseId = "list at an announcement's exact point"
    /// What the defect is.
    package static let defect = "an announcement at exactly the query point is missing from the list (production's acos argument rounds above 1, SQLite's acos is NULL)"
    /// The sane answer.
    package static let saneAnswer = "answer (the announcement listed)"

    /// Whether production's formula puts the argument for the point itself above 1, so production
    /// leaves an announcement there out of a list queried at that very point.
    package static func isPredicted(latitude: Double, longitude: Double) -> Bool {
        GreatCircle.productionAcosArgument(latitude, longitude, latitude, longitude) > 1
    }

    /// A sighting: the defect `stillPresent` (the announcement was missing) or gone (it was listed
    /// where production's formula leaves it out).
    package static func sighting(stillPresent: Bool) -> KnownDefectSighting {
        KnownDefectSighting(caseId: caseId, defect: defect, stillPresent: stillPresent, saneAnswer: saneAnswer, isCatalogCase: false)
    }
}
