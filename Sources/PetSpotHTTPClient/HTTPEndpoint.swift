import Foundation
import PetSpotConcurrency
import PetSpotModel
import PetSpotReport

/// Where an HTTP request goes: scheme, host and port (RFC 6454's origin), plus the request
/// target.
package struct HTTPEndpoint: Sendable, Hashable {
    /// `http` or `https`, lower case.
    package var scheme: String
    /// The host name or address, lower case, without IPv6 brackets.
    package var host: String
    /// The port (80 or 443 when the URL gives none).
    package var port: Int
    /// Path and query as sent on the request line, e.g. `/api/v1/announcements?lat=1`.
    package var target: String

    /// The port a scheme uses when a URL names none.
    package static func defaultPort(_ scheme: String) -> Int { scheme == "https" ? 443 : 80 }

    /// The `Host` header: the host (IPv6 in brackets) and the port unless it is the default.
    package var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == Self.defaultPort(scheme) ? name : "\(name):\(port)"
    }

    /// `scheme://host[:port]`.
    package var origin: String { "\(scheme)://\(hostHeader)" }

    /// `scheme://host[:port]/target`.
    package var url: String { origin + target }

    /// Whether `other` has the same scheme, host and port.
    package func sameOrigin(_ other: HTTPEndpoint) -> Bool {
        scheme == other.scheme && host == other.host && port == other.port
    }

    /// The endpoint of an absolute `http`/`https` URL; `nil` for other schemes, URLs without a
    /// host, or URLs carrying credentials.
    package init?(_ url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            var host = components.percentEncodedHost?.lowercased(), !host.isEmpty,
            components.user == nil, components.password == nil
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.scheme = scheme
        self.host = host
        port = components.port ?? Self.defaultPort(scheme)
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        target = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// An endpoint from its parts.
    package init(scheme: String, host: String, port: Int, target: String) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.target = target
    }
}
