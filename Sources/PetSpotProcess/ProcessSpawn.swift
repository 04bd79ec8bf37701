import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The package's one call to `posix_spawn`: a program in a process group of its own (its pid is
/// the group's id), default dispositions for the signals a parent commonly catches or ignores,
/// an empty signal mask, and no descriptor of the parent's but the three standard streams.
///
/// Callers go through ``ProcessGroups/spawn(executable:arguments:environment:streams:)``, which
/// registers the group.
package enum ProcessSpawn {
    /// How one of the child's descriptors 0, 1 and 2 is set up.
    package enum Source: Sendable {
        /// This descriptor of the parent's, duplicated onto the stream.
        case descriptor(Int32)
        /// The file at `path`, opened onto the stream with `flags` (mode 0600 when created).
        case open(path: String, flags: Int32)
        /// Left as the parent has it.
        case inherited
    }

    /// Signals whose disposition the child gets back to the default: a parent that ignores
    /// SIGPIPE or catches SIGINT must not hand that on.
    static let defaultedSignals: [Int32] = [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD]

    /// `posix_spawn`'s file actions and attributes (opaque pointers on Darwin, structs elsewhere).
    #if canImport(Darwin)
    typealias FileActions = posix_spawn_file_actions_t?
    typealias Attributes = posix_spawnattr_t?
    #else
    typealias FileActions = posix_spawn_file_actions_t
    typealias Attributes = posix_spawnattr_t
    #endif

    /// Starts `executable` (a path) with `arguments` and exactly `environment`; `streams` are
    /// descriptors 0, 1 and 2 in that order.
    static func spawn(
        executable: String, arguments: [String], environment: [String: String], streams: [Source]
    ) throws(ProcessError) -> pid_t {
        #if canImport(Darwin)
        var actions: FileActions = nil
        var attributes: Attributes = nil
        #else
        var actions = FileActions()
        var attributes = Attributes()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in zip(Int32(0)..., streams.prefix(3)) {
            switch source {
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            case .open(let path, let flags): posix_spawn_file_actions_addopen(&actions, target, path, flags, 0o600)
            case .inherited:
                #if canImport(Darwin)
                posix_spawn_file_actions_addinherit_np(&actions, target)
                #endif
            }
        }
        // Nothing else of ours reaches the child: a descriptor it inherited (another pipe of this
        // process, a socket, a file) would stay open as long as the child lives, and whoever
        // waits for that pipe's end would wait as long. Darwin closes them with
        // POSIX_SPAWN_CLOEXEC_DEFAULT, glibc 2.34 and later with `addclosefrom_np` (every
        // descriptor from 3 up, in the child, so one that another thread opens while this one
        // spawns is closed too); elsewhere each one open now is closed in the child (one that is
        // closed by then is skipped: EBADF is not an error).
        #if !canImport(Darwin)
        if let closeFrom = Self.addCloseFrom {
            _ = closeFrom(&actions, 3)
        } else {
            for descriptor in openDescriptors() where descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        }
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in defaultedSignals { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        #if canImport(Darwin)
        let closesOthers = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #else
        let closesOthers: Int32 = 0
        #endif
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | closesOthers))
        let words: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) }
        let variables: [UnsafeMutablePointer<CChar>?] = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
        defer { for pointer in words + variables { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, words + [nil], variables + [nil])
        guard status == 0 else { throw .system(operation: "posix_spawn \(executable)", code: status) }
        return pid
    }

    #if !canImport(Darwin)
    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later), which Swift's Glibc
    /// module does not declare, looked up once; `nil` where the C library lacks it.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<FileActions>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<FileActions>, Int32) -> Int32).self)
    }()
    #endif

    /// The descriptors open in this process, from `/proc/self/fd` (empty where it cannot be read).
    private static func openDescriptors() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
    }
}
