#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@testable import PetSpotHTTP
import PetSpotHTTPTestSupport

/// The built `petspot-contracts` executable, in the build products directory beside the test bundle.
enum ToolBinary {
    static let path = BuiltProduct.path("petspot-contracts")
}

/// A child process started with `posix_spawn`, its standard output (and, when asked, its
/// standard error) piped to us.
///
/// Unlike Foundation's `Process` it is reaped here with `wait4`, which reports the child's own
/// CPU time. The child starts with no descriptors but 0-2 and the pipe (so a lowered descriptor
/// limit means what it says), an empty signal mask and default SIGINT/SIGTERM dispositions.
final class ChildProcess {
    /// How the child ended.
    struct Exit {
        /// The exit status, or `nil` when a signal ended it.
        var status: Int32?
        /// The signal that ended it, if any.
        var signal: Int32?
        /// User plus system CPU seconds the child used.
        var cpuSeconds: Double
    }

    let pid: pid_t
    private let output: Int32
    private var pending: [UInt8] = []
    private let errorOutput: Int32?
    private var pendingErrors: [UInt8] = []
    private(set) var exit: Exit?

    /// Starts `executable` with `arguments`; with `capturingStandardError`, its standard error
    /// is piped to us too (see ``readErrorLine(timeout:)``), else it is this process's.
    init(_ executable: String, _ arguments: [String], capturingStandardError: Bool = false) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw HTTPSocketError(operation: "pipe", code: errno) }
        var errorEnds: [Int32] = [-1, -1]
        if capturingStandardError {
            guard pipe(&errorEnds) == 0 else {
                let code = errno
                for end in ends { Socket.closeDescriptor(end) }
                throw HTTPSocketError(operation: "pipe", code: code)
            }
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        if capturingStandardError { posix_spawn_file_actions_adddup2(&actions, errorEnds[1], 2) }
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        for kept: Int32 in [0, 2] { posix_spawn_file_actions_addinherit_np(&actions, kept) }
        #else
        Self.closeInheritedDescriptors(&actions)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        Socket.closeDescriptor(ends[1])
        if capturingStandardError { Socket.closeDescriptor(errorEnds[1]) }
        guard result == 0 else {
            Socket.closeDescriptor(ends[0])
            if capturingStandardError { Socket.closeDescriptor(errorEnds[0]) }
            throw HTTPSocketError(operation: "posix_spawn \(executable)", code: result)
        }
        self.pid = pid
        output = ends[0]
        Socket.setNonBlocking(output)
        errorOutput = capturingStandardError ? errorEnds[0] : nil
        if let errorOutput { Socket.setNonBlocking(errorOutput) }
    }

    #if !canImport(Darwin)
    /// glibc 2.34+ closes every descriptor from 3 up in the child; Swift does not import the
    /// function, so it is looked up at run time.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let process = dlopen(nil, RTLD_NOW),
              let symbol = dlsym(process, "posix_spawn_file_actions_addclosefrom_np")
        else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
    #endif

    deinit {
        if exit == nil {
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: 5)
        }
        Socket.closeDescriptor(output)
        if let errorOutput { Socket.closeDescriptor(errorOutput) }
    }

    /// The next line of standard output, or `nil` at end of output or after `timeout` seconds.
    func readLine(timeout: Double) -> String? {
        Self.readLine(from: output, pending: &pending, timeout: timeout)
    }

    /// The next line of standard error (when captured), or `nil` at its end or after `timeout` seconds.
    func readErrorLine(timeout: Double) -> String? {
        guard let errorOutput else { return nil }
        return Self.readLine(from: errorOutput, pending: &pendingErrors, timeout: timeout)
    }

    private static func readLine(from output: Int32, pending: inout [UInt8], timeout: Double) -> String? {
        let deadline = Socket.monotonicMilliseconds() + Int64(timeout * 1000)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let count = read(output, &chunk, chunk.count)
            if count > 0 {
                pending += chunk[0..<count]
                continue
            }
            if count == 0 { return nil }
            let remaining = deadline - Socket.monotonicMilliseconds()
            guard remaining > 0, Socket.wait(output, events: Int16(POLLIN), timeoutMilliseconds: Int(remaining)) else { return nil }
        }
    }

    /// Reads the `listening on http://127.0.0.1:PORT` line and returns the port.
    func listeningPort(timeout: Double = 20) -> Int? {
        guard let line = readLine(timeout: timeout), line.hasPrefix("listening on http://127.0.0.1:") else { return nil }
        return Int(line.split(separator: ":").last ?? "")
    }

    /// CPU seconds (user plus system) the running child has used so far; `nil` where the
    /// platform does not tell (read from `/proc/PID/stat` on Linux; after exit, ``Exit`` has it).
    func cpuSecondsSoFar() -> Double? {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let commandEnd = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": state is field 3, utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: commandEnd)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        #else
        return nil
        #endif
    }

    /// Sends `signal` to the child.
    func send(_ signalNumber: Int32) {
        if exit == nil { kill(pid, signalNumber) }
    }

    /// Waits up to `timeout` seconds for the child to end and reaps it; `nil` if it is still running.
    @discardableResult
    func waitForExit(timeout: Double) -> Exit? {
        if let exit { return exit }
        let deadline = Socket.monotonicMilliseconds() + Int64(timeout * 1000)
        while true {
            var status: Int32 = 0
            var usage = rusage()
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid {
                let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
                    + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
                let signalled = status & 0x7F
                exit = Exit(status: signalled == 0 ? (status >> 8) & 0xFF : nil, signal: signalled == 0 ? nil : signalled,
                            cpuSeconds: cpu)
                return exit
            }
            if reaped < 0 && errno != EINTR { return nil }
            if Socket.monotonicMilliseconds() >= deadline { return nil }
            usleep(10_000)
        }
    }
}
