import Foundation
import PetSpotJSON
@testable import PetSpotReport
import PetSpotSchema
import Testing

/// `docs/report.schema.json`, compiled with this package's validator.
enum ReportSchema {
    static let url = repositoryRoot.appendingPathComponent("docs/report.schema.json")

    static func document() throws -> JSONValue { try JSONValue.parse(Data(contentsOf: url)) }

    static func compiled() throws -> CompiledSchema { try JSONSchema.compile(document()) }

    /// The validation errors of `report`, one line each.
    static func errors(_ report: JSONValue) throws -> [String] {
        try compiled().validate(report).errors.map(\.description)
    }
}

@Suite("the JSON report's schema")
struct ReportSchemaTests {
    @Test("docs/report.schema.json is a valid 2020-12 schema for the current reportVersion")
    func schemaIsValid() throws {
        let document = try ReportSchema.document()
        let metaschema = try JSONSchema.compile(["$ref": .string(SchemaRegistry.draft202012MetaschemaURI)])
        #expect(metaschema.validate(document).errors.map(\.description) == [])
        #expect(document["properties"]?["reportVersion"]?["const"] == .number(JSONNumber(ContractReport.reportVersion)))
    }

    @Test("a passing check's report validates", .timeLimit(.minutes(30)))
    func passingCheck() async throws {
        let run = try await ReportRuns.passingCheck.value
        #expect(run.status == 0, "\(run.out)")
        #expect(try ReportSchema.errors(run.json()) == [])
    }

    @Test("a report with a failing scenario's steps and a finding validates")
    func scenarioReport() throws {
        #expect(try ReportSchema.errors(ReportTests.scenarioReport().json) == [])
    }

    @Test("a failing adapter run's report validates, and its failures carry the run's seed", .timeLimit(.minutes(30)))
    func failingAdapter() async throws {
        let run = try await ReportRuns.failingAdapter.value
        #expect(run.status == 1, "\(run.out)")
        let report = try run.json()
        #expect(try ReportSchema.errors(report) == [])
        let failures = Self.failures(report)
        #expect(!failures.isEmpty)
        for failure in failures {
            #expect(failure["seed"] == report["seed"], "\(failure["message"] ?? nil)")
            #expect(failure["replay"]?.stringValue?.contains("--seed 7") == true)
        }
        #expect(report["replay"]?.stringValue?.hasPrefix("petspot-contracts check --seed 7") == true)
    }

    @Test("a failing run's report (hostile answers, leftovers) validates", .timeLimit(.minutes(30)))
    func failingRun() async throws {
        let run = try await ReportRuns.hostileRun.value
        #expect(run.status == 1, "\(run.out)")
        let report = try run.json()
        #expect(try ReportSchema.errors(report) == [])
        #expect(report["leftovers"]?.arrayValue?.isEmpty == false)
        #expect(Self.failures(report).allSatisfy { $0["seed"] == "99" })
    }

    @Test("the schema refuses reports that break it", arguments: [
        ("reportVersion", "an older version"), ("seed", "a numeric seed"), ("extra", "an unknown key"),
        ("failureSeed", "a replayable failure without its seed"), ("status", "a failed contract without a failing case"),
    ])
    func refusesBrokenReports(change: String, what: String) async throws {
        let run = try await ReportRuns.failingAdapter.value
        guard case .object(var report) = try run.json() else { throw ReportFixtureError.notAnObject }
        switch change {
        case "reportVersion": report["reportVersion"] = 1
        case "seed": report["seed"] = 7
        case "extra": report["extra"] = [:]
        case "failureSeed", "status":
            // The first failed contract (with a failure kept, for the seed case).
            guard case .array(var groups) = report["groups"] else { throw ReportFixtureError.notAnObject }
            var done = false
            for g in groups.indices where !done {
                guard case .object(var group) = groups[g], case .array(var contracts) = group["contracts"] else { continue }
                for c in contracts.indices where !done {
                    guard case .object(var contract) = contracts[c], contract["status"] == "failed",
                        case .array(var failures) = contract["failures"]
                    else { continue }
                    if change == "failureSeed" {
                        guard case .object(var failure)? = failures.first else { continue }
                        failure["seed"] = .null
                        failures[0] = .object(failure)
                        contract["failures"] = .array(failures)
                    } else {
                        contract["casesFailed"] = 0
                    }
                    contracts[c] = .object(contract)
                    group["contracts"] = .array(contracts)
                    groups[g] = .object(group)
                    done = true
                }
            }
            #expect(done, "the report has a failed contract to break")
            report["groups"] = .array(groups)
        default: break
        }
        #expect(try !ReportSchema.errors(.object(report)).isEmpty, "the schema accepts \(what)")
    }

    static func failures(_ report: JSONValue) -> [JSONValue] {
        (report["groups"]?.arrayValue ?? []).flatMap { group in
            (group["contracts"]?.arrayValue ?? []).flatMap { $0["failures"]?.arrayValue ?? [] }
        }
    }
}

enum ReportFixtureError: Error {
    case notAnObject
}
