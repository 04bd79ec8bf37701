import Foundation
import PetSpotConcurrency
import PetSpotJSON

/// An announcement a run created on the target and did not delete.
public struct Leftover: Sendable, Hashable {
    /// The announcement's id.
    public var id: String
    /// Its microchip number (unique to the run).
    public var microchipNumber: String?
    /// Why it is left: no admin token given, or the delete's answer.
    public var reason: String

    /// Creates a leftover.
    public init(id: String, microchipNumber: String?, reason: String) {
        self.id = id
        self.microchipNumber = microchipNumber
        self.reason = reason
    }
}
