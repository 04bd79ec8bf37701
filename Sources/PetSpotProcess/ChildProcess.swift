import Foundation
import PetSpotConcurrency
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process in a process group of its own, started through ``ProcessGroups`` (and so
/// terminated by ``ProcessGroups/terminateAll()`` at the latest), whose standard streams are
/// pipes, files or `/dev/null` (``ChildStream``), never this process's own unless asked for.
///
/// The child dies with this object: when it is released, ``terminate(graceSeconds:)`` ends the
/// child's whole group (SIGTERM, then SIGKILL) and reaps the child, on every path out of the
/// scope that held it (a thrown error, a failed expectation). The package's own programs also
/// exit when this process dies, even by SIGKILL (``ParentWatch``); a program reading its
/// standard input from a ``ChildStream/pipe`` sees its end then.
///
/// Writes to the child's input never trap (``PipeIO``): a child that is gone makes them throw.
package final class ChildProcess: Sendable {
    /// How the child ended.
    package struct Exit: Sendable, Equatable {
        /// The exit status, or `nil` when a signal ended it.
        package var status: Int32?
        /// The signal that ended it, if one did.
        package var signal: Int32?
        /// User plus system CPU seconds the child used (its reaped children included).
        package var cpuSeconds: Double

        /// The exit status, or 128 + the signal that ended it (as a shell reports it).
        package var code: Int32 { status ?? 128 + (signal ?? 0) }
    }

    /// A child run to its end: how it ended and what it wrote.
    package struct Outcome: Sendable {
        /// How it ended.
        package var exit: Exit
        /// Its standard output.
        package var output: [UInt8]
        /// Its standard error.
        package var error: [UInt8]
        /// Why writing its input failed, if it did (it exited without reading it all, say).
        package var inputError: ProcessError?
        /// Whether it was still running at the limit and was terminated.
        package var wasTerminated: Bool

        /// The exit status, or 128 + the signal that ended it.
        package var code: Int32 { exit.code }
        /// Standard output as text.
        package var outputText: String { String(decoding: output, as: UTF8.self) }
        /// Standard error as text.
        package var errorText: String { String(decoding: error, as: UTF8.self) }
    }

    /// The child's pid, which is also its process group's id.
    package let pid: pid_t
    /// The write end of the child's standard input when it is a pipe (non-blocking).
    private let input: Int32?
    /// The child's standard output and error when they are pipes read by the caller.
    private let outputReader: LineReader?
    private let errorReader: LineReader?
    /// The child's standard output and error when they are collected.
    private let outputDrain: OutputDrain?
    private let errorDrain: OutputDrain?
    /// The child's ending once reaped, whether its input is open, whether its group was terminated.
    private let state = Locked((exit: ChildProcess.Exit?.none, inputOpen: true, terminated: false))

    /// Starts `executable` (a path) with `arguments`, in a process group of its own.
    ///
    /// - Parameters:
    ///   - environment: the child's environment (this process's when `nil`); ``ParentWatch/variable`` is added.
    ///   - input: its standard input; a ``ChildStream/pipe`` by default, so that it reads the end
    ///     of its input when this process closes it or dies.
    ///   - output: its standard output, ``ChildStream/collected`` by default.
    ///   - error: its standard error, ``ChildStream/collected`` by default.
    /// - Throws: ``ProcessError`` when a pipe cannot be made or the program cannot be started.
    package init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        input: ChildStream = .pipe, output: ChildStream = .collected, error: ChildStream = .collected
    ) throws(ProcessError) {
        var parentEnds: [Int32?] = [nil, nil, nil]
        var childEnds: [Int32] = []
        var sources: [ProcessSpawn.Source] = []
        do throws(ProcessError) {
            for (number, stream) in [input, output, error].enumerated() {
                let reads = number == 0
                switch stream {
                case .null: sources.append(.open(path: "/dev/null", flags: reads ? O_RDONLY : O_WRONLY))
                case .file(let path): sources.append(.open(path: path, flags: reads ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC))
                case .descriptor(let descriptor): sources.append(.descriptor(descriptor))
                case .inherited: sources.append(.inherited)
                case .pipe, .collected:
                    guard !(reads && stream == .collected) else { throw ProcessError.notPiped(stream: "standard input (collected is for output)") }
                    let made = try PipeIO.makePipe()
                    parentEnds[number] = reads ? made.write : made.read
                    let childEnd = reads ? made.read : made.write
                    childEnds.append(childEnd)
                    sources.append(.descriptor(childEnd))
                }
            }
            pid = try ProcessGroups.spawn(executable: executable, arguments: arguments, environment: environment, streams: sources)
        } catch {
            PipeIO.close(childEnds + parentEnds.compactMap { $0 })
            throw error
        }
        PipeIO.close(childEnds)
        self.input = parentEnds[0]
        if let input = parentEnds[0] { PipeIO.setNonBlocking(input) }
        outputReader = output == .pipe ? parentEnds[1].map(LineReader.init) : nil
        errorReader = error == .pipe ? parentEnds[2].map(LineReader.init) : nil
        outputDrain = output == .collected ? parentEnds[1].map { OutputDrain($0, name: "petspot-child-stdout") } : nil
        errorDrain = error == .collected ? parentEnds[2].map { OutputDrain($0, name: "petspot-child-stderr") } : nil
        if parentEnds[0] == nil { state.withLock { $0.inputOpen = false } }
    }

    /// `/bin/sh -c command`, with the same streams and environment as ``init(_:_:environment:input:output:error:)``.
    package static func shell(
        _ command: String, environment: [String: String]? = nil, input: ChildStream = .pipe, output: ChildStream = .collected,
        error: ChildStream = .collected
    ) throws(ProcessError) -> ChildProcess {
        try ChildProcess("/bin/sh", ["-c", command], environment: environment, input: input, output: output, error: error)
    }

    deinit {
        terminate(graceSeconds: 0)
        closeInput()
        outputReader?.close()
        errorReader?.close()
        outputDrain?.stop()
        errorDrain?.stop()
    }

    // MARK: Input

    /// Writes `bytes` to the child's standard input, waiting up to `timeout` seconds while it
    /// reads (a safety net against a child that never reads, not a measure).
    /// - Throws: ``ProcessError/inputClosed(written:of:)`` when the child is gone or closed its
    ///   input, ``ProcessError/inputStalled(written:of:seconds:)`` when it did not read it all in
    ///   time, ``ProcessError/notPiped(stream:)`` when its input is not a pipe.
    package func write(_ bytes: [UInt8], timeout: Double = 300) throws(ProcessError) {
        guard let input else { throw .notPiped(stream: "standard input") }
        guard state.withLock({ $0.inputOpen }) else { throw .inputClosed(written: 0, of: bytes.count) }
        try PipeIO.write(bytes, to: input, deadline: Date(timeIntervalSinceNow: timeout))
    }

    /// Writes `line` and a newline to the child's standard input (see ``write(_:timeout:)``).
    package func writeLine(_ line: String, timeout: Double = 300) throws(ProcessError) {
        try write(Array((line + "\n").utf8), timeout: timeout)
    }

    /// Closes the child's standard input (once): it reads its end.
    package func closeInput() {
        let open = state.withLock { state -> Bool in
            defer { state.inputOpen = false }
            return state.inputOpen
        }
        if open, let input { PipeIO.close([input]) }
    }

    // MARK: Output

    /// The next line of the child's standard output (a ``ChildStream/pipe``), or `nil` at its
    /// end or after `timeout` seconds.
    package func readLine(timeout: Double) -> String? {
        outputReader?.readLine(timeout: timeout)
    }

    /// The next line of the child's standard error (a ``ChildStream/pipe``), or `nil` at its end
    /// or after `timeout` seconds.
    package func readErrorLine(timeout: Double) -> String? {
        errorReader?.readLine(timeout: timeout)
    }

    /// The child's collected standard output so far, once it has ended or `seconds` have passed
    /// (empty when it is not ``ChildStream/collected``).
    package func collectedOutput(waitingUpTo seconds: Double) -> [UInt8] {
        outputDrain?.contents(waitingUpTo: seconds) ?? []
    }

    /// The child's collected standard error so far, once it has ended or `seconds` have passed.
    package func collectedError(waitingUpTo seconds: Double) -> [UInt8] {
        errorDrain?.contents(waitingUpTo: seconds) ?? []
    }

    // MARK: Ending

    /// Whether the child has not been reaped yet (it runs, or has just ended).
    package var isRunning: Bool { reap() == nil }

    /// Sends `signal` to the child (not its group), unless it has been reaped (its pid could
    /// be another process's by then).
    package func send(_ signal: Int32) {
        state.withLock { state in
            if state.exit == nil { kill(pid, signal) }
        }
    }

    /// Reaps the child if it has ended; its ending, or `nil` while it runs.
    @discardableResult
    private func reap() -> Exit? {
        state.withLock { state -> Exit? in
            if let exit = state.exit { return exit }
            var status: Int32 = 0
            var usage = rusage()
            var reaped: pid_t
            repeat { reaped = wait4(pid, &status, WNOHANG, &usage) } while reaped < 0 && errno == EINTR
            guard reaped == pid else { return nil }
            let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
                + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
            let signalled = status & 0x7F
            let exit = Exit(status: signalled == 0 ? (status >> 8) & 0xFF : nil, signal: signalled == 0 ? nil : signalled, cpuSeconds: cpu)
            state.exit = exit
            return exit
        }
    }

    /// Waits up to `timeout` seconds for the child to end and reaps it; `nil` while it runs.
    /// With `timeout` 0, looks once.
    @discardableResult
    package func waitForExit(timeout: Double) -> Exit? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            if let exit = reap() { return exit }
            if Date() >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// Ends the child's whole process group: SIGTERM, then SIGKILL to what is left after
    /// `graceSeconds`; reaps the child. Returns how the child ended (`nil` only if it could not
    /// be reaped within seconds of SIGKILL). Safe to call more than once.
    @discardableResult
    package func terminate(graceSeconds: Double = ProcessGroups.killGraceSeconds) -> Exit? {
        let first = state.withLock { state -> Bool in
            defer { state.terminated = true }
            return !state.terminated
        }
        if first { ProcessGroups.terminate(pid, graceSeconds: graceSeconds, whileWaiting: { [self] in _ = reap() }) }
        return waitForExit(timeout: first ? 2 : 0)
    }

    /// Runs `executable` to its end: `input` written to its standard input (then closed), its
    /// output and error collected. A child still running after `limitSeconds` (a hang, not a
    /// measure: the limit is far above any expected run) is terminated; so is whatever it left
    /// in its group when it ended.
    package static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil, input: [UInt8] = [],
        limitSeconds: Double = 600
    ) throws(ProcessError) -> Outcome {
        let child = try ChildProcess(executable, arguments, environment: environment)
        var inputError: ProcessError?
        if !input.isEmpty {
            do throws(ProcessError) {
                try child.write(input, timeout: limitSeconds)
            } catch {
                inputError = error
            }
        }
        child.closeInput()
        let ended = child.waitForExit(timeout: limitSeconds)
        let exit = child.terminate(graceSeconds: ended == nil ? ProcessGroups.killGraceSeconds : 0)
        return Outcome(
            exit: exit ?? Exit(status: nil, signal: SIGKILL, cpuSeconds: 0), output: child.collectedOutput(waitingUpTo: 10),
            error: child.collectedError(waitingUpTo: 10), inputError: inputError, wasTerminated: ended == nil)
    }
}
