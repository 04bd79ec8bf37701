import Foundation
@testable import PetSpotCLI
import PetSpotContractKit
import PetSpotHTTPTestSupport
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotPlantedDefects
import PetSpotProcess
import PetSpotReleases
import PetSpotRuntime
import Testing

/// How the release gate's tests record the historic builds (``HistoricBuilds``) and read
/// `can-i-deploy`'s verdicts.
extension HistoricBuilds {
    /// Records the three builds through `adapter` (a command line taking `--release NAME`) into a
    /// new directory; the caller removes it.
    static func record(adapter: String, day: String = "2026-11-28") async throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-releases-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in names {
            let result = await runTool([
                "record", "--sut", "\(adapter) --release \(name)", "--release", name, "--out", directory.appendingPathComponent("\(name).json").path,
                "--recorded-on", day, "--no-progress",
            ])
            #expect(result.status == 0, "record \(name): \(result.err)")
        }
        return directory
    }

    /// The verdict of every release in `directory` against an in-process mock of `profile` serving `changes`.
    static func verdicts(_ directory: URL, changes: Set<MockChange> = [], profile: BackendProfile = .strict) async throws -> (status: Int32, verdicts: [String: String], report: JSONValue) {
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-gate-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: json) }
        let words = [
            "--base-url", "http://127.0.0.1:9", "--releases", directory.path, "--admin-token", MockBackend.defaultAdminToken, "--no-progress",
            "--report-json", json, "--quiet",
        ]
        let command = try CanIDeployCommand(try ParsedArguments(words, for: CanIDeployCommand.spec), arguments: words)
        let output = CapturedOutput()
        let backend = MockBackend(profile: profile, changes: changes, sampleRows: profile == .production)
        let status = try await command.execute(transport: InProcessTransport(backend: backend), output: output.runner).rawValue
        let report = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: json)))
        var verdicts: [String: String] = [:]
        for release in report["releases"]?.arrayValue ?? [] {
            if let name = release["name"]?.stringValue { verdicts[name] = release["verdict"]?.stringValue }
        }
        return (status, verdicts, report)
    }
}

/// The example adapter's three builds, recorded once for the suite.
actor RecordedBuilds {
    static let shared = RecordedBuilds()
    private var directory: URL?

    func directory(adapter: String) async throws -> URL {
        if let directory { return directory }
        let made = try await HistoricBuilds.record(adapter: adapter)
        directory = made
        RemovedAtExit.add(made)
        return made
    }
}

@Suite("release gate: record the builds in the field, ask can-i-deploy", .serialized)
struct ReleaseGateTests {
    func builds() async throws -> URL {
        let adapter = try #require(ExampleAdapter.path, "petspot-example-adapter not found beside the test bundle")
        return try await RecordedBuilds.shared.directory(adapter: adapter)
    }

