import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel

// The model of the store a program's answers are checked against, written from
// backend-contract.md ("What holds across requests" and each route's rules); the oracle that
// judges one answer in a state of it is `SequenceOracle`.

/// The store as the contract says it must be after the steps so far.
struct StoreModel: Sendable {
    /// A photo an upload stored.
    struct Photo: Sendable {
        var kind: PhotoKind
        var bytes: Data
        /// The step that uploaded it.
        var step: Int
    }

    /// An announcement a create made.
    struct Slot: Sendable {
        var id: String
        var chip: Int?
        /// The create's 201 answer.
        var created: JSONObject
        var createdStep: Int
        var deletedStep: Int?
        var photo: Photo?
        /// Uploads accepted so far.
        var uploads = 0
        var isLive: Bool { deletedStep == nil }
    }

    /// The announcements created, by slot.
    var slots: [Int: Slot] = [:]
    /// The live holder of each chip.
    var chipHolders: [Int: Int] = [:]
    /// Each chip's last holder and the step whose delete freed it, for messages.
    var chipFreed: [Int: (slot: Int, step: Int)] = [:]
    /// Announcements of fills (always live, each with its photo), by id.
    var cluster: [String: Photo] = [:]
    /// The step of each fill, for messages.
    var fillSteps: [Int] = []
    /// Every id a create of the program answered, and the announcement that had it.
    var seenIds: [String: String] = [:]
}
