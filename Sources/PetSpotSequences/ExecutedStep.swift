import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel

/// One operation as it was sent and answered.
struct ExecutedStep: Sendable {
    /// The client that sent it among parallel branches (0, 1, ...); `nil` in the prefix.
    let lane: Int?
    /// The operation.
    let operation: SequenceOperation
    /// Its requests and answers in order (a fill: create, upload, create, upload, ...).
    let exchanges: [BackendTarget.Exchange]
    /// Why nothing was sent: a branch's operation on an announcement whose create was refused.
    let notSent: String?
    /// The bytes of each image uploaded, in order.
    let images: [Data]
}