    @Test("each historic build gets the expected verdict against each planted change; the unchanged mock breaks none, in either profile")
    func matrix() async throws {
        let directory = try await builds()
        for (change, expected) in HistoricBuilds.expected.sorted(by: { $0.key < $1.key }) {
            let changes: Set<MockChange> = change == "none" ? [] : [try #require(MockChange(rawValue: change))]
            let result = try await HistoricBuilds.verdicts(directory, changes: changes)
            #expect(result.verdicts == expected, "change \(change)")
            #expect(result.status == (expected.values.contains("breaks") ? 1 : 0), "change \(change)")
        }
        let production = try await HistoricBuilds.verdicts(directory, profile: .production)
        #expect(production.verdicts == HistoricBuilds.all("compatible"))
        #expect(production.status == 0)
    }

    @Test("a breaking change is told by code and field, with an example, the answer and a curl line; unchanged groups are not touched")
    func refusalsNamed() async throws {
        let result = try await HistoricBuilds.verdicts(try await builds(), changes: [.breedRemoved])
        let releases = try #require(result.report["releases"]?.arrayValue)
        let newest = try #require(releases.first { $0["name"] == "2.0" })
        let refusal = try #require(newest["refusals"]?[0])
        #expect(refusal["status"] == 400 && refusal["code"] == "INVALID_FIELD" && refusal["field"] == "breed" && refusal["known"] == false)
        #expect(refusal["examplePayload"]?.stringValue?.contains("\"breed\"") == true)
        #expect(refusal["exampleAnswer"]?.stringValue?.contains("INVALID_FIELD") == true)
        #expect(newest["refused"]?.numberValue?.intValue ?? 0 > 0)
        let first = try #require(releases.first { $0["name"] == "1.0" })
        #expect(first["unavailableFlows"] == ["found"])
        #expect(first["refusals"] == [])
        #expect(result.report["reportVersion"] == 4)
    }

    @Test("a refusal the contract gave when the release was recorded is known and does not block the deploy")
    func knownRefusals() async throws {
        let adapter = try #require(ExampleAdapter.path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-releases-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A build whose mapper sends the status in lower case: the contract refuses its every report.
        let recorded = await runTool([
            "record", "--sut", "\(adapter) --break status-lowercase", "--release", "2.1", "--out", directory.appendingPathComponent("2.1.json").path,
            "--cases", "60", "--submissions", "0", "--no-progress",
        ])
        #expect(recorded.status == 0, "\(recorded.err)")
        let result = try await HistoricBuilds.verdicts(directory)
        #expect(result.status == 0)
        #expect(result.verdicts == ["2.1": "compatible"])
        let release = try #require(result.report["releases"]?[0])
        #expect(release["refused"] == 0)
        #expect((release["knownRefused"]?.numberValue?.intValue ?? 0) > 0)
    }

    @Test("one-digit microchip numbers do not run out: each replayed announcement is deleted once judged")
    func shortMicrochips() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-releases-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorded = try RecordedRelease.read(from: try await builds().appendingPathComponent("2.0.json"), displayPath: "2.0.json")
        var report = try #require(recorded.reports.first { $0.contract.isAccepted && $0.payload["microchipNumber"] != nil })
        report.payload["microchipNumber"] = "5"
        // Two releases of 12 reports each with a one-digit number: 24 creates, and only 10 numbers.
        for name in ["3.0", "3.1"] {
            var release = recorded
            release.name = name
            release.reports = Array(repeating: report, count: 12)
            release.submissions = []
            try Data(release.fileBytes()).write(to: directory.appendingPathComponent("\(name).json"))
        }
        let result = try await HistoricBuilds.verdicts(directory)
        #expect(result.verdicts == ["3.0": "compatible", "3.1": "compatible"], "\(result.report["releases"] ?? nil)")
        #expect(result.status == 0)
    }

