import Foundation
import PetSpotHTTPTestSupport
import PetSpotJSON
import PetSpotProcess
import PetSpotReleases
import PetSpotTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The official Pact verifier (the `pact` command of PyPI's `pact-python-cli`), when installed:
/// `$PETSPOT_PACT`, else `.build/pact/bin/pact` of this package (`.ci/run` installs it there).
enum PactVerifier {
    static let path: String? = {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let given = environment["PETSPOT_PACT"], !given.isEmpty { candidates.append(given) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/pact/bin/pact").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let missing = "the Pact verifier is not installed: the Pact interop test is skipped "
        + "(python3 -m venv .build/pact && .build/pact/bin/pip install pact-python-cli, or set PETSPOT_PACT)"

    /// Verifies the pact file `file` against the provider on `port`; returns the exit code and output.
    /// Never reports usage anywhere (`PACT_DO_NOT_TRACK`): nothing may leave this machine.
    static func verify(_ file: String, port: Int) throws -> (code: Int32, output: String) {
        let verifier = try #require(path)
        var environment = ProcessInfo.processInfo.environment
        environment["PACT_DO_NOT_TRACK"] = "true"
        let outcome = try ChildProcess.run(
            verifier, ["verifier", "--file", file, "--hostname", "127.0.0.1", "--port", String(port)], environment: environment,
            limitSeconds: 600)
        return (outcome.code, outcome.outputText + outcome.errorText)
    }
}

@Suite("Pact interop", .serialized, .onOwnThreads)
struct PactInteropTests {
    /// A `petspot-contracts mock` on a free port with `arguments`, stopped when the test ends.
    func mock(_ arguments: [String]) throws -> (process: ChildProcess, port: Int) {
        let binary = try #require(ToolBinary.path)
        let mock = try ChildProcess(binary, ["mock", "--port", "0"] + arguments, output: .pipe)
        let line = try #require(mock.readLine(timeout: 300), "no listening line: \(String(decoding: mock.collectedError(waitingUpTo: 0), as: UTF8.self))")
        let port = try #require(Int(line.split(separator: ":").last ?? ""), "\(line)")
        return (mock, port)
    }

    @Test("an exported release is real Pact: the official verifier passes it against the mock and fails it against a breaking change",
          .enabled(if: PactVerifier.path != nil || ProcessInfo.processInfo.environment["CI"] == "true", Comment(rawValue: PactVerifier.missing)),
          .timeLimit(.minutes(30)))
    func verifierAgrees() async throws {
        guard PactVerifier.path != nil else {
            Issue.record(Comment(rawValue: PactVerifier.missing + " (CI requires it)"))
            return
        }
        let adapter = try #require(ExampleAdapter.path, "petspot-example-adapter not found beside the test bundle")
        let directory = try await RecordedBuilds.shared.directory(adapter: adapter)
        let release = try RecordedRelease.read(from: directory.appendingPathComponent("2.0.json"), displayPath: "2.0.json")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-pact-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try PactExport.document(of: release).serializedData(options: [.prettyPrinted]).write(to: file)

        let healthy = try mock([])
        defer { _ = healthy.process.terminate() }
        let passing = try PactVerifier.verify(file.path, port: healthy.port)
        #expect(passing.code == 0, "\(passing.output.suffix(3000))")

        let changed = try mock(["--change", "status-missing-renamed-lost"])
        defer { _ = changed.process.terminate() }
        let failing = try PactVerifier.verify(file.path, port: changed.port)
        #expect(failing.code != 0, "the verifier passed a pact against a backend that refuses MISSING")
        #expect(failing.output.contains("status must be either LOST or FOUND") || failing.output.contains("400"), "\(failing.output.suffix(3000))")
    }
}
