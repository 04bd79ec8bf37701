#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpotConcurrency

/// A resolved socket address a client connects to: its family and `sockaddr` bytes.
struct SocketAddress: Sendable {
    /// `AF_INET` or `AF_INET6`.
    var family: Int32
    /// The `sockaddr` bytes.
    var storage: [UInt8]
    /// Their length.
    var length: socklen_t

    /// The IPv4 and IPv6 addresses of `host:port`: a numeric host's at once, a name's through
    /// `getaddrinfo` on a helper thread waited for until `deadline` (a resolver that hangs
    /// cannot outlast it).
    static func resolve(host: String, port: Int, deadline: ContinuousClock.Instant) throws(HTTPClientError) -> [SocketAddress] {
        var probe = in6_addr()
        if inet_pton(AF_INET, host, &probe) == 1 || inet_pton(AF_INET6, host, &probe) == 1 {
            return try lookUp(host: host, port: port).get()
        }
        let result = Locked<Result<[SocketAddress], HTTPClientError>?>(nil)
        let thread = Thread {
            let found = lookUp(host: host, port: port)
            result.withLock { $0 = found }
        }
        thread.start()
        let left = Double(try HTTPClientConnection.millisecondsLeft(until: deadline)) / 1000
        let found = result.withLock(waitingUntil: Date(timeIntervalSinceNow: left), for: { $0 != nil }) { value, _ in value }
        guard let found else { throw .timedOut }
        return try found.get()
    }

    /// `getaddrinfo` for `host:port` (blocking).
    private static func lookUp(host: String, port: Int) -> Result<[SocketAddress], HTTPClientError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Socket.streamType
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(.unresolvable(host: host, reason: String(cString: gai_strerror(status))))
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = current.pointee.ai_addr,
                current.pointee.ai_family == AF_INET || current.pointee.ai_family == AF_INET6
            {
                let length = Int(current.pointee.ai_addrlen)
                let bytes = Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(address), count: length))
                addresses.append(SocketAddress(family: current.pointee.ai_family, storage: bytes, length: current.pointee.ai_addrlen))
            }
            entry = current.pointee.ai_next
        }
        return addresses.isEmpty ? .failure(.noAddress(host: host)) : .success(addresses)
    }
}
