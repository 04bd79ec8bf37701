import Foundation
import PetSpotConcurrency
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Temporary files and directories that the test process removes when it exits: what several
/// tests share for the whole run (a report run made once and read by many), which no single
/// test can remove when it ends.
enum RemovedAtExit {
    /// The paths registered; `nil` until the first, which installs the `atexit` handler.
    private static let paths = Locked<[URL]?>(nil)

    /// Removes `url` (a file, or a directory with everything in it) when the process exits.
    static func add(_ url: URL) {
        paths.withLock { paths in
            if paths == nil {
                paths = []
                atexit { RemovedAtExit.removeAll() }
            }
            paths?.append(url)
        }
    }

    /// Removes every registered path now.
    static func removeAll() {
        for url in paths.withLock({ $0 ?? [] }) { try? FileManager.default.removeItem(at: url) }
    }
}
