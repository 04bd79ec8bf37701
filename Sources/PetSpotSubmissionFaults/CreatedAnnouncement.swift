import Foundation
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// An announcement a create of the scenario made, and what the backend holds of it at the end.
package struct CreatedAnnouncement: Sendable {
    /// Its id.
    package var id: String
    /// Its management password (a secret: never printed).
    package var password: String
    /// The request that created it (its index in the scenario).
    package var request: Int
    /// Whether the create's answer reached the app.
    package var deliveredToApp: Bool
    /// Whether details still answer it at the end.
    package var existsAtEnd = false
    /// Its photo URL at the end, if it has a photo.
    package var photoURL: String?
    /// Whether GET on the photo URL served the photo the user attached.
    package var servesThePhoto = false
}
