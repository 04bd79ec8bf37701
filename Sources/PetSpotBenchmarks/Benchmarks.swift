import Dispatch
import Foundation
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotPropertyEngine
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel
import PetSpotRunner
import PetSpotRuntime
import PetSpotSchema
import PetSpotReport

/// One measured figure: printed as `name: value unit`, one per line.
public struct BenchmarkFigure: Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-friendly name (`flow_pipeline_throughput`).
    public let name: String
    /// The figure, formatted.
    public let value: String
    /// Its unit (`cases/s`, `s`, `ms`).
    public let unit: String

    /// A figure.
    public init(_ name: String, _ value: String, _ unit: String) {
        self.name = name
        self.value = value
        self.unit = unit
    }

    /// `name: value unit`.
    public var description: String { unit.isEmpty ? "\(name): \(value)" : "\(name): \(value) \(unit)" }
}

/// The benchmarks `petspot-contracts bench` ships: the issues' performance targets, measured.
///
/// Every benchmark is single-threaded unless it says otherwise and reports through `emit` as it
/// goes, so a long run shows progress. Run them from a release build
/// (`swift run -c release petspot-contracts bench`); debug builds are many times slower.
public enum Benchmarks {
    /// The benchmark groups, in the order `bench` runs them.
    public enum Group: String, CaseIterable, Sendable {
        /// Generate flow inputs, map them to the payload, validate against the contract schema.
        case pipeline
        /// Time to the minimal counterexample of planted bugs.
        case shrinking
        /// Validations per second of a create payload against the create-request schema.
        case validator
        /// Create requests per second on loopback with keep-alive, with latency percentiles.
        case mock
        /// `run`'s backend groups against each planted backend defect of the mock: caught K/N.
        case backendDefects = "backend-defects"
        /// Planted app defects (the example adapter's `--break`) caught by a default `check --sut`,
        /// and the time to the first failure.
        case appDefects = "app-defects"
        /// Planted submission defects (the example adapter's `--break submit-...`) caught by the
        /// submission under faults of a default `check --sut`, over 10 seeds, and the faults shown.
        case submissionDefects = "submission-defects"
        /// The Shrinking Challenge over 100 seeds: found, minimal, evaluations and time per challenge.
        case challenge
        /// Secrets masked in 10 MB of report text, in every encoding: MB/s.
        case redaction
        /// `record` of the three historic builds and `can-i-deploy` of them against a local mock,
        /// unchanged and serving each planted contract change: times, and the expected matrix.
        case releases
        /// A default `run` against `mock --faults delay=20ms:1` (a backend 20 ms away): its time
        /// against the latency bound, requests x 20 ms / concurrency.
        case latency
    }

    /// Runs `groups` for about `seconds` each (the shrink benchmarks run to completion) and
    /// reports every figure through `emit`.
    /// - Throws: When the contract cannot be loaded or compiled, or the mock cannot listen.
    public static func run(_ groups: [Group], seconds: Double, emit: (BenchmarkFigure) -> Void) throws {
        let schemas = try ContractSchemas.shared()
        guard let createRequest = schemas.compiled(.createRequest), let clientPayload = schemas.compiled(.clientPayload) else {
            throw RunnerError.configuration("the contract's create-request or client-payload schema is not loaded", command: "bench")
        }
        let contract = (createRequest: createRequest, clientPayload: clientPayload)
        for group in groups {
            switch group {
            case .pipeline: pipeline(contract: contract, seconds: seconds, emit: emit)
            case .shrinking: shrinking(emit: emit)
            case .validator:
                // The first example of create-request.schema.json: a Missing payload with every
                // field. scripts/compare-jsonschema-rs.sh measures jsonschema-rs on the same one.
                let payload = schemas.documents[.createRequest]["examples"]?[0] ?? .null
                validator(contract: contract, payload: payload, seconds: seconds, emit: emit)
            case .mock: try mock(seconds: seconds, emit: emit)
            case .backendDefects: plantedDefects(emit: emit)
            case .appDefects: try DefectBenchmark.run(emit: emit)
            case .submissionDefects: try SubmissionDefectBenchmark.run(emit: emit)
            case .releases: try ReleaseGateBenchmark.run(emit: emit)
            case .latency: try LatencyBenchmark.run(emit: emit)
            case .challenge: shrinkingChallenge(emit: emit)
            case .redaction: redaction(emit: emit)
            }
        }
    }

    // MARK: Redaction

