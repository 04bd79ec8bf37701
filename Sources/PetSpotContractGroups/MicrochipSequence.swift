import Foundation
import PetSpotConcurrency
import PetSpotContractKit
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// Microchip numbers unique to one run: a random 9-digit prefix, then a 6-digit counter
/// (15 digits, as the app allows). Leftovers of one run can never collide with another's, and
/// the seeded production record `123456789012345` is never produced.
package final class MicrochipSequence: Sendable {
    /// The run's prefix.
    package let prefix: String
    private let counter = Locked(0)

    /// A sequence with a random prefix.
    package init() {
        var prefix = String(UInt64.random(in: 100_000_000...999_999_999))
        if prefix == "123456789" { prefix = "987654321" }
        self.prefix = prefix
    }

    /// The next number.
    package func next() -> String {
        let value = counter.withLock { counter -> Int in
            counter += 1
            return counter % 1_000_000
        }
        let digits = String(value)
        return prefix + String(repeating: "0", count: 6 - digits.count) + digits
    }
}
