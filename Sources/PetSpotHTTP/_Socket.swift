#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A failure of a socket call, with the call's name and `errno`.
public struct HTTPSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system call or step that failed (`bind`, `connect`, `read timeout`, ...).
    public let operation: String
    /// The `errno` value (0 when the failure is not a system error).
    public let code: Int32

    /// A failure of `operation` with `errno` `code`.
    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    public var description: String {
        code == 0 ? "\(operation) failed" : "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
    }
}

/// Thin wrappers over the POSIX socket calls the server and the raw client share.
package enum _Socket {
    #if os(Linux)
    package static let streamType = Int32(SOCK_STREAM.rawValue)
    package static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    package static let streamType = SOCK_STREAM
    package static let sendFlags: Int32 = 0
    #endif

    /// Ignores SIGPIPE process-wide: a peer that vanishes must surface as EPIPE, not kill us.
    package static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// An IPv4 socket address for a dotted-quad host (or `localhost`) and port.
    package static func address(host: String, port: Int) throws(HTTPSocketError) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        let numeric = host == "localhost" ? "127.0.0.1" : host
        guard port >= 0, port <= 65535, inet_pton(AF_INET, numeric, &address.sin_addr) == 1 else {
            throw HTTPSocketError(operation: "resolve host '\(host)' (an IPv4 address is required)", code: 0)
        }
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        return address
    }

    /// Closes a descriptor.
    package static func closeDescriptor(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #elseif canImport(Musl)
        _ = Musl.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    package static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    package static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    package static func configureConnection(_ fd: Int32) {
        setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        #if canImport(Darwin)
        setOption(fd, SOL_SOCKET, SO_NOSIGPIPE, 1)
        #endif
    }

    /// Milliseconds since an arbitrary fixed point, monotonic.
    package static func monotonicMilliseconds() -> Int64 {
        Int64(DispatchTime.now().uptimeNanoseconds / 1_000_000)
    }

    /// Waits until `fd` is ready for `events` or `timeoutMilliseconds` pass; `true` when ready.
    package static func wait(_ fd: Int32, events: Int16, timeoutMilliseconds: Int) -> Bool {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let result = poll(&descriptor, 1, Int32(clamping: max(0, timeoutMilliseconds)))
            if result > 0 { return true }
            if result == 0 { return false }
            if errno != EINTR { return true }
        }
    }

    /// Writes all of `bytes` to a non-blocking socket, waiting for writability at most
    /// `timeoutMilliseconds` at a time.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], timeoutMilliseconds: Int) throws(HTTPSocketError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                send(fd, buffer.baseAddress! + offset, buffer.count - offset, sendFlags)
            }
            if written > 0 {
                offset += written
                continue
            }
            let code = errno
            if written < 0 && (code == EAGAIN || code == EWOULDBLOCK || code == EINTR) {
                if code != EINTR && !wait(fd, events: Int16(POLLOUT), timeoutMilliseconds: timeoutMilliseconds) {
                    throw HTTPSocketError(operation: "write timeout", code: 0)
                }
                continue
            }
            throw HTTPSocketError(operation: "send", code: code)
        }
    }
}
