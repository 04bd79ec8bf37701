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

/// Thin wrappers over the POSIX socket calls the server and the client connection share.
package enum Socket {
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

    /// A listening TCP socket on `host:port` (port 0: a free one), non-blocking and close-on-exec
    /// from its creation (a process spawned meanwhile by another thread does not inherit it).
    /// - Returns: the descriptor, which the caller owns, and the port it listens on.
    /// - Throws: ``HTTPSocketError`` naming the step that failed (`bind 127.0.0.1:8080`: in use).
    package static func listen(host: String, port: Int, backlog: Int32) throws(HTTPSocketError) -> (descriptor: Int32, port: Int) {
        var address = try Socket.address(host: host, port: port)
        #if os(Linux)
        let descriptor = socket(AF_INET, streamType | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, streamType, 0)
        #endif
        guard descriptor >= 0 else { throw HTTPSocketError(operation: "socket", code: errno) }
        #if !os(Linux)
        setCloseOnExec(descriptor)  // no SOCK_CLOEXEC here: a short window remains
        #endif
        setOption(descriptor, SOL_SOCKET, SO_REUSEADDR, 1)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            closeDescriptor(descriptor)
            throw HTTPSocketError(operation: "bind \(host):\(port)", code: code)
        }
        #if canImport(Glibc)
        let listening = Glibc.listen(descriptor, backlog)
        #elseif canImport(Darwin)
        let listening = Darwin.listen(descriptor, backlog)
        #endif
        guard listening == 0 else {
            let code = errno
            closeDescriptor(descriptor)
            throw HTTPSocketError(operation: "listen", code: code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        setNonBlocking(descriptor)
        return (descriptor, Int(UInt16(bigEndian: actual.sin_port)))
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

    /// Sets an integer socket option, ignoring failure (the options set here are optimisations).
    package static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Makes reads and writes on `fd` return `EAGAIN` instead of blocking.
    package static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    /// Keeps `fd` out of child processes.
    package static func setCloseOnExec(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFD, 0)
        _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC)
    }

    /// Disables Nagle's algorithm (and SIGPIPE on Darwin) on a connected socket.
    package static func configureConnection(_ fd: Int32) {
        setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        #if canImport(Darwin)
        setOption(fd, SOL_SOCKET, SO_NOSIGPIPE, 1)
        #endif
    }

    /// A non-blocking, close-on-exec pipe: `(read, write)`.
    package static func makePipe() throws(HTTPSocketError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw HTTPSocketError(operation: "pipe", code: errno) }
        for end in ends {
            setNonBlocking(end)
            setCloseOnExec(end)
        }
        return (ends[0], ends[1])
    }

    /// Milliseconds since an arbitrary fixed point, monotonic.
    package static func monotonicMilliseconds() -> Int64 {
        Int64(DispatchTime.now().uptimeNanoseconds / 1_000_000)
    }

    /// What waiting for a descriptor found.
    package enum Readiness: Equatable {
        /// It is ready for the events waited for (or has an error or hang-up to report).
        case ready
        /// The time ran out first.
        case timedOut
        /// `poll` itself failed with this `errno`.
        case failed(Int32)
    }

    /// Waits until `fd` is ready for `events` or `timeoutMilliseconds` pass.
    package static func readiness(_ fd: Int32, events: Int16, timeoutMilliseconds: Int) -> Readiness {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let result = poll(&descriptor, 1, Int32(clamping: max(0, timeoutMilliseconds)))
            if result > 0 { return .ready }
            if result == 0 { return .timedOut }
            let code = errno
            if code != EINTR { return .failed(code) }
        }
    }

    /// Waits until `fd` is ready for `events` or `timeoutMilliseconds` pass; `true` when ready
    /// (and when `poll` fails, so that the next call on `fd` meets the error).
    package static func wait(_ fd: Int32, events: Int16, timeoutMilliseconds: Int) -> Bool {
        readiness(fd, events: events, timeoutMilliseconds: timeoutMilliseconds) != .timedOut
    }

    /// What a non-blocking send of as much as possible did.
    package enum SendOutcome: Equatable {
        /// Every byte was written.
        case complete
        /// The socket buffer is full; this many bytes went out (wait for `POLLOUT`, then resume).
        case partial(Int)
        /// The connection is gone (`EPIPE`, `ECONNRESET`, ...): the `errno`, and the bytes that
        /// went out before.
        case failed(code: Int32, sent: Int)
    }

    /// Writes as much of `bytes[offset...]` to a non-blocking socket as it takes without waiting.
    package static func sendAvailable(_ fd: Int32, _ bytes: [UInt8], from offset: Int = 0) -> SendOutcome {
        bytes.withUnsafeBytes { sendAvailable(fd, $0, from: offset) }
    }

    /// Writes as much of `bytes[offset...]` to a non-blocking socket as it takes without waiting.
    package static func sendAvailable(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, from offset: Int = 0) -> SendOutcome {
        var offset = offset
        let start = offset
        while offset < bytes.count {
            let written = send(fd, bytes.baseAddress! + offset, bytes.count - offset, sendFlags)
            if written > 0 {
                offset += written
                continue
            }
            let code = errno
            if written < 0 && code == EINTR { continue }
            if written < 0 && (code == EAGAIN || code == EWOULDBLOCK) { return .partial(offset - start) }
            return .failed(code: code, sent: offset - start)
        }
        return .complete
    }

    /// Writes all of `bytes` to a non-blocking socket, waiting for writability at most
    /// `timeoutMilliseconds` at a time.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], timeoutMilliseconds: Int) throws(HTTPSocketError) {
        var offset = 0
        while true {
            switch sendAvailable(fd, bytes, from: offset) {
            case .complete:
                return
            case .partial(let sent):
                offset += sent
                guard wait(fd, events: Int16(POLLOUT), timeoutMilliseconds: timeoutMilliseconds) else {
                    throw HTTPSocketError(operation: "write timeout", code: 0)
                }
            case .failed(let code, _):
                throw HTTPSocketError(operation: "send", code: code)
            }
        }
    }

    /// Limits the bytes a connected socket holds unsent (`TCP_NOTSENT_LOWAT`): past `bytes`,
    /// `send` takes no more and `poll` reports no `POLLOUT` until the peer has read enough.
    /// So a client that does not read its answers can make the kernel queue only about this
    /// much for it, beyond what its own receive buffer holds. Ignored where unsupported.
    package static func limitUnsentBytes(_ fd: Int32, to bytes: Int) {
        setOption(fd, Int32(IPPROTO_TCP), TCP_NOTSENT_LOWAT, Int32(clamping: bytes))
    }

    #if os(Linux)
    private static let openFileResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    private static let unlimitedOpenFiles = rlim_t.max  // RLIM_INFINITY, which Swift cannot import on Linux
    #else
    private static let openFileResource = RLIMIT_NOFILE
    private static let unlimitedOpenFiles = RLIM_INFINITY
    #endif

    /// This process's soft limit on open descriptors (`Int.max` when unlimited or unknown).
    package static func openFileLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(openFileResource, &limits) == 0, limits.rlim_cur != unlimitedOpenFiles else { return Int.max }
        return Int(clamping: limits.rlim_cur)
    }

    /// Raises this process's soft limit on open descriptors to at least `count`, as far as the
    /// hard limit allows. Returns the soft limit in force afterwards.
    @discardableResult
    package static func raiseOpenFileLimit(toAtLeast count: Int) -> Int {
        var limits = rlimit()
        let resource = openFileResource
        let unlimited = unlimitedOpenFiles
        guard getrlimit(resource, &limits) == 0 else { return 0 }
        let wanted = rlim_t(max(0, count))
        if limits.rlim_cur != unlimited && limits.rlim_cur < wanted {
            var raised = limits
            raised.rlim_cur = limits.rlim_max == unlimited ? wanted : min(wanted, limits.rlim_max)
            #if canImport(Darwin)
            raised.rlim_cur = min(raised.rlim_cur, rlim_t(OPEN_MAX))
            #endif
            if setrlimit(resource, &raised) == 0 { limits = raised }
        }
        return limits.rlim_cur == unlimited ? Int.max : Int(clamping: limits.rlim_cur)
    }
}
