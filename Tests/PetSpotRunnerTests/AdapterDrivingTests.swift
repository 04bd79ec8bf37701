import Foundation
import PetSpotJSON
import Testing
@testable import PetSpotRunner

/// The built example adapter, found in the build products directory beside the test bundle.
enum ExampleAdapter {
    static let path: String? = {
        var directories: [URL] = []
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        directories.append(Bundle.main.bundleURL)
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles { directories.append(bundle.bundleURL.deletingLastPathComponent()) }
        for directory in directories {
            let candidate = directory.appendingPathComponent("petspot-example-adapter").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()
}

/// Runs `check` against the example adapter and returns the exit code and the JSON report.
func checkAdapter(_ extra: String = "", options: [String] = []) async throws -> (status: Int32, report: JSONValue, out: String) {
    let adapter = try #require(ExampleAdapter.path, "petspot-example-adapter not found beside the test bundle")
    let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: reportPath) }
    let result = await runTool([
        "check", "--sut", extra.isEmpty ? adapter : "\(adapter) \(extra)", "--seed", "11", "--cases", "150", "--no-mock",
        "--no-progress", "--shrink-seconds", "5", "--report-json", reportPath,
    ] + options)
    let report = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: reportPath)))
    return (result.status, report, result.out)
}

/// Names of the failed contracts in a JSON report.
func failedContracts(_ report: JSONValue) -> Set<String> {
    var names: Set<String> = []
    for group in report["groups"]?.arrayValue ?? [] {
        for contract in group["contracts"]?.arrayValue ?? [] where contract["status"] == "failed" {
            if let name = contract["name"]?.stringValue { names.insert(name) }
        }
    }
    return names
}

@Suite("adapter driving", .serialized)
struct AdapterDrivingTests {
    @Test("the example adapter passes every flow contract")
    func examplePasses() async throws {
        let result = try await checkAdapter()
        #expect(result.status == 0, "\(result.out)")
        #expect(failedContracts(result.report).isEmpty)
        // 150 cases × 5 flow contracts, plus one case per kept regression.
        let regressions = try ContractSchemas.shared().documents.regressions.cases.count
        #expect(result.report["summary"]?["casesRun"] == .number(JSONNumber(750 + regressions)))
    }

    @Test("listing blocked fields in another order is not a failure (fields compare as sets)")
    func fieldsAreSets() async throws {
        let result = try await checkAdapter("--break shuffle-fields")
        #expect(result.status == 0, "\(result.out)")
    }

    @Test("each broken mapping fails with exit 1 and the right contract named", arguments: [
        ("status-lowercase", FlowAnswerChecks.statusContract),
        ("leak-caregiver-phone", FlowAnswerChecks.nothingExtraContract),
        ("empty-breed", FlowAnswerChecks.nothingExtraContract),
        ("drop-email", FlowAnswerChecks.sameAsReferenceContract),
        ("untrimmed-email", FlowAnswerChecks.sameAsReferenceContract),
        ("crash-on-id 5", FlowAnswerChecks.protocolContract),
        ("garbage", FlowAnswerChecks.protocolContract),
        ("wrong-id", FlowAnswerChecks.protocolContract),
    ])
    func brokenMapping(mode: String, contract: String) async throws {
        let result = try await checkAdapter("--break \(mode)")
        #expect(result.status == 1)
        #expect(failedContracts(result.report).contains(contract), "\(mode): \(failedContracts(result.report))")
        #expect(result.out.contains("replay: petspot-contracts check --seed 11"))
    }

    @Test("a broken mapping is shrunk to a small input and printed with both answers")
    func shrinksFailures() async throws {
        let result = try await checkAdapter("--break status-lowercase")
        let status = try #require(result.report["groups"]?[0]?["contracts"]?.arrayValue?.first { $0["name"]?.stringValue == FlowAnswerChecks.statusContract })
        let failure = try #require(status["failures"]?[0])
        let shrunk = try #require(failure["shrunkInput"]?["inputs"]?.objectValue)
        // The shrunk case keeps only what a submission needs, with the simplest values.
        #expect(shrunk["chipNumber"] == nil || shrunk["chipNumber"] == "")
        #expect(failure["actual"]?.stringValue?.contains("\"status\":\"") == true)
        #expect(failure["expected"]?.stringValue?.contains("reference model answers") == true)
        #expect(failure["seed"] == "11")
    }

    @Test("an adapter that hangs times out, is restarted, then given up")
    func slowAdapter() async throws {
        let start = ContinuousClock.now
        let result = try await checkAdapter("--break slow", options: ["--sut-timeout", "0.2"])
        #expect(result.status == 1)
        // The protocol contract fails; so do the kept flow regressions, which a given-up adapter
        // answers no more.
        let failed = failedContracts(result.report)
        #expect(failed.contains(FlowAnswerChecks.protocolContract))
        #expect(failed.subtracting([FlowAnswerChecks.protocolContract]).allSatisfy { $0.contains("(kept ") })
        #expect(result.out.contains("did not answer within 0.200 s"))
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test("a command that cannot run is a configuration error (exit 2)")
    func missingCommand() async {
        let result = await runTool(["check", "--sut", "/nonexistent/adapter-binary", "--cases", "3", "--no-mock", "--no-progress"])
        #expect(result.status == 2)
        #expect(result.err.contains("could not be run"))
    }

    @Test("answers are decoded strictly")
    func answerDecoding() {
        #expect(throws: AdapterProtocolError.wrongId(expected: 1, actual: 2)) {
            try AdapterAnswer(line: #"{"v":1,"id":2,"outcome":"blocked","step":"photo","fields":[]}"#, expectedId: 1)
        }
        #expect(throws: AdapterProtocolError.self) { try AdapterAnswer(line: #"{"v":2,"id":1,"outcome":"blocked","step":"photo","fields":[]}"#, expectedId: 1) }
        #expect(throws: AdapterProtocolError.self) { try AdapterAnswer(line: #"{"v":1,"id":1,"outcome":"submitted"}"#, expectedId: 1) }
        #expect(throws: AdapterProtocolError.self) { try AdapterAnswer(line: #"{"v":1,"id":1,"outcome":"blocked","step":"photo","fields":[1]}"#, expectedId: 1) }
        #expect(throws: AdapterProtocolError.self) { try AdapterAnswer(line: "[1,2]", expectedId: 1) }
        let answer = try? AdapterAnswer(line: #"{"v":1,"id":3,"outcome":"blocked","step":"photo","fields":["photo"]}"#, expectedId: 3)
        #expect(answer == .blocked(step: "photo", fields: ["photo"]))
    }
}