    @Test("recording the same build twice with the same seed gives the same file, byte for byte")
    func deterministic() async throws {
        let adapter = try #require(ExampleAdapter.path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-releases-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [Data] = []
        for attempt in 0..<2 {
            let path = directory.appendingPathComponent("\(attempt).json").path
            let result = await runTool(["record", "--sut", adapter, "--release", "2.0", "--out", path, "--recorded-on", "2026-11-28", "--seed", "7", "--no-progress"])
            #expect(result.status == 0, "\(result.err)")
            files.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(files[0] == files[1])
        let release = try RecordedRelease.decode(Array(files[0]), file: "0.json")
        #expect(release.protocolVersion == 2 && !release.submissions.isEmpty)
        #expect(files[0].count <= RecordedRelease.maxFileBytes && release.requestCount <= RecordedRelease.maxRequests)
    }

    @Test("nothing to check is never a pass: a corrupt, edited, newer or other-contract file, an empty or missing directory: exit 2, one line naming it")
    func badReleaseDirectories() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-releases-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func gate(_ path: String) async -> (status: Int32, err: String) {
            let result = await runTool(["can-i-deploy", "--base-url", "http://127.0.0.1:9", "--releases", path, "--admin-token", "t", "--no-progress"])
            return (result.status, result.err)
        }
        var result = await gate(directory.appendingPathComponent("missing").path)
        #expect(result.status == 2 && result.err.contains("missing: no such directory"), "\(result.err)")
        result = await gate(directory.path)
        #expect(result.status == 2 && result.err.contains("holds no release file"), "\(result.err)")
        let source = try await builds().appendingPathComponent("2.0.json")
        let text = try String(contentsOf: source, encoding: .utf8)
        let file = directory.appendingPathComponent("2.0.json")
        for (edit, expected) in [
            (text.replacingOccurrences(of: "\"status\":201", with: "\"status\":400", options: [], range: text.range(of: "\"status\":201")), "2.0.json: checksum: does not match"),
            (String(text.prefix(200)), "2.0.json: byte "),
            (text.replacingOccurrences(of: "\"formatVersion\": 1", with: "\"formatVersion\": 9"), "2.0.json: formatVersion: format version 9 is newer"),
            (text.replacingOccurrences(of: "\"contractVersion\": \"v1\"", with: "\"contractVersion\": \"v0\""), "2.0.json: checksum"),
        ] {
            try edit.write(to: file, atomically: true, encoding: .utf8)
            result = await gate(directory.path)
            #expect(result.status == 2, "\(expected): \(result.err)")
            #expect(result.err.contains(expected), "\(result.err)")
            #expect(result.err.split(separator: "\n").count == 1, "\(result.err)")
        }
    }

    @Test("a release whose support ended is listed, not checked; its file stays")
    func supportEnded() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-releases-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try await builds()
        for name in ["1.0", "2.0"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent("\(name).json"), to: directory.appendingPathComponent("\(name).json"))
        }
        let ended = await runTool(["release-support-ended", "--releases", directory.path, "--release", "1.0", "--on", "2026-12-01"])
        #expect(ended.status == 0, "\(ended.err)")
        let result = try await HistoricBuilds.verdicts(directory, changes: [.nullIslandRefused])
        #expect(result.verdicts == ["1.0": "support ended", "2.0": "breaks"])
        let unknown = await runTool(["release-support-ended", "--releases", directory.path, "--release", "0.9"])
        #expect(unknown.status == 2 && unknown.err.contains("no release \"0.9\""))
    }

    @Test("a build recorded through the Python adapter gets the verdicts the example adapter's recording gets")
    func pythonParity() async throws {
        guard let python = PythonAdapter.python else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("python3 is needed for the Python adapter's recording") }
            return
        }
        let swiftBuilds = try await builds()
        let pythonBuilds = try await HistoricBuilds.record(adapter: "\(python) \(PythonAdapter.script)")
        defer { try? FileManager.default.removeItem(at: pythonBuilds) }
        for change in ["none", MockChange.breedRemoved.name, MockChange.statusFoundRenamedSighted.name, MockChange.nullIslandRefused.name,
                       MockChange.ageMax30.name, MockChange.emailRequired.name] {
            let changes: Set<MockChange> = change == "none" ? [] : [try #require(MockChange(rawValue: change))]
            let fromPython = try await HistoricBuilds.verdicts(pythonBuilds, changes: changes).verdicts
            let fromSwift = try await HistoricBuilds.verdicts(swiftBuilds, changes: changes).verdicts
            #expect(fromPython == fromSwift, "change \(change)")
            #expect(fromPython == HistoricBuilds.expected[change], "change \(change)")
        }
    }

    @Test("without an admin token can-i-deploy sends nothing: it could not delete what it creates")
    func needsAdminToken() async throws {
        let words = ["--base-url", "http://127.0.0.1:9", "--releases", try await builds().path, "--no-progress"]
        let command = try CanIDeployCommand(try ParsedArguments(words, for: CanIDeployCommand.spec), arguments: words)
        let backend = MockBackend()
        await #expect(throws: RunnerError.self) {
            _ = try await command.execute(transport: InProcessTransport(backend: backend), output: CapturedOutput().runner)
        }
        #expect(backend.storedAnnouncementCount == 0)
    }
}