    /// Masks the secrets of a long run (an admin token, 40 management passwords, their Basic
    /// credentials) in 10 MB of report text: answers with ids, microchips, escaped JSON,
    /// percent-encoded queries and HTML references, some lines echoing a secret in one of its
    /// encodings. Prints the throughput and how many secrets were masked.
    static func redaction(emit: (BenchmarkFigure) -> Void) {
        let store = SecretStore(["petspot-staging-admin-token"])
        var passwords: [String] = []
        for index in 0..<40 {
            let password = String(100_000 + (index * 7_919) % 900_000)
            passwords.append(password)
            store.add(password)
            store.learnCredential("Basic " + Data("3f1e9c2a-\(index):\(password)".utf8).base64EncodedString())
        }
        let redactor = store.redactor
        let plain = [
            #"201 {"id":"3f1e9c2a-0b7d-4e2a-9c1d-7a6b5c4d3e2f","microchipNumber":"987123456001234","status":"MISSING","petName":"Rex & Co \u00e9"}"#,
            "400 {\"error\":{\"code\":\"VALIDATION_ERROR\",\"message\":\"phone must have 9 to 11 digits\",\"field\":\"phone\"}}",
            "GET /api/v1/announcements?status=MISSING&page=2&q=caf%C3%A9+au+lait&sort=-createdAt HTTP/1.1",
            "<p>It&#39;s &quot;Rex&quot; &lt;3 &amp; more</p> seed 12345678901234 took 0.123 s",
        ]
        let secretLines = [
            "Authorization: Basic \(Data("3f1e9c2a-7:\(passwords[7])".utf8).base64EncodedString())",
            #"{"echo":"\u0070etspot-staging-admin-token"}"#,
            "token=PETSPOT%2Dstaging%2dadmin%2Dtoken&x=1",
            "password &#x27;\(passwords[3])&#x27; in html",
        ]
        var text = ""
        var line = 0
        while text.utf8.count < 10_000_000 {
            text += (line % 50 == 49 ? secretLines[(line / 50) % secretLines.count] : plain[line % plain.count]) + "\n"
            line += 1
        }
        let megabytes = Double(text.utf8.count) / 1_000_000
        let start = DispatchTime.now().uptimeNanoseconds
        let scrubbed = redactor.scrub(text)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let masked = scrubbed.components(separatedBy: "******").count - 1
        emit(BenchmarkFigure("redaction_text", format(megabytes, decimals: 1), "MB"))
        emit(BenchmarkFigure("redaction_time", format(seconds, decimals: 3), "s"))
        emit(BenchmarkFigure("redaction_throughput", format(megabytes / seconds, decimals: 1), "MB/s"))
        emit(BenchmarkFigure("redaction_masked", String(masked), "secrets"))
    }

    // MARK: Pipeline

    /// Cases per second of: draw a Missing or Found report (valid input), run it through the
    /// reference model to its payload, validate the payload against the contract's
    /// create-request schema. A second figure validates against the stricter client-payload
    /// schema instead (which includes create-request by reference).
    static func pipeline(contract: (createRequest: CompiledSchema, clientPayload: CompiledSchema), seconds: Double, emit: (BenchmarkFigure) -> Void) {
        for (name, schema) in [("flow_pipeline", contract.createRequest), ("flow_pipeline_client_payload", contract.clientPayload)] {
            let (perSecond, cases, valid) = pipelineThroughput(schema: schema, seconds: seconds)
            emit(BenchmarkFigure("\(name)_throughput", format(perSecond, decimals: 0), "cases/s"))
            emit(BenchmarkFigure("\(name)_cases", String(cases), "cases"))
            emit(BenchmarkFigure("\(name)_valid_payloads", format(100 * Double(valid) / Double(max(1, cases)), decimals: 1), "%"))
        }
    }

    static func pipelineThroughput(schema: CompiledSchema, seconds: Double) -> (perSecond: Double, cases: Int, valid: Int) {
        let generator = FlowGenerators.flowCase(.valid)
        var random = Xoshiro256StarStar(seed: 20_261_121)
        var cases = 0, valid = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let budget = UInt64(seconds * 1_000_000_000)
        var elapsed: UInt64 = 0
        repeat {
            for _ in 0..<500 {
                var testCase = TestCase(random: random.split())
                guard let flowCase = try? generator.draw(&testCase) else { continue }
                cases += 1
                if case .submitted(let payload) = flowCase.referenceOutcome, schema.validity(of: .object(payload)) == .valid {
                    valid += 1
                }
            }
            elapsed = DispatchTime.now().uptimeNanoseconds - start
        } while elapsed < budget
        return (Double(cases) / (Double(elapsed) / 1e9), cases, valid)
    }

