import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running adapter program: `/bin/sh -c COMMAND` with pipes on its standard input and output;
/// its standard error goes straight to ours.
///
/// ``ask(_:timeout:)`` writes one question line and waits for one answer line. A reader thread
/// collects output lines so that a timeout never blocks. ``stop()`` closes the adapter's input
/// (a well-behaved adapter exits 0), then terminates it and every process it started.
final class AdapterProcess: @unchecked Sendable {
    // Unchecked: `lines`, `partial`, `finished` are guarded by `condition`; the rest is immutable
    // after init or touched only by the single caller of ask/stop.
    /// The longest answer line accepted (a runaway adapter cannot exhaust memory).
    static let maxLineBytes = 16 * 1024 * 1024

    private let process = Process()
    private let inputPipe = Pipe()
    private let outputPipe = Pipe()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var partial: [UInt8] = []
    private var finished = false
    private var overlong = false
    private var stopped = false

    /// Starts `command` through `/bin/sh -c`.
    init(command: String) throws(AdapterProtocolError) {
        Self.ignoreBrokenPipes
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = FileHandle.standardError
        do {
            try process.run()
        } catch {
            throw .cannotStart(error.localizedDescription)
        }
        let descriptor = outputPipe.fileHandleForReading.fileDescriptor
        let thread = Thread { [self] in readLoop(descriptor) }
        thread.name = "petspot-adapter-reader"
        thread.start()
    }

    /// Writing to an adapter that died must give EPIPE, not kill the runner.
    private static let ignoreBrokenPipes: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    private func readLoop(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            condition.lock()
            if count <= 0 {
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            for byte in buffer[0..<count] {
                if byte == UInt8(ascii: "\n") {
                    if partial.last == UInt8(ascii: "\r") { partial.removeLast() }
                    lines.append(String(decoding: partial, as: UTF8.self))
                    partial.removeAll(keepingCapacity: true)
                } else if partial.count < Self.maxLineBytes {
                    partial.append(byte)
                } else {
                    overlong = true
                }
            }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Sends `question` (one line, no newline) and returns the next answer line.
    ///
    /// - Throws: ``AdapterProtocolError/exited(status:)`` when the adapter is gone,
    ///   ``AdapterProtocolError/timedOut(seconds:)`` after `timeout` seconds without a line.
    func ask(_ question: String, timeout: Double) throws(AdapterProtocolError) -> String {
        let bytes = Array((question + "\n").utf8)
        let descriptor = inputPipe.fileHandleForWriting.fileDescriptor
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .exited(status: exitStatus(waitingUpTo: 1))
            }
            offset += written
        }
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while lines.isEmpty && !finished && !overlong {
            if !condition.wait(until: deadline) { break }
        }
        if overlong {
            condition.unlock()
            throw .malformedAnswer("an answer line is longer than \(Self.maxLineBytes) bytes")
        }
        if !lines.isEmpty {
            let line = lines.removeFirst()
            condition.unlock()
            return line
        }
        let ended = finished
        condition.unlock()
        if ended { throw .exited(status: exitStatus(waitingUpTo: 1)) }
        throw .timedOut(seconds: timeout)
    }

    /// The exit status once the process has ended (waiting up to `seconds`), else `nil`.
    private func exitStatus(waitingUpTo seconds: Double) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Closes the adapter's input and makes sure it and its children are gone: after
    /// `graceSeconds` for a clean exit, by SIGTERM, then SIGKILL.
    func stop(graceSeconds: Double = 2) {
        guard !stopped else { return }
        stopped = true
        try? inputPipe.fileHandleForWriting.close()
        if exitStatus(waitingUpTo: graceSeconds) != nil { return }
        let children = Self.descendants(of: process.processIdentifier)
        process.terminate()
        for child in children { kill(child, SIGTERM) }
        if exitStatus(waitingUpTo: 0.5) == nil {
            kill(process.processIdentifier, SIGKILL)
        }
        for child in children { kill(child, SIGKILL) }
        _ = exitStatus(waitingUpTo: 1)
    }

    /// Whether the adapter process is still running.
    var isRunning: Bool { process.isRunning }

    /// The adapter's exit status, once it has exited.
    var terminationStatus: Int32? { process.isRunning ? nil : process.terminationStatus }

    deinit {
        stop(graceSeconds: 0)
    }

    /// Every process below `root` (read from /proc; empty where /proc is not available).
    static func descendants(of root: Int32) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var parents: [Int32: [Int32]] = [:]
        for entry in entries {
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = Int32(fields[1]) else { continue }
            parents[parent, default: []].append(pid)
        }
        var result: [Int32] = []
        var queue = [root]
        while let next = queue.popLast() {
            for child in parents[next] ?? [] where !result.contains(child) {
                result.append(child)
                queue.append(child)
            }
        }
        return result
    }
}
