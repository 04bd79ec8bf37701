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

/// One connection the app opened through the proxy, and what happened to it.
package struct ProxiedExchange: Sendable {
    /// The connection's number in the scenario, from 0.
    package let index: Int
    /// The fault applied, if any.
    package let fault: NetworkFault?
    /// The request, when one was read (a refused connection has none).
    package let request: TransportRequest?
    /// The backend's answer, when the request was forwarded.
    package let backendAnswer: Result<TransportResponse, TransportError>?
    /// The answer the app was sent (the backend's, or the one the fault made up).
    package let sentAnswer: TransportResponse?
    /// What reached the app.
    package let delivery: Delivery
}
