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

/// What the network the runner plays does to one request the app sends.
package enum NetworkFault: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// The connection is reset as soon as the request's first byte arrives, before it is read:
    /// what an app sees of a refused connection (a listening port cannot refuse one client and
    /// accept the next).
    case refuse = "connection refused"
    /// The request is read and the connection closed: the backend never sees it.
    case dropRequest = "request dropped before the backend"
    /// The request reaches the backend, which acts on it; its answer is never sent to the app.
    case loseAnswer = "answer lost"
    /// A 500 envelope is answered at once; the backend never sees the request.
    case answer500 = "500 answered without forwarding"
    /// A 503 envelope is answered at once; the backend never sees the request.
    case answer503 = "503 answered without forwarding"
    /// The request reaches the backend; its answer is held until the app gives up (closes the
    /// connection: its request time-out), at most ``ScenarioExecutor/holdLimit(requestTimeout:)``,
    /// then the connection is closed.
    case holdPastTimeout = "answer held past the app's time-out"

    package var description: String { rawValue }
}