    // MARK: Shrinking

    /// A planted bug: a property of submitted payloads that fails on some valid reports.
    struct PlantedBug: Sendable {
        let name: String
        let holds: @Sendable (JSONObject) -> Bool
    }

    /// The planted bugs of the shrinking benchmark: each should shrink to a report with only the required
    /// fields and the simplest characters.
    static let plantedBugs: [PlantedBug] = [
        PlantedBug(name: "phone_never_11_digits") { payload in
            (payload["phone"]?.stringValue ?? "").unicodeScalars.filter { ("0"..."9").contains($0) }.count != 11
        },
        PlantedBug(name: "description_never_500_characters") { payload in
            (payload["description"]?.stringValue ?? "").count != 500
        },
        PlantedBug(name: "microchip_never_15_digits") { payload in
            (payload["microchipNumber"]?.stringValue ?? "").count != 15
        },
    ]

    static func shrinking(emit: (BenchmarkFigure) -> Void) {
        let reports = FlowGenerators.flowCase(.valid).map { flowCase -> (FlowCase, JSONObject) in
            if case .submitted(let payload) = flowCase.referenceOutcome { return (flowCase, payload) }
            return (flowCase, JSONObject())
        }
        for bug in plantedBugs {
            let property = Property(bug.name, reports) { _, payload in bug.holds(payload) }
            var configuration = PropertyConfiguration(cases: 20_000, seed: 20_261_121, readsEnvironment: false)
            configuration.shrinkTimeLimit = .seconds(5)
            let started = DispatchTime.now().uptimeNanoseconds
            let result = property.check(configuration)
            let total = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            guard let failure = result.failure else {
                emit(BenchmarkFigure("shrink_\(bug.name)_found", "no", ""))
                continue
            }
            let shrinkSeconds = Double(failure.shrinkDuration.components.seconds)
                + Double(failure.shrinkDuration.components.attoseconds) / 1e18
            emit(BenchmarkFigure("shrink_\(bug.name)_time", format(shrinkSeconds, decimals: 4), "s"))
            emit(BenchmarkFigure("shrink_\(bug.name)_total_time", format(total, decimals: 4), "s"))
            emit(BenchmarkFigure("shrink_\(bug.name)_replays", String(failure.shrinkAttempts), "replays"))
            emit(BenchmarkFigure("shrink_\(bug.name)_payload", JSONValue.object(failure.shrunk.1).serialized(), ""))
        }
    }

    // MARK: Validator

    static func validator(
        contract: (createRequest: CompiledSchema, clientPayload: CompiledSchema), payload: JSONValue, seconds: Double,
        emit: (BenchmarkFigure) -> Void
    ) {
        let measurement = SchemaBenchmark.measure(contract.createRequest, instance: payload, seconds: seconds)
        emit(BenchmarkFigure("validator_create_request_throughput", format(measurement.perSecond, decimals: 0), "validations/s"))
        emit(BenchmarkFigure("validator_create_request_payload_valid", measurement.instanceIsValid ? "yes" : "no", ""))
        let strict = SchemaBenchmark.measure(contract.clientPayload, instance: payload, seconds: seconds)
        emit(BenchmarkFigure("validator_client_payload_throughput", format(strict.perSecond, decimals: 0), "validations/s"))
    }

    // MARK: Mock

    static func mock(seconds: Double, emit: (BenchmarkFigure) -> Void) throws {
        for connections in [1, 4, 16] {
            let result = try MockBenchmark.createRequestsPerSecond(connections: connections, seconds: seconds)
            let prefix = "mock_create_c\(connections)"
            emit(BenchmarkFigure("\(prefix)_throughput", format(result.requestsPerSecond, decimals: 0), "requests/s"))
            emit(BenchmarkFigure("\(prefix)_latency_p50", format(result.p50, decimals: 3), "ms"))
            emit(BenchmarkFigure("\(prefix)_latency_p90", format(result.p90, decimals: 3), "ms"))
            emit(BenchmarkFigure("\(prefix)_latency_p99", format(result.p99, decimals: 3), "ms"))
            emit(BenchmarkFigure("\(prefix)_latency_p999", format(result.p999, decimals: 3), "ms"))
            emit(BenchmarkFigure("\(prefix)_failures", String(result.failures), "requests"))
        }
    }

    static func format(_ value: Double, decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}

