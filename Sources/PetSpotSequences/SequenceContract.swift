import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel

/// The contracts of the stateful group, as the report names them.
package enum SequenceContract: String, CaseIterable, Sendable {
    case microchip = "a microchip number is taken while an announcement holds it (409) and free again after its delete (201)"
    case freshIds = "every create answers an id no earlier create of the sequence answered (ids are not reused after a delete)"
    case visible = "every write is visible at once: details, the list and /images answer the latest create and upload"
    case password = "the management password never changes: every upload with it is accepted until the delete"
    case deleted = "a deleted announcement is gone: details, upload, its photo and a second delete answer 404, lists leave it out"
    case scale = "many announcements near one point are all listed (no silent limit)"
    case concurrent = "requests sent at once by several clients answer as some order of them one after another"
}
