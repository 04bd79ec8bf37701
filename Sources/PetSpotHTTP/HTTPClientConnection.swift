#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The client side of one HTTP/1.1 connection on a non-blocking POSIX socket: it connects
/// (names resolved, IPv4 or IPv6), writes bytes exactly as given, and reads answers through one
/// buffer (`HTTPClientConnection+Reading.swift`) within its ``rules``. Every wait (name
/// resolution, connect, write, read) ends at the deadline the call is given.
///
/// Both HTTP clients of the package are built on it: ``RawHTTPConnection`` (tests and
/// benchmarks: lenient rules, one connection across requests) and the runner's `http://` wire
/// client (strict rules, one exchange per connection).
///
/// Not thread-safe: one connection per thread. The socket is closed by ``close()`` or deinit.
package final class HTTPClientConnection {
    /// The socket (-1 once closed).
    package private(set) var descriptor: Int32
    /// What an answer may be.
    package let rules: HTTPClientRules
    /// Bytes received; those before ``cursor`` are consumed.
    var buffer: [UInt8] = []
    /// Where the unread bytes of ``buffer`` start.
    var cursor = 0
    /// Bytes of the stream dropped from the front of ``buffer``: `discarded + cursor` is the
    /// position in the stream.
    var discarded = 0
    /// What `recv` writes into before the bytes join ``buffer``.
    private var receiveBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Connects to the first address of `host:port` that accepts, by `deadline`.
    /// - Throws: ``HTTPClientError`` when the host does not resolve, no address accepts, or the
    ///   deadline passes.
    package init(host: String, port: Int, rules: HTTPClientRules, deadline: ContinuousClock.Instant) throws(HTTPClientError) {
        Socket.ignoreSIGPIPE()
        let addresses = try SocketAddress.resolve(host: host, port: port, deadline: deadline)
        descriptor = try Self.connectedSocket(to: addresses, deadline: deadline)
        self.rules = rules
    }

    deinit { close() }

    /// Closes the socket.
    package func close() {
        if descriptor >= 0 {
            Socket.closeDescriptor(descriptor)
            descriptor = -1
        }
    }

    /// Half-closes the connection: the peer sees the end of the stream, reading stays open.
    package func finishWriting() {
        if descriptor >= 0 { _ = shutdown(descriptor, Int32(SHUT_WR)) }
    }

    // MARK: Time

    /// Milliseconds left before `deadline`.
    /// - Throws: ``HTTPClientError/timedOut`` when none are.
    static func millisecondsLeft(until deadline: ContinuousClock.Instant) throws(HTTPClientError) -> Int {
        let left = deadline - ContinuousClock.now
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        guard milliseconds > 0 else { throw .timedOut }
        return Int(milliseconds)
    }

    /// Waits until `fd` is ready for `events`, at most until `deadline`.
    private static func wait(_ fd: Int32, for events: Int32, until deadline: ContinuousClock.Instant) throws(HTTPClientError) {
        switch Socket.readiness(fd, events: Int16(events), timeoutMilliseconds: try millisecondsLeft(until: deadline)) {
        case .ready: return
        case .timedOut: throw .timedOut
        case .failed(let code): throw .pollFailed(code: code)
        }
    }

    // MARK: Connecting

    /// A non-blocking, close-on-exec socket connected to the first of `addresses` that accepts.
    private static func connectedSocket(to addresses: [SocketAddress], deadline: ContinuousClock.Instant) throws(HTTPClientError)
        -> Int32
    {
        var failure: Int32 = 0
        for address in addresses {
            let fd = socket(address.family, Socket.streamType, 0)
            guard fd >= 0 else {
                failure = errno
                continue
            }
            Socket.setCloseOnExec(fd)
            Socket.setNonBlocking(fd)
            Socket.configureConnection(fd)
            let started = address.storage.withUnsafeBytes { raw in
                connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), address.length)
            }
            if started == 0 { return fd }
            failure = errno
            if failure == EINPROGRESS || failure == EINTR {
                do throws(HTTPClientError) {
                    try wait(fd, for: Int32(POLLOUT), until: deadline)
                } catch {
                    Socket.closeDescriptor(fd)
                    throw error
                }
                var code: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
                if code == 0 { return fd }
                failure = code
            }
            Socket.closeDescriptor(fd)
        }
        throw .connectFailed(code: failure)
    }

    // MARK: Writing

    /// Writes all of `bytes` by `deadline`.
    /// - Throws: ``HTTPClientError`` when the peer is gone (`EPIPE`, `ECONNRESET`: what it
    ///   answered may still be read) or the deadline passes.
    package func write(_ bytes: some ContiguousBytes, deadline: ContinuousClock.Instant) throws(HTTPClientError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(HTTPClientError) in try write(raw, deadline: deadline) } }.get()
    }

    private func write(_ bytes: UnsafeRawBufferPointer, deadline: ContinuousClock.Instant) throws(HTTPClientError) {
        var offset = 0
        while true {
            switch Socket.sendAvailable(descriptor, bytes, from: offset) {
            case .complete:
                return
            case .partial(let sent):
                offset += sent
                try Self.wait(descriptor, for: Int32(POLLOUT), until: deadline)
            case .failed(let code, let sent):
                throw .sendFailed(sent: offset + sent, of: bytes.count, code: code)
            }
        }
    }

    // MARK: Reading

    /// Appends the next bytes the peer sends to ``buffer``, waiting for them until `deadline`;
    /// `false` at the end of the stream (and on a closed connection).
    func fill(deadline: ContinuousClock.Instant) throws(HTTPClientError) -> Bool {
        let fd = descriptor
        guard fd >= 0 else { return false }
        while true {
            let count = receiveBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: receiveBuffer[0..<count])
                return true
            }
            if count == 0 { return false }
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK || code == EINTR {
                try Self.wait(fd, for: Int32(POLLIN), until: deadline)
                continue
            }
            if rules.resetEndsStream && (code == ECONNRESET || code == EPIPE) { return false }
            throw .receiveFailed(code: code)
        }
    }

    /// Whether the peer closes the connection by `deadline`; what it sends before is kept for
    /// the next read. `false` when the connection is still open then.
    /// - Throws: ``HTTPClientError`` on a failure other than the deadline passing.
    package func isClosedByPeer(deadline: ContinuousClock.Instant) throws(HTTPClientError) -> Bool {
        do throws(HTTPClientError) {
            while try fill(deadline: deadline) {}
            return true
        } catch .timedOut {
            return false
        }
    }
}
