import Foundation
import PetSpotConcurrency
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread that reads a child's output pipe into memory as the child writes it, so that the
/// child never blocks on a full pipe while its parent is busy elsewhere.
///
/// The thread ends at the pipe's end, or at ``stop()`` (a process that left the child's group
/// may hold the pipe open for ever); it closes the pipe's read end when it ends.
final class OutputDrain: Sendable {
    /// Milliseconds between checks for ``stop()`` while the pipe is quiet.
    static let stopCheckInterval: Int32 = 100

    private struct State {
        var bytes: [UInt8] = []
        var ended = false
        var stopRequested = false
    }

    private let state = Locked(State())

    /// Starts draining `descriptor` (the read end of a pipe, which this drain now owns).
    init(_ descriptor: Int32, name: String) {
        let state = self.state
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while !state.withLock({ $0.stopRequested }) {
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&entry, 1, Self.stopCheckInterval)
                if ready == 0 || (ready < 0 && errno == EINTR) { continue }
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) { continue }
                if count <= 0 { break }
                state.withLock { $0.bytes.append(contentsOf: buffer[0..<count]) }
            }
            PipeIO.close([descriptor])
            state.withLock { $0.ended = true }
        }
        thread.name = name
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Everything read so far, once the pipe has ended or `seconds` have passed.
    func contents(waitingUpTo seconds: Double) -> [UInt8] {
        state.withLock(waitingUntil: Date(timeIntervalSinceNow: seconds), for: \.ended) { state, _ in state.bytes }
    }

    /// Ends the thread at its next check, whether or not the pipe has ended.
    func stop() {
        state.withLock { $0.stopRequested = true }
    }
}
