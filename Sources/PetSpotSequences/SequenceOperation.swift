import PetSpotJSON
import PetSpotPropertyEngine

/// One operation of a sequence. Announcements are named by slots (`#1`, `#2`, ... in the order
/// the program first names them); a slot is created once, so "create after a delete" is a create
/// of a new slot, possibly with the deleted one's microchip number.
enum SequenceOperation: Hashable, Sendable {
    /// `POST /api/v1/announcements` for `slot`, with or without a microchip number.
    case create(slot: Int, chip: ChipUse)
    /// `POST /api/v1/announcements/{id}/photos` with a new image of `kind`.
    case upload(slot: Int, PhotoKind)
    /// `GET /api/v1/announcements/{id}`.
    case details(slot: Int)
    /// `GET /images/{id}.{ext}` for the extension of `kind`.
    case photo(slot: Int, PhotoKind)
    /// `GET /api/v1/announcements`, around the program's centre (`near`) or unfiltered.
    case list(near: Bool)
    /// `DELETE /api/admin/v1/announcements/{id}` with the admin token.
    case delete(slot: Int)
    /// Creates `count` announcements with a photo at one point near the centre (a create and an
    /// upload each): enough of them show a silent limit.
    case fill(count: Int)

    /// The slot the operation names, if any.
    var slot: Int? {
        switch self {
        case .create(let slot, _), .upload(let slot, _), .details(let slot), .photo(let slot, _), .delete(let slot): slot
        case .list, .fill: nil
        }
    }

    /// Requests it sends at most (a fill: a create and an upload per announcement).
    var requestCount: Int {
        if case .fill(let count) = self { return 2 * count }
        return 1
    }

    /// Announcements it may create (each deleted when the program ends).
    var createCount: Int {
        switch self {
        case .create: 1
        case .fill(let count): count
        default: 0
        }
    }
}
