import PetSpotJSON
import PetSpotPropertyEngine

/// How often each kind of operation is drawn (a weight of 0 never draws it).
struct PlanWeights: Sendable {
    var create = 3, upload = 3, details = 2, photo = 2, list = 2, delete = 2, fill = 0
    /// Of creates: no chip, a new chip, a chip used before (held or freed).
    var noChip = 1, newChip = 2, usedChip = 3
    /// Slots a program creates at most.
    var maxSlots = 5

    /// A plain sequence.
    static let sequential = PlanWeights(create: 2, details: 3, list: 3, maxSlots: 3)
    /// The prefix before parallel branches: mostly creates (and a photo) for the clients to share.
    static let parallelPrefix = PlanWeights(create: 8, upload: 2, details: 0, photo: 0, list: 0, delete: 1, noChip: 2, newChip: 3, usedChip: 0)
    /// The first operation of a client's branch: a create racing on a new chip, or an upload.
    static let laneOpening = PlanWeights(create: 5, upload: 6, details: 1, photo: 1, list: 1, delete: 1, noChip: 1, newChip: 4, usedChip: 0, maxSlots: 8)
    /// A branch opening with a create (clients racing on creates, one new microchip number).
    static let laneOpeningCreate = PlanWeights(create: 1, upload: 0, details: 0, photo: 0, list: 0, delete: 0, noChip: 1, newChip: 1, usedChip: 0, maxSlots: 8)
    /// A branch opening with an upload (clients racing on uploads to their announcements).
    static let laneOpeningUpload = PlanWeights(create: 0, upload: 1, details: 0, photo: 0, list: 0, delete: 0, maxSlots: 8)
    /// The rest of a client's branch: mostly reads and writes of what it named first.
    static let lane = PlanWeights(create: 1, upload: 1, details: 3, photo: 4, list: 1, delete: 1, noChip: 1, newChip: 2, usedChip: 0, maxSlots: 8)
    /// After a fill: mostly lists, some writes.
    static let afterFill = PlanWeights(create: 1, upload: 1, details: 0, photo: 0, list: 6, delete: 1)
}
