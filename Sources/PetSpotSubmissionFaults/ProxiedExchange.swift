import Foundation
import PetSpotModel

/// One request the app sent through the proxy, and what happened to it.
package struct ProxiedExchange: Sendable {
    /// The request's number in the scenario, from 0 (the order its first byte arrived in).
    package let index: Int
    /// The fault applied, if any.
    package let fault: NetworkFault?
    /// The request, when one was read (a refused one has none); its body cut to
    /// ``FaultProxy/loggedBodyBytes``.
    package let request: TransportRequest?
    /// The length of the request's whole body (announced, for one over the proxy's limit).
    package let bodyBytes: Int
    /// The backend's answer, when the request was forwarded.
    package let backendAnswer: Result<TransportResponse, TransportError>?
    /// The answer the app was sent (the backend's, or the one the proxy made up).
    package let sentAnswer: TransportResponse?
    /// What reached the app.
    package let delivery: Delivery
    /// For a held answer: the longest the proxy's own look at the connection came late while it
    /// held it, in seconds (how much a loaded machine delayed it, and so the app, meanwhile).
    package let watchDelay: Double

    /// An exchange.
    package init(
        index: Int, fault: NetworkFault?, request: TransportRequest?, bodyBytes: Int = 0,
        backendAnswer: Result<TransportResponse, TransportError>?, sentAnswer: TransportResponse?, delivery: Delivery,
        watchDelay: Double = 0
    ) {
        self.index = index
        self.fault = fault
        self.request = request
        self.bodyBytes = bodyBytes
        self.backendAnswer = backendAnswer
        self.sentAnswer = sentAnswer
        self.delivery = delivery
        self.watchDelay = watchDelay
    }
}
