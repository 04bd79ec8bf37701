import Foundation
import Testing

/// The package's rules for locks and unsafe code (CONTRIBUTING.md, "Access"), checked over the
/// source text of `Sources` and `Generators`, so that a new lock or pointer trick outside its
/// place fails a test instead of waiting for a review.
@Suite("source rules")
struct SourceRulesTests {
    /// A construct allowed only in the listed files (paths relative to the package root).
    struct Rule: CustomTestStringConvertible, Sendable {
        let name: String
        let pattern: String
        let allowedFiles: Set<String>
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
    ]

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
            allowedFiles: posixFiles),
        Rule(
            name: "nonisolated(unsafe) only for the signal handler's pipe",
            pattern: #"nonisolated\(unsafe\)"#,
            allowedFiles: ["Sources/PetSpotHTTP/TerminationSignalTrap.swift"]),
        Rule(
            name: "locks only inside Locked",
            pattern: #"\bNS(Recursive)?Lock\b|\bNSCondition\b|pthread_mutex|os_unfair_lock|\bMutex<"#,
            allowedFiles: ["Sources/PetSpotConcurrency/Locked.swift"]),
    ]

    /// Every Swift file of the library and tool code, with its lines outside comments.
    static func codeLines() throws -> [(file: String, line: Int, text: String)] {
        var lines: [(String, Int, String)] = []
        for directory in ["Sources", "Generators"] {
            let root = packageRoot.appendingPathComponent(directory)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
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
        let files = Set(try Self.codeLines().map(\.file))
        let missing = rule.allowedFiles.subtracting(files).sorted()
        #expect(missing.isEmpty, "\(rule.name): no such file: \(missing.joined(separator: ", "))")
    }

    @Test("each construct appears only where the rules allow it", arguments: rules)
    func constructStaysInItsFiles(_ rule: Rule) throws {
        let pattern = try Regex(rule.pattern)
        let offending = try Self.codeLines().filter { !rule.allowedFiles.contains($0.file) && $0.text.contains(pattern) }
        #expect(
            offending.isEmpty,
            "\(rule.name); found elsewhere:\n\(offending.map { "\($0.file):\($0.line): \($0.text)" }.joined(separator: "\n"))")
    }
}
