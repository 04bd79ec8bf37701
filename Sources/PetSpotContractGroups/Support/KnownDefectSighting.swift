import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// A catalog case marked as a known production defect, as the backend answered it.
package struct KnownDefectSighting: Sendable {
    /// The case id.
    package var caseId: String
    /// What the defect is.
    package var defect: String
    /// Whether production's (defective) answer came; `false` when the sane answer came instead.
    package var stillPresent: Bool
    /// The sane answer, for the notice when the defect is gone.
    package var saneAnswer: String
    /// Whether the case is a catalog case marked `knownProductionDefect` (the notice then says to
    /// update the catalog); `false` for a defect a group knows of itself (the list's rounding).
    package var isCatalogCase = true
}
