import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Pipes between this process and its children, and writes to them that cannot trap.
///
/// `FileHandle.write` on a pipe whose reader is gone raises SIGPIPE, or, with SIGPIPE ignored,
/// traps on EPIPE: either ends the whole process (a test process, with every test in it). Here
/// SIGPIPE is ignored once for the process and EPIPE comes back as
/// ``ProcessError/inputClosed(written:of:)``, which the caller reports.
package enum PipeIO {
    /// SIGPIPE ignored for this process (once; the child gets the default back, see ``ProcessSpawn``).
    private static let brokenPipeSignalIgnored: Bool = {
        _ = signal(SIGPIPE, SIG_IGN)
        return true
    }()

    /// Ignores SIGPIPE in this process, so that a write to a closed pipe fails with EPIPE.
    package static func ignoreBrokenPipeSignal() {
        _ = brokenPipeSignalIgnored
    }

    /// A pipe whose two ends are close-on-exec (so that no other child inherits them).
    package static func makePipe() throws(ProcessError) -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw .system(operation: "pipe", code: errno) }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

    /// Makes `descriptor` non-blocking.
    package static func setNonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Closes every descriptor given (negative ones are skipped).
    package static func close(_ descriptors: [Int32]) {
        for descriptor in descriptors where descriptor >= 0 {
            #if canImport(Glibc)
            _ = Glibc.close(descriptor)
            #elseif canImport(Musl)
            _ = Musl.close(descriptor)
            #else
            _ = Darwin.close(descriptor)
            #endif
        }
    }

    /// Writes all of `bytes` to `descriptor` (preferably non-blocking), waiting for room until
    /// `deadline`; never raises SIGPIPE.
    ///
    /// - Throws: ``ProcessError/inputClosed(written:of:)`` when the reader is gone (EPIPE),
    ///   ``ProcessError/inputStalled(written:of:seconds:)`` when `deadline` passed first (with
    ///   the seconds it allowed), ``ProcessError/system(operation:code:)`` for any other error.
    package static func write(_ bytes: [UInt8], to descriptor: Int32, deadline: Date) throws(ProcessError) {
        ignoreBrokenPipeSignal()
        let allowed = max(0, deadline.timeIntervalSinceNow)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
                continue
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                let left = deadline.timeIntervalSinceNow
                if left <= 0 { throw .inputStalled(written: offset, of: bytes.count, seconds: allowed) }
                var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&entry, 1, Int32(clamping: Int((left * 1000).rounded(.up))))
            case EPIPE: throw .inputClosed(written: offset, of: bytes.count)
            default: throw .system(operation: "write to a pipe", code: code)
            }
        }
    }

    /// `write(2)`.
    private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
        #elseif canImport(Musl)
        Musl.write(descriptor, buffer, count)
        #else
        Darwin.write(descriptor, buffer, count)
        #endif
    }
}
