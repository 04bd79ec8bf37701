import Foundation
import Testing

/// The package's rules for locks, unsafe code and child processes (CONTRIBUTING.md, "Access"),
/// checked over the source text of `Sources` and `Generators` (and `Tests`, for child
/// processes), so that a new lock, pointer trick or process spawn outside its place fails a test
/// instead of waiting for a review.
@Suite("source rules")
struct SourceRulesTests {
    /// A construct allowed only in the listed files (paths relative to the package root).
    struct Rule: CustomTestStringConvertible, Sendable {
        let name: String
        let pattern: String
        let allowedFiles: Set<String>
        /// The folders whose Swift files the rule applies to.
        var folders = ["Sources", "Generators"]
        var testDescription: String { name }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Files that make POSIX calls (sockets, pipes, `posix_spawn`) and so must hand them pointers.
    static let posixFiles: Set<String> = [
        "Sources/PetSpotHTTP/ConnectionLoop.swift", "Sources/PetSpotHTTP/ServerRun.swift",
        "Sources/PetSpotHTTP/Socket.swift", "Sources/PetSpotHTTP/HTTPServer.swift",
        "Sources/PetSpotHTTP/HTTPClientConnection.swift", "Sources/PetSpotHTTP/SocketAddress.swift",
        "Sources/PetSpotAdapterDriving/AdapterProcess.swift", "Sources/PetSpotRuntime/RunnerOutput.swift",
        "Sources/PetSpotSubmissionFaults/FaultProxy.swift",
        "Sources/PetSpotProcess/ProcessSpawn.swift", "Sources/PetSpotProcess/PipeIO.swift",
        "Sources/PetSpotProcess/OutputDrain.swift", "Sources/PetSpotProcess/LineReader.swift",
    ]

    /// The one file that starts a child process (PetSpotProcess's `posix_spawn`), and so the one
    /// that looks up `posix_spawn_file_actions_addclosefrom_np` at run time.
    static let spawnFile = "Sources/PetSpotProcess/ProcessSpawn.swift"

    static let rules: [Rule] = [
        Rule(
            name: "unsafe code for speed lives in UnretainedReference.swift",
            pattern: #"Unmanaged|_withUnsafeGuaranteedRef|@exclusivity\(unchecked\)|unowned\(unsafe\)|unsafeBitCast(?!\(symbol, to: \(@convention\(c\))|unsafeDowncast|loadUnaligned|\bmem(cmp|cpy|move)\(|UnsafeBufferPointer|UnsafeMutableBufferPointer|withUnsafeBufferPointer|withUnsafeMutableBufferPointer|withUnsafeTemporaryAllocation|unsafeUninitializedCapacity|@unsafe\b|\bunsafe\s"#,
            allowedFiles: ["Sources/PetSpotSchema/UnretainedReference.swift"]),
        Rule(
            name: "raw pointers only where a POSIX call needs them",
            pattern: #"withUnsafe(Mutable)?Bytes|withUnsafe(Mutable)?Pointer|Unsafe(Mutable)?(Raw)?Pointer|UnsafeRawBufferPointer|withMemoryRebound|assumingMemoryBound|bindMemory|\bstrdup\("#,
            allowedFiles: posixFiles),
        Rule(
            name: "a C function looked up at run time (dlsym, cast to its C type) only where a POSIX call needs it",
            pattern: #"\bdlsym\(|unsafeBitCast\(symbol"#,
            allowedFiles: [spawnFile]),
        // Every child, in the product and in the tests, is started by PetSpotProcess: in a group of
        // its own, with none of our descriptors, terminated with its starter, its pipes written
        // without a trap. Foundation's `Process` gives none of that.
        Rule(
            name: "child processes start only in PetSpotProcess (posix_spawn there; no Process, fork, exec or popen)",
            pattern: #"\bposix_spawn\w*\(|\bv?fork\(\)|\bexecv\w*\(|\bProcess\(\)|Foundation\.Process\b|\bpopen\("#,
            allowedFiles: [spawnFile], folders: ["Sources", "Generators", "Tests"]),
        Rule(
            name: "nonisolated(unsafe) only for the signal handler's pipe",
            pattern: #"nonisolated\(unsafe\)"#,
            allowedFiles: ["Sources/PetSpotHTTP/TerminationSignalTrap.swift"]),
        Rule(
            name: "locks only inside Locked",
            pattern: #"\bNS(Recursive)?Lock\b|\bNSCondition\b|pthread_mutex|os_unfair_lock|\bMutex<"#,
            allowedFiles: ["Sources/PetSpotConcurrency/Locked.swift"]),
    ]

    /// Every Swift file under `folders` (the library and tool code by default), with its lines
    /// outside comments; hidden folders (a nested package's `.build`) are skipped.
    static func codeLines(in folders: [String] = ["Sources", "Generators"]) throws -> [(file: String, line: Int, text: String)] {
        var lines: [(String, Int, String)] = []
        for directory in folders {
            let root = packageRoot.appendingPathComponent(directory)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) else {
                continue
            }
            for case let url as URL in walker where url.pathExtension == "swift" {
                let relative = String(url.path.dropFirst(packageRoot.path.count + 1))
                let text = try String(contentsOf: url, encoding: .utf8)
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    if code.hasPrefix("//") { continue }
                    let beforeComment = code.range(of: " //").map { String(code[..<$0.lowerBound]) } ?? code
                    lines.append((relative, index + 1, beforeComment))
                }
            }
        }
        return lines
    }

    @Test("the sources are found")
    func sourcesAreFound() throws {
        let files = Set(try Self.codeLines().map(\.file))
        #expect(files.contains("Generators/Engine/TestCase.swift"))
        #expect(files.contains("Sources/PetSpotSchema/UnretainedReference.swift"))
        #expect(files.count > 100, "only \(files.count) Swift files under Sources and Generators")
    }

    /// A file moved or renamed must take its exemption along: a path that names no file would
    /// let the construct in the moved file fail the rule, or (worse) be read as still allowed.
    @Test("every file a rule allows exists", arguments: rules)
    func allowedFilesExist(_ rule: Rule) throws {
        let files = Set(try Self.codeLines(in: rule.folders).map(\.file))
        let missing = rule.allowedFiles.subtracting(files).sorted()
        #expect(missing.isEmpty, "\(rule.name): no such file: \(missing.joined(separator: ", "))")
    }

    @Test("each construct appears only where the rules allow it", arguments: rules)
    func constructStaysInItsFiles(_ rule: Rule) throws {
        let pattern = try Regex(rule.pattern)
        let offending = try Self.codeLines(in: rule.folders).filter { !rule.allowedFiles.contains($0.file) && $0.text.contains(pattern) }
        #expect(
            offending.isEmpty,
            "\(rule.name); found elsewhere:\n\(offending.map { "\($0.file):\($0.line): \($0.text)" }.joined(separator: "\n"))")
    }
}
