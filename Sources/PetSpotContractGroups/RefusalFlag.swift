import Foundation
import PetSpotConcurrency
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel
import PetSpotReport

/// A flag one task sets and others read, with the first error set, if any.
final class RefusalFlag: Sendable {
    private let state = Locked<(set: Bool, error: GroupStop?)>((false, nil))

    /// Whether it was set.
    var isSet: Bool { state.withLock { $0.set } }
    /// The first error it was set with.
    var error: GroupStop? { state.withLock { $0.error } }

    /// Sets it, keeping the first `error`.
    func set(_ error: GroupStop? = nil) {
        state.withLock { state in
            state.set = true
            if state.error == nil { state.error = error }
        }
    }
}
