#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpotConcurrency
import PetSpotHTTP
import PetSpotMockTransport
import PetSpotModel

/// What reached the app of one connection.
package enum Delivery: Sendable, Hashable {
    /// The whole answer was written to the app.
    case answered(status: Int)
    /// The connection was closed (or reset) without an answer.
    case noAnswer
    /// The app closed the connection before an answer was written: it gave up (its time-out).
    case gaveUp(afterSeconds: Double)
}
