import Foundation
import PetSpotConcurrency
import PetSpotFlowChecks
import PetSpotProcess
import PetSpotReport
import PetSpotRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A running adapter program: `/bin/sh -c COMMAND` in a process group of its own, with pipes on
/// its standard input, output and error.
///
/// ``ask(_:timeout:)`` writes one question line and waits for one answer line, for the adapter's
/// exit, or for the timeout, whichever comes first: an adapter that crashes is reported as
/// crashed (with its signal) at once, even when a child it forked still holds its output open.
/// Three threads serve it: one reads answer lines, one relays its standard error to ours
/// (escaped and cut, see ``DisplayText``), one waits for its exit.
///
/// The adapter is started through ``ProcessGroups`` (`posix_spawn` with `POSIX_SPAWN_SETPGROUP`),
/// so it and everything it starts form one process group whose id is the adapter's pid.
/// ``stop(graceSeconds:)`` closes its input (a well-behaved adapter exits 0), then terminates
/// the whole group (SIGTERM, then SIGKILL after a grace period), so no child outlives the run;
/// ``terminateAll()`` does the same for every child still running when the runner itself is
/// interrupted. A process that leaves the group (`setsid`) is beyond reach.
package final class AdapterProcess: Sendable {
    /// The longest answer line accepted (a runaway adapter cannot exhaust memory).
    static let maxLineBytes = 16 * 1024 * 1024
    /// Standard error relayed in all; later output is counted, not shown.
    static let maxRelayedErrorBytes = 1024 * 1024

    /// What the threads share: answer lines, the adapter's exit, whether it was stopped.
    private struct State: Sendable {
        /// Answer lines read and not yet taken.
        var lines: [String] = []
        /// The line being read.
        var partial: [UInt8] = []
        /// The adapter's standard output reached its end.
        var outputClosed = false
        /// A line went past ``AdapterProcess/maxLineBytes``.
        var overlong = false
        /// The raw `waitpid` status once the adapter has exited (-1 when unknown).
        var waitStatus: Int32?
        /// The adapter's standard input is still open.
        var inputOpen = true
        /// ``AdapterProcess/stop(graceSeconds:)`` was called.
        var stopped = false
        /// The adapter's standard error reached its end and every line of it was relayed.
        var errorsRelayed = false
        /// The first lines of its standard error, escaped (for a setup error's paragraph).
        var errorHead: [String] = []
        /// What it wrote on standard error since the last question was sent.
        var questionErrors = StandardErrorExcerpt()
    }

    /// Lines of standard error kept for ``standardErrorHead``.
    static let keptErrorLines = 8

    /// The adapter's pid, which is also its process group id.
    let pid: pid_t
    /// The write end of the adapter's standard input (non-blocking).
    private let input: Int32
    /// The state shared with the reader and waiter threads.
    private let state = Locked(State())
    /// While the adapter runs, SIGINT or SIGTERM to the runner terminates every adapter's group
    /// before the runner exits (``SignalTrap``).
    private let trap: SignalTrap.Registration

    /// Starts `command` through `/bin/sh -c` in a new process group; each line of its standard
    /// error goes to `relayError`, escaped and prefixed `adapter: `.
    init(command: String, relayError: @escaping @Sendable (String) -> Void) throws(AdapterProtocolError) {
        PipeIO.ignoreBrokenPipeSignal()
        var pipes: [(read: Int32, write: Int32)] = []
        while pipes.count < 3 {
            do throws(ProcessError) {
                pipes.append(try PipeIO.makePipe())
            } catch {
                Self.closeAll(pipes.flatMap { [$0.read, $0.write] })
                throw .cannotStart(error.description)
            }
        }
        let (inputPipe, outputPipe, errorPipe) = (pipes[0], pipes[1], pipes[2])
        // Registered before the spawn, so that no signal finds the adapter running untrapped.
        let trap = SignalTrap.shared.register(.cleanup { AdapterProcess.terminateAll() })
        let spawned = Self.spawn(command, stdin: inputPipe.read, stdout: outputPipe.write, stderr: errorPipe.write)
        Self.closeAll([inputPipe.read, outputPipe.write, errorPipe.write])
        // Exiting on a signal: the signal's handler ends the process; nothing more may run.
        SignalTrap.shared.waitIfExiting()
        guard case .success(let pid) = spawned else {
            trap.end()
            Self.closeAll([inputPipe.write, outputPipe.read, errorPipe.read])
            if case .failure(let error) = spawned { throw error }
            throw .cannotStart("posix_spawn failed")
        }
        self.pid = pid
        input = inputPipe.write
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        self.trap = trap
        // The threads hold the shared state, not the process object, so that dropping the last
        // reference to it stops the adapter (deinit).
        let output = outputPipe.read, errors = errorPipe.read, state = self.state
        Self.startThread("petspot-adapter-reader") { Self.readAnswers(output, into: state) }
        Self.startThread("petspot-adapter-stderr") {
            Self.relayErrors(errors) { line in
                state.withLock { state in
                    let text = String(line.dropFirst("adapter: ".count))
                    if state.errorHead.count < Self.keptErrorLines { state.errorHead.append(text) }
                    state.questionErrors.add(text)
                }
                relayError(line)
            }
            state.withLock { $0.errorsRelayed = true }
        }
        Self.startThread("petspot-adapter-waiter") { Self.waitForExit(pid, into: state) }
    }

    deinit {
        stop(graceSeconds: 0)
        if state.withLock({ $0.inputOpen }) { Self.closeAll([input]) }
    }

    // MARK: Starting

    /// Starts a named thread with a small stack.
    private static func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = 512 * 1024
        thread.start()
    }

    /// Closes every descriptor given (negative ones are skipped).
    private static func closeAll(_ descriptors: [Int32]) {
        for descriptor in descriptors where descriptor >= 0 { _ = close(descriptor) }
    }

    /// `/bin/sh -c command` in a new process group (its own pid) registered with
    /// ``ProcessGroups``, with the pipes as its standard streams, default signal dispositions and
    /// an empty signal mask, and none of the runner's other descriptors.
    private static func spawn(_ command: String, stdin: Int32, stdout: Int32, stderr: Int32) -> Result<pid_t, AdapterProtocolError> {
        do throws(ProcessError) {
            return .success(
                try ProcessGroups.spawn(
                    executable: "/bin/sh", arguments: ["-c", command], streams: [.descriptor(stdin), .descriptor(stdout), .descriptor(stderr)]))
        } catch .exiting {
            return .failure(.cannotStart("the runner is exiting on a signal"))
        } catch {
            return .failure(.cannotStart(error.description))
        }
    }

    // MARK: Threads

    /// Collects answer lines until the adapter's output closes.
    private static func readAnswers(_ descriptor: Int32, into state: Locked<State>) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                state.withLock { $0.outputClosed = true }
                _ = close(descriptor)
                return
            }
            state.withLock { state in
                func keep(_ bytes: ArraySlice<UInt8>) {
                    let room = maxLineBytes - state.partial.count
                    if bytes.count > room {
                        state.overlong = true
                        state.partial.append(contentsOf: bytes.prefix(room))
                    } else {
                        state.partial.append(contentsOf: bytes)
                    }
                }
                var start = 0
                while let newline = buffer[start..<count].firstIndex(of: UInt8(ascii: "\n")) {
                    keep(buffer[start..<newline])
                    if state.partial.last == UInt8(ascii: "\r") { state.partial.removeLast() }
                    state.lines.append(String(decoding: state.partial, as: UTF8.self))
                    state.partial.removeAll(keepingCapacity: true)
                    start = newline + 1
                }
                keep(buffer[start..<count])
            }
        }
    }

    /// Relays the adapter's standard error to ours line by line, each line escaped and cut at
    /// ``DisplayText/maxBytes`` (its full length stated), workflow commands made inert
    /// (``WorkflowCommands/visible(_:)``), at most ``maxRelayedErrorBytes`` in all.
    private static func relayErrors(_ descriptor: Int32, to writeLine: (String) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var line: [UInt8] = []
        var lineLength = 0
        var relayed = 0
        var silenced = false
        func emit() {
            defer {
                line.removeAll(keepingCapacity: true)
                lineLength = 0
            }
            guard !silenced else { return }
            if relayed >= maxRelayedErrorBytes {
                silenced = true
                writeLine("adapter: (more standard error from the adapter is not shown)")
                return
            }
            let text = DisplayText.sanitized(String(decoding: line, as: UTF8.self), fullLength: lineLength)
            relayed += text.utf8.count
            writeLine("adapter: \(WorkflowCommands.visible(text))")
        }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            for byte in buffer[0..<count] {
                if byte == UInt8(ascii: "\n") {
                    emit()
                } else {
                    lineLength += 1
                    if line.count <= DisplayText.maxBytes { line.append(byte) }
                }
            }
        }
        if lineLength > 0 { emit() }
        _ = close(descriptor)
    }

    /// Writes `line` and a newline to our standard error with `write(2)`.
    @Sendable static func writeErrorLine(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Reaps the adapter and records how it ended.
    private static func waitForExit(_ pid: pid_t, into state: Locked<State>) {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, 0)
            if result == pid { break }
            if result < 0 && errno == EINTR { continue }
            // ECHILD: someone else reaped it; its status is unknown.
            status = -1
            break
        }
        state.withLock { $0.waitStatus = status }
    }

    // MARK: Asking

    /// Sends `question` (one line, no newline) and returns the next answer line.
    ///
    /// - Throws: ``AdapterProtocolError/exited(status:)`` or ``AdapterProtocolError/crashed(signal:)``
    ///   when the adapter is gone, ``AdapterProtocolError/timedOut(seconds:)`` after `timeout`
    ///   seconds without a line, ``AdapterProtocolError/malformedAnswer(_:)`` for a line longer
    ///   than ``maxLineBytes``.
    func ask(_ question: String, timeout: Double) throws(AdapterProtocolError) -> String {
        // Without idle detection the answer is a line or an error, never `nil`.
        guard let line = try ask(question, timeout: timeout, returningWhenIdle: false) else { throw .timedOut(seconds: timeout) }
        return line
    }

    /// ``ask(_:timeout:)``, and with `returningWhenIdle` `nil` as soon as the adapter is seen
    /// waiting for more input without having answered (``IdleWatch``): it read the question,
    /// used no CPU time for a while, and is blocked reading its standard input again. That is an
    /// adapter whose answer sits in an unflushed buffer, or one that never answers; the caller
    /// finds out which by closing its input (``closeInputAndWait(seconds:)``).
    func ask(_ question: String, timeout: Double, returningWhenIdle: Bool) throws(AdapterProtocolError) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        state.withLock { $0.questionErrors = StandardErrorExcerpt() }
        try send(Array((question + "\n").utf8), deadline: deadline, timeout: timeout)
        var watch = returningWhenIdle ? IdleWatch(group: pid, input: input) : nil
        var outcome: Result<String, AdapterProtocolError>?
        while true {
            let slice = watch == nil ? deadline : min(deadline, Date(timeIntervalSinceNow: IdleWatch.interval))
            outcome = state.withLock(
                waitingUntil: slice, for: { !$0.lines.isEmpty || $0.outputClosed || $0.overlong || $0.waitStatus != nil }
            ) { state, ready -> Result<String, AdapterProtocolError>? in
                if state.overlong { return .failure(.malformedAnswer("an answer line is longer than \(Self.maxLineBytes) bytes")) }
                if !state.lines.isEmpty { return .success(state.lines.removeFirst()) }
                return nil
            }
            if outcome != nil || Date() >= deadline { break }
            if state.withLock({ $0.outputClosed || $0.waitStatus != nil }) { break }
            if watch?.observeIdle() == true { return nil }
        }
        if let outcome { return try outcome.get() }
        // Gone or silent: give the reader a moment for a line written just before an exit.
        let late = state.withLock(
            waitingUntil: min(deadline, Date(timeIntervalSinceNow: 0.1)), for: { !$0.lines.isEmpty || $0.outputClosed }
        ) { state, _ in state.lines.isEmpty ? nil : state.lines.removeFirst() }
        if let late { return late }
        if let ending = ending(waitingUpTo: state.withLock { $0.outputClosed } ? 1 : 0) { throw ending }
        throw .timedOut(seconds: timeout)
    }

    /// Writes all of `bytes` to the adapter's input, waiting for room at most until `deadline`
    /// (a write that cannot trap: an adapter that is gone is reported as gone).
    private func send(_ bytes: [UInt8], deadline: Date, timeout: Double) throws(AdapterProtocolError) {
        do throws(ProcessError) {
            try PipeIO.write(bytes, to: input, deadline: deadline)
        } catch .inputStalled {
            throw .timedOut(seconds: timeout)
        } catch {
            throw ending(waitingUpTo: 1) ?? .exited(status: nil)
        }
    }

    /// How the adapter ended, waiting up to `seconds` for it; `nil` while it runs.
    private func ending(waitingUpTo seconds: Double) -> AdapterProtocolError? {
        let status = state.withLock(waitingUntil: Date(timeIntervalSinceNow: seconds), for: { $0.waitStatus != nil }) { state, _ in
            state.waitStatus
        }
        guard let status else { return nil }
        if let signal = Self.terminatingSignal(status) { return .crashed(signal: signal) }
        return .exited(status: Self.exitCode(status))
    }

    /// The signal that killed a process, from its raw wait status (-1: unknown).
    static func terminatingSignal(_ status: Int32) -> Int32? {
        guard status >= 0 else { return nil }
        let signal = status & 0x7F
        return signal != 0 && signal != 0x7F ? signal : nil
    }

    /// The exit code of a process that exited, from its raw wait status (`nil` when unknown, -1).
    static func exitCode(_ status: Int32) -> Int32? {
        status < 0 ? nil : (status >> 8) & 0xFF
    }

    /// A signal's name: `SIGSEGV`, or `signal 42`.
    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT",
            SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1", SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2",
            SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS",
        ]
        return names[signal] ?? "signal \(signal)"
    }

    // MARK: Stopping

    /// Closes the adapter's input and makes sure it and every process of its group are gone:
    /// after `graceSeconds` for a clean exit, by SIGTERM to the group, then SIGKILL.
    func stop(graceSeconds: Double = 2) {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        closeInput()
        _ = state.withLock(waitingUntil: Date(timeIntervalSinceNow: graceSeconds), for: { $0.waitStatus != nil }) { _, ready in ready }
        ProcessGroups.terminate(pid)
        _ = state.withLock(waitingUntil: Date(timeIntervalSinceNow: 1), for: { $0.waitStatus != nil }) { _, ready in ready }
        // With the group gone its standard error is closed: let its last lines out before we go.
        _ = state.withLock(waitingUntil: Date(timeIntervalSinceNow: 1), for: { $0.errorsRelayed }) { _, ready in ready }
        trap.end()
    }

    /// Closes the adapter's standard input, once.
    private func closeInput() {
        let open = state.withLock { state -> Bool in
            defer { state.inputOpen = false }
            return state.inputOpen
        }
        if open { Self.closeAll([input]) }
    }

    /// Closes the adapter's input and waits up to `seconds` for an answer line or its exit:
    /// the line it wrote (an adapter that buffers its output flushes it when it exits), and how
    /// it ended, if it did.
    func closeInputAndWait(seconds: Double) -> (line: String?, ending: AdapterProtocolError?) {
        closeInput()
        let deadline = Date(timeIntervalSinceNow: seconds)
        let line = state.withLock(waitingUntil: deadline, for: { !$0.lines.isEmpty || $0.waitStatus != nil }) { state, _ in
            state.lines.isEmpty ? nil : state.lines.removeFirst()
        }
        // An exit flushes the buffer first: give the reader a moment for that line.
        let late = line ?? state.withLock(
            waitingUntil: min(deadline, Date(timeIntervalSinceNow: 0.2)), for: { !$0.lines.isEmpty || $0.outputClosed }
        ) { state, _ in state.lines.isEmpty ? nil : state.lines.removeFirst() }
        return (late, ending(waitingUpTo: 0))
    }

    /// The first lines (at most ``keptErrorLines``) the adapter wrote on its standard error,
    /// escaped; waits up to `seconds` for the rest of it once the adapter has exited.
    func standardErrorHead(waitingUpTo seconds: Double) -> [String] {
        state.withLock(waitingUntil: Date(timeIntervalSinceNow: seconds), for: { $0.errorsRelayed || $0.waitStatus == nil }) { state, _ in
            state.errorHead
        }
    }

    /// What the adapter wrote on standard error since the last question was sent; waits up to
    /// `seconds` for the rest of it once the adapter has exited.
    func questionStandardError(waitingUpTo seconds: Double) -> StandardErrorExcerpt {
        state.withLock(waitingUntil: Date(timeIntervalSinceNow: seconds), for: { $0.errorsRelayed || $0.waitStatus == nil }) { state, _ in
            state.questionErrors
        }
    }

    /// Whether the adapter process is still running.
    var isRunning: Bool { state.withLock { $0.waitStatus == nil } }

    /// The adapter's exit status once it has exited (128 + the signal when a signal ended it).
    var terminationStatus: Int32? {
        guard let status = state.withLock({ $0.waitStatus }) else { return nil }
        if let signal = Self.terminatingSignal(status) { return 128 + signal }
        return Self.exitCode(status)
    }

    /// Terminates every child process group still running, the adapters' included (the runner
    /// was interrupted): SIGTERM to each, then SIGKILL to those left after
    /// ``ProcessGroups/killGraceSeconds``. From then on no adapter can start.
    package static func terminateAll() {
        ProcessGroups.terminateAll()
    }
}
