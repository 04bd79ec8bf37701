import Foundation
import PetSpotContractGroups
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
@testable import PetSpotSubmissionFaults
import Testing

/// A valid Missing report made now, with a microchip input the executor replaces.
func validMissingCase() -> FlowCase {
    let context = ReportContext(timeZone: TimeZone(identifier: "Europe/Warsaw")!, now: Date())
    let inputs = FlowGenerators.inputs(.missing, .valid, context: context).samples(count: 1, seed: 11)[0]
    return FlowCase(flow: .missing, inputs: inputs, context: context)
}

@Suite("submission under faults", .serialized)
struct SubmissionFaultTests {
    /// A strict mock behind a proxy, and a transport to the proxy with a short time-out.
    struct Rig {
        let backend = MockBackend(profile: .strict)
        let proxy: FaultProxy
        let url: URL

        init() throws {
            proxy = FaultProxy(backend: InProcessTransport(backend: backend))
            url = try proxy.start()
        }

        func send(_ request: TransportRequest, timeout: Double = 0.3) async -> Result<TransportResponse, TransportError> {
            do throws(TransportError) {
                return .success(try await RunnerHTTPTransport(baseURL: url, timeout: timeout).send(request))
            } catch {
                return .failure(error)
            }
        }
    }

    static func createRequest() -> TransportRequest {
        let body = try! JSONValue.parse(#"{"species":"DOG","sex":"MALE","lastSeenDate":"2025-06-01","locationLatitude":52.2,"locationLongitude":21.0,"email":"a@example.com","phone":"600700800","status":"MISSING"}"#)
        return BackendTarget.createRequest(body)
    }

    @Test("the proxy applies each fault to one connection, and the log says what reached the backend and the app", arguments: [
        NetworkFault?.none, .refuse, .dropRequest, .loseAnswer, .answer500, .answer503, .holdPastTimeout,
    ])
    func eachFault(fault: NetworkFault?) async throws {
        let rig = try Rig()
        defer { rig.proxy.stop() }
        rig.proxy.begin(faults: [fault], holdLimit: 10)
        // Only the held answer must outlast the request's time-out: the others get 30 s, so a
        // loaded machine cannot time them out.
        let answer = await rig.send(Self.createRequest(), timeout: fault == .holdPastTimeout ? 1 : 30)
        let log = rig.proxy.exchanges(settlingFor: 30)
        try #require(log.count == 1, "\(log.count) connections logged")
        let exchange = log[0]
        #expect(exchange.fault == fault)
        let stored = rig.backend.storedAnnouncementCount
        switch fault {
        case nil:
            #expect((try? answer.get().status) == 201)
            #expect(exchange.delivery == .answered(status: 201))
            #expect(stored == 1)
        case .refuse?:
            #expect(throws: TransportError.self) { try answer.get() }
            #expect(exchange.request == nil && exchange.delivery == .noAnswer && stored == 0)
        case .dropRequest?:
            #expect(throws: TransportError.self) { try answer.get() }
            #expect(exchange.request != nil && exchange.backendAnswer == nil && stored == 0)
        case .loseAnswer?:
            #expect(throws: TransportError.self) { try answer.get() }
            #expect((try? exchange.backendAnswer?.get().status) == 201, "the backend acted on it")
            #expect(exchange.delivery == .noAnswer && stored == 1)
        case .answer500?, .answer503?:
            #expect((try? answer.get().status) == (fault == .answer500 ? 500 : 503))
            #expect(exchange.backendAnswer == nil && stored == 0)
        case .holdPastTimeout?:
            #expect(throws: TransportError.self) { try answer.get() }
            guard case .gaveUp = exchange.delivery else {
                Issue.record("the proxy did not see the app give up: \(exchange.delivery)")
                return
            }
            #expect(stored == 1)
        }
        // The next connection is healthy.
        let after = await rig.send(BackendTarget.getRequest("/api/health"), timeout: 30)
        #expect((try? after.get().status) == 200)
    }

    /// A scenario run on the reference model through a fresh rig.
    static func run(_ scenario: SubmissionScenario, rule: SubmissionRule) throws -> ScenarioRun {
        let backend = MockBackend(profile: .strict)
        let target = BackendTarget(
            name: "mock", transport: BudgetedTransport(InProcessTransport(backend: backend), limit: .max), profile: .strict,
            adminToken: backend.adminToken, microchips: MicrochipSequence(), concurrency: 1, submissions: { [] })
        let proxy = FaultProxy(forward: { target.sendOutsideBudgetNow($0) })
        let url = try proxy.start()
        defer { proxy.stop() }
        let executor = ScenarioExecutor(
            proxy: proxy, proxyURL: url, target: target, requestTimeout: 0.5, photoDirectory: FileManager.default.temporaryDirectory)
        // A loaded machine may delay a healthy answer past the time-out: such runs are repeated.
        let run = executor.runUndisturbed(scenario, on: ReferenceSubmittingApp(rule: rule, longestTimeout: 1), attempts: 5).run
        #expect(backend.storedAnnouncementCount == 0, "the executor deletes what the scenario created")
        return run
    }

    @Test("report-flows.md's rule: a failed upload then Try Again hits 409 with a microchip; the later rule gets through with one announcement")
    func ruleConsequences() throws {
        // Connection 1 (the create) is healthy, connection 2 (the upload) is dropped.
        let scenario = SubmissionScenario(flowCase: validMissingCase(), hasMicrochip: true, faults: [nil, .dropRequest], cancels: [])
        let spec = try Self.run(scenario, rule: .spec)
        let specProblems = SubmissionProperty.problems(spec)
        #expect(specProblems[.getsThrough]?.contains("409") == true, "\(specProblems)")
        #expect(specProblems[.alert] == nil && specProblems[.inputsKept] == nil && specProblems[.leavesFlow] == nil, "\(specProblems)")
        let later = try Self.run(scenario, rule: .later)
        #expect(SubmissionProperty.problems(later).isEmpty, "\(SubmissionProperty.problems(later))")
        #expect(later.created.count == 1)
        guard case .success(.submitted(let password))? = later.turns.last?.turn.answer else {
            Issue.record("the later rule did not get through: \(later.turns.map(\.turn.answer))")
            return
        }
        #expect(password == later.created.first?.password)
    }

    @Test("a lost create answer leaves an announcement the user cannot see, under either rule")
    func lostCreateAnswer() throws {
        let scenario = SubmissionScenario(flowCase: validMissingCase(), hasMicrochip: false, faults: [.loseAnswer], cancels: [true])
        for rule in SubmissionRule.allCases {
            let run = try Self.run(scenario, rule: rule)
            let problems = SubmissionProperty.problems(run)
            #expect(problems.keys.sorted(by: { $0.rawValue < $1.rawValue }) == [.oneAnnouncement], "\(rule): \(problems)")
            #expect(run.turns.map(\.action) == [.submit, .cancel, .tryAgain])
        }
    }

    @Test("check without --sut passes as an app and reports the spec's consequences once each, shrunk")
    func referencePassesWithFindings() async throws {
        let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("submission-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: reportPath) }
        let result = await runTool([
            // Shrinking is bounded by steps; the time limit is only there for a loaded machine.
            "check", "--seed", "5", "--cases", "40", "--budget", "600", "--submission-scenarios", "40", "--shrink-seconds", "120",
            "--no-progress", "--report-json", reportPath,
        ])
        let report = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: reportPath)))
        let group = try #require(report["groups"]?.arrayValue?.first { $0["name"] == "submission under faults" })
        let contracts = group["contracts"]?.arrayValue ?? []
        #expect(contracts.count == SubmissionProperty.allCases.count)
        #expect(contracts.allSatisfy { $0["status"] == "passed" }, "\(contracts)")
        let findings = report["findings"]?.arrayValue ?? []
        let properties = findings.compactMap { $0["property"]?.stringValue }
        #expect(properties.contains(SubmissionProperty.oneAnnouncement.contract), "\(properties)")
        #expect(properties.contains(SubmissionProperty.getsThrough.contract), "\(properties)")
        #expect(Set(properties).count == properties.count, "one finding per property")
        for finding in findings {
            let faults = (finding["steps"]?.arrayValue ?? []).filter { $0["outcome"]?.stringValue?.hasPrefix("fault:") == true }
            #expect((1...3).contains(faults.count), "a finding's scenario shrinks to at most 3 faults: \(faults.count)")
            let message = finding["message"]?.stringValue ?? ""
            #expect(!message.contains("not minimal"), "a finding's scenario shrinks to a minimum: \(message)")
        }
        #expect(result.out.contains("SPEC FINDING 1: [submission under faults]"))
    }

    @Test("a finding shrunk short of a minimum says so")
    func findingShrunkShort() async throws {
        let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("submission-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: reportPath) }
        _ = await runTool([
            "check", "--seed", "5", "--cases", "40", "--budget", "600", "--submission-scenarios", "40", "--shrink-seconds", "0",
            "--no-progress", "--report-json", reportPath,
        ])
        let report = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: reportPath)))
        let messages = (report["findings"]?.arrayValue ?? []).compactMap { $0["message"]?.stringValue }
        #expect(messages.count == 2)
        #expect(messages.allSatisfy { $0.contains("(the scenario shown is not minimal: shrinking stopped after 0 replays") }, "\(messages)")
    }
}
