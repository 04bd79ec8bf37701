import Foundation
import PetSpotAdapterDriving
import PetSpotContractGroups
import PetSpotHTTPTestSupport
import PetSpotJSON
import PetSpotPlantedDefects
import PetSpotSubmissionFaults
import PetSpotProcess
import PetSpotTestSupport
import Testing

/// The example adapter's planted submission defects (`--list-defects` rows of field `submission`,
/// whose third column names the property each breaks), each under the submission under faults
/// of a default `check --sut`.
enum SubmissionDefectList {
    static let adapter = BuiltProduct.path("petspot-example-adapter") ?? "petspot-example-adapter"

    /// `name` and the property it breaks.
    static let all: [(name: String, property: String)] = {
        guard let listing = try? ChildProcess.run(adapter, ["--list-defects"]) else { return [] }
        return listing.outputText.split(separator: "\n").compactMap { line in
            let columns = line.split(separator: "\t").map(String.init)
            return columns.count >= 3 && columns[1] == "submission" ? (columns[0], columns[2]) : nil
        }
    }()
}

@Suite("planted submission defects", .onOwnThreads)
struct SubmissionDefectTests {
    /// The defaults with a 1 s request time-out: these tests are about what the app does, and a
    /// machine loaded by the rest of the suite and four busy loops can delay a healthy answer
    /// past the default 0.3 s in every attempt of a scenario (beside four busy loops, two of these
    /// cases failed so: one not reached within the group's time bound, one a healthy create the
    /// app gave up on). The bench (`--filter submission-defects`) keeps the default.
    static let settings: SubmissionSettings = {
        var settings = SubmissionSettings.defaults
        settings.requestTimeout = 1
        return settings
    }()

    @Test("the example adapter lists at least 8 submission defects, each naming a property")
    func listed() {
        #expect(SubmissionDefectList.all.count >= 8, "\(SubmissionDefectList.all)")
        let properties = Set(SubmissionProperty.allCases.map(\.rawValue))
        for defect in SubmissionDefectList.all { #expect(properties.contains(defect.property), "\(defect)") }
    }

    @Test("the unbroken example adapter passes as an app, with findings against the specification")
    func unbroken() async throws {
        let oracle = AdapterOracle(command: SubmissionDefectList.adapter, timeout: 5)
        defer { oracle.finish() }
        let report = try await SubmissionFaultRun.report(oracle: oracle, seed: 3, settings: Self.settings)
        #expect(SubmissionFaultRun.failedProperties(report).isEmpty, "\(report.consoleText)")
        #expect(!report.findings.isEmpty)
    }

    /// Some of its runs are judged all the same (it closed a connection before sending a byte,
    /// which is no request to the proxy, or read an answer as its time-out fired), and fail a
    /// property. The verdict is red either way.
    @Test("an app that gives up before any answer comes (its time-out read as milliseconds) fails the judged contract")
    func impatientApp() async throws {
        let oracle = AdapterOracle(command: "\(SubmissionDefectList.adapter) --break timeout-in-milliseconds", timeout: 5)
        defer { oracle.finish() }
        let report = try await SubmissionFaultRun.report(oracle: oracle, seed: 1, settings: Self.settings)
        #expect(SubmissionFaultRun.failedContracts(report).contains(SubmissionFaultContracts.judgedContract), "\(report.consoleText)")
        let group = try #require(report.groups.first { $0.name == SubmissionSettings.groupName })
        let judged = try #require(group.contracts.first { $0.name == SubmissionFaultContracts.judgedContract })
        let message = judged.failures.first?.message ?? ""
        #expect(message.contains("the app gave up on a healthy answer") && message.contains("its request time-out is 1 s"), "\(message)")
    }

    @Test("each planted submission defect fails the property it breaks, shrunk to at most 3 faults",
          arguments: SubmissionDefectList.all.map(\.name))
    func caught(defect: String) async throws {
        let listed = SubmissionDefectList.all.filter { $0.name == defect }.map(\.property)
        let property = try #require(listed.first, "\(defect) is not listed")
        let oracle = AdapterOracle(command: "\(SubmissionDefectList.adapter) --break \(defect)", timeout: 5)
        defer { oracle.finish() }
        let report = try await SubmissionFaultRun.report(oracle: oracle, seed: 1, settings: Self.settings)
        let failed = SubmissionFaultRun.failedProperties(report)
        #expect(failed.contains(property), "\(defect) should fail \(property); failed \(failed.sorted())")
        #expect(SubmissionFaultRun.mostFaultsShown(report) <= 3)
    }

    @Test("a retry that sends the untrimmed inputs fails inputs-kept with both values, its report shrunk to the padded text, and its replay line runs that scenario alone")
    func untrimmedRetry() async throws {
        let command = "\(SubmissionDefectList.adapter) --break submit-retry-untrimmed"
        let oracle = AdapterOracle(command: command, timeout: 5)
        defer { oracle.finish() }
        // Shrinking bounded by its replays, not by seconds a loaded machine would cut short.
        var settings = SubmissionSettings.defaults
        settings.shrinkSeconds = 600
        let report = try await SubmissionFaultRun.report(oracle: oracle, seed: 2, settings: settings)
        let group = try #require(report.groups.first { $0.name == SubmissionSettings.groupName })
        let contract = try #require(group.contracts.first { $0.name == SubmissionProperty.inputsKept.contract })
        let failure = try #require(contract.failures.first, "\(report.consoleText)")
        // Both values of the field that differs, e.g. `breed: request 1 sent "Beagle", request 3 sent "  Beagle "`.
        let match = try #require(failure.message.firstMatch(of: /(\w+): request \d+ sent ("[^"]*"), request \d+ sent ("[^"]*")/), "\(failure.message)")
        let first = try JSONValue.parse(String(match.output.2)).stringValue ?? ""
        let again = try JSONValue.parse(String(match.output.3)).stringValue ?? ""
        #expect(first != again && first == again.trimmingCharacters(in: .whitespaces), "\(failure.message)")
        // The report shrank with the faults: one text typed with blanks around it, every other input plain.
        let inputs = try #require(failure.originalInput?["inputs"]?.objectValue, "\(failure)")
        let padded = inputs.keys.filter { key in
            guard let text = inputs[key]?.stringValue else { return false }
            return text != text.trimmingCharacters(in: .whitespaces)
        }
        #expect(padded.count == 1, "\(inputs)")
        #expect(inputs["phone"]?.stringValue?.allSatisfy(\.isNumber) == true, "the phone shrinks to plain digits: \(inputs)")
        #expect(inputs["chipNumber"] == nil || inputs["chipNumber"] == .null, "no microchip: \(inputs)")
        // The replay line names the scenario; replayed, it alone runs and fails the same way.
        let replay = try #require(failure.replay)
        let option = try #require(replay.firstRange(of: /--submission-scenario [0-9.]+/), "\(replay)")
        let choices = String(replay[option].dropFirst("--submission-scenario ".count))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let replayed = await runTool(["check", "--sut", command, "--submission-scenario", choices, "--no-progress", "--report-json", path])
        #expect(replayed.status == 1, "\(replayed.out)")
        let json = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: path)))
        let groups = json["groups"]?.arrayValue ?? []
        #expect(groups.map { $0["name"]?.stringValue } == [SubmissionSettings.groupName], "no other group runs")
        let replayedContract = groups.first?["contracts"]?.arrayValue?.first { $0["name"]?.stringValue == SubmissionProperty.inputsKept.contract }
        #expect(replayedContract?["status"] == "failed" && replayedContract?["casesRun"] == 1, "\(replayedContract ?? .null)")
    }
}
