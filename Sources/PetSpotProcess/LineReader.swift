import Foundation
import PetSpotConcurrency
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines from the non-blocking read end of a pipe, keeping what follows the last line
/// read for the next call. One reader at a time.
final class LineReader: Sendable {
    /// The pipe's read end (non-blocking), owned by the reader until ``close()``.
    private let descriptor: Int32
    /// Bytes read past the last line returned, and whether the descriptor is closed.
    private let state = Locked((pending: [UInt8](), closed: false))

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
        PipeIO.setNonBlocking(descriptor)
    }

    /// The next line (without its `\n`), or `nil` at the pipe's end or after `timeout` seconds.
    /// A last line without a newline is returned at the pipe's end.
    func readLine(timeout: Double) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let (line, closed) = state.withLock { state -> (String?, Bool) in
                guard let newline = state.pending.firstIndex(of: 0x0A) else { return (nil, state.closed) }
                let line = String(decoding: state.pending[..<newline], as: UTF8.self)
                state.pending.removeSubrange(...newline)
                return (line, state.closed)
            }
            if let line { return line }
            if closed { return nil }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                state.withLock { $0.pending.append(contentsOf: chunk[0..<count]) }
                continue
            }
            if count == 0 {
                return state.withLock { state -> String? in
                    guard !state.pending.isEmpty else { return nil }
                    defer { state.pending.removeAll() }
                    return String(decoding: state.pending, as: UTF8.self)
                }
            }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else { return nil }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return nil }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, Int32(clamping: Int((left * 1000).rounded(.up))))
        }
    }

    /// Closes the read end (once).
    func close() {
        let open = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        if open { PipeIO.close([descriptor]) }
    }
}
