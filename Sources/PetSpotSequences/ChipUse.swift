import PetSpotJSON
import PetSpotPropertyEngine

/// The microchip number a create sends: none, or the program's `n`-th number (shown `A`, `B`, ...).
enum ChipUse: Hashable, Sendable {
    case none
    case chip(Int)

    /// The chip's index, if any.
    var index: Int? {
        if case .chip(let index) = self { return index }
        return nil
    }
}
