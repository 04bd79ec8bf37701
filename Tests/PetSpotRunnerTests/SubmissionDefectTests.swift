import Foundation
import PetSpotAdapterDriving
import PetSpotHTTPTestSupport
import PetSpotPlantedDefects
import PetSpotSubmissionFaults
import PetSpotProcess
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

@Suite("planted submission defects")
struct SubmissionDefectTests {
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
        let report = try await SubmissionFaultRun.report(oracle: oracle, seed: 3)
        #expect(SubmissionFaultRun.failedProperties(report).isEmpty, "\(report.consoleText)")
        #expect(!report.findings.isEmpty)
    }

    @Test("each planted submission defect fails the property it breaks, shrunk to at most 3 faults",
          arguments: SubmissionDefectList.all.map(\.name))
    func caught(defect: String) async throws {
        let listed = SubmissionDefectList.all.filter { $0.name == defect }.map(\.property)
        let property = try #require(listed.first, "\(defect) is not listed")
        let oracle = AdapterOracle(command: "\(SubmissionDefectList.adapter) --break \(defect)", timeout: 5)
        defer { oracle.finish() }
        let report = try await SubmissionFaultRun.report(oracle: oracle, seed: 1)
        let failed = SubmissionFaultRun.failedProperties(report)
        #expect(failed.contains(property), "\(defect) should fail \(property); failed \(failed.sorted())")
        #expect(SubmissionFaultRun.mostFaultsShown(report) <= 3)
    }
}
