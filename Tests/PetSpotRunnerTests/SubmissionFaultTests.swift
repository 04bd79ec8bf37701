import Foundation
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotHTTP
import PetSpotModel
import PetSpotReport
import PetSpotRuntime
@testable import PetSpotSubmissionFaults
import PetSpotTestSupport
import Testing

/// A valid Missing report made now, with a microchip input the executor replaces.
func validMissingCase() -> FlowCase {
    let context = ReportContext(timeZone: TimeZone(identifier: "Europe/Warsaw")!, now: Date())
    let inputs = FlowGenerators.inputs(.missing, .valid, context: context).samples(count: 1, seed: 11)[0]
    return FlowCase(flow: .missing, inputs: inputs, context: context)
}

@Suite("submission under faults", .serialized, .onOwnThreads)
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

    @Test("the proxy applies each fault to one request, and the log says what reached the backend and the app", arguments: [
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

    @Test("an answer the app leaves unread when it closes the connection (a reset) is logged unread; one it reads, answered")
    func unreadAnswer() async throws {
        let rig = try Rig()
        defer { rig.proxy.stop() }
        rig.proxy.begin(faults: [], holdLimit: 10)
        let port = rig.url.port ?? 0, create = Self.raw(Self.createRequest())
        // The proxy waits 200 ms after its write for the close: a loaded machine can make this
        // test close later, when the answer counts as read. So up to 5 tries, until one is unread.
        var tries = 0
        while tries < 5 {
            tries += 1
            let connection = try RawHTTPConnection(port: port, timeout: 30)
            try connection.write(create)
            // Until the answer is there (a hang guard of 30 s, not a measure), then closed unread.
            #expect(Socket.wait(connection.descriptor, events: Int16(POLLIN), timeoutMilliseconds: 30_000))
            connection.close()
            if case .unread(201, _) = rig.proxy.exchanges(settlingFor: 30).last?.delivery { break }
        }
        let log = rig.proxy.exchanges(settlingFor: 30)
        guard case .unread(201, _) = log.last?.delivery else {
            Issue.record("no try was logged unread: \(log.map(\.delivery))")
            return
        }
        let reading = try RawHTTPConnection(port: port, timeout: 30)
        try reading.write(create)
        #expect(try reading.readResponse()?.status == 201)
        reading.close()
        #expect(rig.proxy.exchanges(settlingFor: 30).last?.delivery == .answered(status: 201))
    }

    @Test("a connection the app opens and closes without sending a byte counts as abandoned, and is no request")
    func abandonedConnection() throws {
        let rig = try Rig()
        defer { rig.proxy.stop() }
        rig.proxy.begin(faults: [], holdLimit: 10)
        let connection = try RawHTTPConnection(port: rig.url.port ?? 0, timeout: 30)
        connection.close()
        #expect(eventually { rig.proxy.abandonedConnections == 1 })
        #expect(rig.proxy.exchanges(settlingFor: 1).isEmpty)
        rig.proxy.begin(faults: [], holdLimit: 10)
        #expect(rig.proxy.abandonedConnections == 0, "each scenario counts its own")
    }

    @Test("a run is disturbed when the app gave up on a healthy request, or left its answer unread or its connection silent and showed the no-connection alert; not when it went on or showed the alert for the status")
    func disturbance() {
        let flowCase = validMissingCase()
        func run(_ delivery: Delivery?, fault: NetworkFault? = nil, answer: SubmissionAnswer, abandoned: Int = 0) -> ScenarioRun {
            var run = ScenarioRun(
                scenario: SubmissionScenario(flowCase: flowCase, microchip: nil, faults: [fault], cancels: []), flowCase: flowCase,
                microchip: nil, photo: Data(), requestTimeout: 0.3)
            let exchanges = delivery.map { [ProxiedExchange(
                index: 0, fault: fault, request: Self.createRequest(), backendAnswer: nil, sentAnswer: nil, delivery: $0)] } ?? []
            run.turns = [ScenarioTurn(
                action: .submit, turn: AppTurn(answer: .success(answer)), exchanges: exchanges, requestsBefore: 0, abandonedConnections: abandoned)]
            return run
        }
        let alert = SubmissionAnswer.alert(message: SubmissionProperty.noConnection)
        #expect(run(.gaveUp(afterSeconds: 0.001), answer: alert).isDisturbed)
        #expect(run(.unread(status: 201, afterSeconds: 0.001), answer: alert).isDisturbed)
        #expect(!run(.unread(status: 201, afterSeconds: 0.001), answer: .submitted(managementPassword: "p")).isDisturbed)
        // urllib's callers close a 409's answer unread, and say what a 409 means.
        #expect(!run(.unread(status: 409, afterSeconds: 0.001), answer: .alert(message: SubmissionProperty.wentWrong)).isDisturbed)
        #expect(!run(.unread(status: 500, afterSeconds: 0.001), fault: .answer500, answer: alert).isDisturbed)
        #expect(!run(.answered(status: 201), answer: alert).isDisturbed)
        // A connection opened and closed before a byte was sent, then the no-connection alert.
        #expect(run(nil, answer: alert, abandoned: 1).isDisturbed)
        #expect(!run(nil, answer: .alert(message: SubmissionProperty.wentWrong), abandoned: 1).isDisturbed)
        #expect(!run(.answered(status: 201), answer: .submitted(managementPassword: "p"), abandoned: 1).isDisturbed)
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
        // Request 1 (the create) is healthy, request 2 (the upload) is dropped.
        let scenario = SubmissionScenario(flowCase: validMissingCase(), microchip: .digits, faults: [nil, .dropRequest], cancels: [])
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
        let scenario = SubmissionScenario(flowCase: validMissingCase(), microchip: nil, faults: [.loseAnswer], cancels: [true])
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
        #expect(Set(contracts.compactMap { $0["name"]?.stringValue }) == Set(SubmissionFaultContracts.scenarioContracts))
        #expect(contracts.allSatisfy { $0["status"] == "passed" }, "\(contracts)")
        let summary = group["summary"]?.stringValue ?? ""
        let classes = SubmissionInputClass.allCases.count
        #expect(summary.contains("input classes sent again after a failure: \(classes) of \(classes)"), "\(summary)")
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

    // MARK: Requests, not connections; bounded holding

    /// A raw request to the proxy, serialized.
    static func raw(_ request: TransportRequest) -> [UInt8] {
        var headers = HTTPHeaders()
        for header in request.headers { headers.add(header.name, header.value) }
        return RawHTTPConnection.serialize(HTTPRequest(method: request.method, target: request.path, headers: headers, body: [UInt8](request.body)), host: "127.0.0.1")
    }

    @Test("a connection that sends nothing takes no fault, is not logged and is not waited for; the request after it meets the fault")
    func silentConnection() async throws {
        let rig = try Rig()
        defer { rig.proxy.stop() }
        rig.proxy.begin(faults: [.answer503], holdLimit: 10)
        let silent = try RawHTTPConnection(port: rig.url.port ?? 0, timeout: 30)
        defer { silent.close() }
        // The silent connection is accepted first (it is open before the request is sent).
        while rig.proxy.load.openConnections < 1 { try await Task.sleep(for: .milliseconds(5)) }
        let answer = await rig.send(Self.createRequest(), timeout: 30)
        #expect((try? answer.get().status) == 503, "the fault went to the request: \(answer)")
        // Settling waits for requests only: it returns while the silent connection is still open.
        let log = rig.proxy.exchanges(settlingFor: 600)
        #expect(log.map(\.fault) == [.answer503], "\(log.map(\.fault))")
        #expect(try !silent.isClosedByPeer(waitSeconds: 0), "the proxy closed the silent connection (it waited for it)")
        #expect(rig.backend.storedAnnouncementCount == 0)
    }

    @Test("a held answer is held until the app gives up; an app that never does meets the hold limit")
    func heldUntilTheAppGivesUp() async throws {
        let rig = try Rig()
        defer { rig.proxy.stop() }
        // An app with a 2 s time-out, held past the old fixed limit of the default run (2.3 s) or not:
        // the proxy waits for the app, however long it was told to wait (up to the limit).
        rig.proxy.begin(faults: [.holdPastTimeout], holdLimit: 60)
        let gaveUp = await rig.send(Self.createRequest(), timeout: 2)
        #expect(throws: TransportError.self) { try gaveUp.get() }
        let first = rig.proxy.exchanges(settlingFor: 120)
        try #require(first.count == 1)
        guard case .gaveUp(let seconds) = first[0].delivery else {
            Issue.record("the app's close was not seen: \(first[0].delivery)")
            return
        }
        #expect(seconds >= 1.5, "the app gave up after its 2 s time-out, not \(seconds) s")
        // An app that waits 60 s: the proxy closes the connection at the limit (1 s here).
        rig.proxy.begin(faults: [.holdPastTimeout], holdLimit: 1)
        let closed = await rig.send(Self.createRequest(), timeout: 60)
        #expect(throws: TransportError.self) { try closed.get() }
        let second = rig.proxy.exchanges(settlingFor: 120)
        try #require(second.count == 1)
        guard case .outwaited(let limit) = second[0].delivery else {
            Issue.record("expected the proxy to close the held connection at its limit: \(second[0].delivery)")
            return
        }
        #expect(limit >= 1)
    }

    @Test("the hold limit is far past the wait an app is allowed, and the allowance past the time-out given", arguments: [0.05, 0.3, 2, 4, 60])
    func holdLimits(timeout: Double) {
        let allowed = ScenarioExecutor.longestAllowedWait(requestTimeout: timeout)
        #expect(allowed > timeout + 0.5)
        #expect(ScenarioExecutor.holdLimit(requestTimeout: timeout) >= max(4 * timeout, timeout + 10))
        #expect(ScenarioExecutor.holdLimit(requestTimeout: timeout) > allowed)
    }

    @Test("the proxy keeps at most 32 connections open, closing silent ones to make room, and still serves a request")
    func connectionCap() async throws {
        let rig = try Rig()
        defer { rig.proxy.stop() }
        rig.proxy.begin(faults: [], holdLimit: 10)
        var silent: [RawHTTPConnection] = []
        defer { for connection in silent { connection.close() } }
        for _ in 0..<40 { silent.append(try RawHTTPConnection(port: rig.url.port ?? 0, timeout: 30)) }
        // Eight of the forty silent connections are closed to make room (a hang guard, not a measure).
        let deadline = ContinuousClock.now + .seconds(120)
        while rig.proxy.load.silentConnections < 8 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(rig.proxy.load.silentConnections == 8)
        let answer = await rig.send(BackendTarget.getRequest("/api/health"), timeout: 60)
        #expect((try? answer.get().status) == 200)
        #expect(rig.proxy.load.peakOpenConnections <= FaultProxy.maxOpenConnections, "\(rig.proxy.load)")
        #expect(rig.proxy.exchanges(settlingFor: 60).count == 1)
    }

    @Test("request bodies over 64 KiB are read within the body budget, one of the largest at a time; a body over the limit is answered 413 unread")
    func bodyBudget() async throws {
        let rig = try Rig()
        defer { rig.proxy.stop() }
        rig.proxy.begin(faults: [], holdLimit: 10)
        // Four bodies of 6 MiB: together over the 21 MiB budget, so one of them waits for room.
        let size = 6 * 1024 * 1024
        let port = rig.url.port ?? 0
        let started = Locked(0)
        let statuses = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    await onOwnThread {
                        guard let connection = try? RawHTTPConnection(port: port, timeout: 120) else { return nil }
                        defer { connection.close() }
                        let body = Data(repeating: UInt8(ascii: "x"), count: size)
                        // A photo upload (a create over 100 KB is answered 413 unread).
                        let request = TransportRequest(
                            method: "POST", path: "/api/v1/announcements/00000000-0000-4000-8000-000000000000/photos",
                            headers: [("Content-Type", "image/jpeg")], body: body)
                        let bytes = Self.raw(request)
                        // The head and a little of the body (it fits the socket's buffer, so no write blocks), then,
                        // once all four have sent theirs, the rest: every proxy thread has read a head and asked the
                        // budget before any body is whole (a hang guard of 60 s, not a measure).
                        let opening = 16 * 1024
                        guard (try? connection.write(Array(bytes[..<opening]))) != nil else { return nil }
                        started.withLock { $0 += 1 }
                        let deadline = ContinuousClock.now + .seconds(60)
                        while started.withLock({ $0 }) < 4 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
                        guard (try? connection.write(Array(bytes[opening...]))) != nil else { return nil }
                        return (try? connection.readResponse())??.status
                    }
                }
            }
            var statuses: [Int?] = []
            for await status in group { statuses.append(status) }
            return statuses
        }
        #expect(statuses.allSatisfy { $0 != nil && $0 == statuses[0] }, "each upload was read and forwarded: \(statuses)")
        let load = rig.proxy.load
        #expect(load.peakBodyBytes > 0 && load.peakBodyBytes <= FaultProxy.bodyBudget, "\(load)")
        #expect(load.bodyBytes == 0, "every reservation was given back: \(load)")
        // Announced over the backend's limit (an upload of 30 MiB, a create of 200 KB): answered 413 at
        // once, the body never read or forwarded.
        for (path, size) in [("/api/v1/announcements/00000000-0000-4000-8000-000000000000/photos", 30 * 1024 * 1024), ("/api/v1/announcements", 200 * 1024)] {
            rig.proxy.begin(faults: [], holdLimit: 10)
            let connection = try RawHTTPConnection(port: port, timeout: 60)
            defer { connection.close() }
            try connection.write(Array("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(size)\r\n\r\n".utf8))
            let answer = try connection.readResponse()
            #expect(answer?.status == 413, "\(path)")
            let log = rig.proxy.exchanges(settlingFor: 60)
            try #require(log.count == 1)
            #expect(log[0].bodyBytes == size && log[0].backendAnswer == nil && log[0].request?.body.isEmpty == true, "\(path)")
        }
    }

    // MARK: The scenarios' reports

    @Test("every report the scenarios draw is valid, in every microchip spelling")
    func reportsAreValid() {
        let scenarios = SubmissionScenario.generator(now: Date()).samples(count: 300, seed: 17)
        #expect(scenarios.count == 300)
        for scenario in scenarios {
            var flowCase = scenario.flowCase
            flowCase.inputs[text: .chipNumber] = scenario.microchip?.typed("981234567000001")
            guard case .submitted = ReferenceModel.evaluate(flow: flowCase.flow, inputs: flowCase.inputs, context: flowCase.context) else {
                Issue.record("refused: \(flowCase)")
                return
            }
        }
    }

    @Test("the first scenarios of every seed plant every input class, each with a fault on the create or the upload (a retry follows)", arguments: 1...10)
    func scheduledClasses(seed: Int) {
        let classes = SubmissionInputClass.allCases
        let scenarios = SubmissionScenario.generator(now: Date()).samples(count: classes.count, seed: UInt64(seed))
        var planted: Set<SubmissionInputClass> = []
        for scenario in scenarios {
            var flowCase = scenario.flowCase
            flowCase.inputs[text: .chipNumber] = scenario.microchip?.typed("981234567000001")
            let failed = scenario.faults.firstIndex { $0 != nil }
            #expect(failed == 0 || failed == 1, "no fault on the create or on the upload after it: \(scenario.faults)")
            planted.formUnion(SubmissionInputClass.classes(of: flowCase))
        }
        #expect(planted == Set(classes), "missing: \(Set(classes).subtracting(planted).map(\.rawValue))")
    }

    @Test("an input class is read off what was typed", arguments: [
        ("breed", "  Beagle ", SubmissionInputClass.paddedText), ("breed", "   ", .blankOptional), ("latitude", " 52.1", .paddedNumber),
        ("latitude", "5.21e1", .paddedNumber), ("phone", "(202) 555-0143", .phoneDigits), ("chipNumber", "98123-45670-00001", .chipDigits),
        ("description", String(repeating: "spot ", count: 120), .cappedText),
    ])
    func classifies(field: String, typed: String, expected: SubmissionInputClass) throws {
        var flowCase = validMissingCase()
        let reportField = try #require(ReportField.allCases.first { $0.name == field })
        flowCase.inputs[text: reportField] = typed
        #expect(SubmissionInputClass.classes(of: flowCase).contains(expected))
        flowCase.inputs[text: reportField] = nil
        #expect(!SubmissionInputClass.classes(of: flowCase).contains(expected) || expected == .optionalsAbsent)
    }

    // MARK: The group's time bound, the time-out property

    /// A backend target on a fresh strict mock, a proxy in front of it, an executor for `timeout`.
    /// (`forwardDelay`: seconds the backend takes to answer each request it is sent.)
    static func executor(timeout: Double, forwardDelay: Double = 0) throws -> (ScenarioExecutor, FaultProxy) {
        let backend = MockBackend(profile: .strict)
        let target = BackendTarget(
            name: "mock", transport: BudgetedTransport(InProcessTransport(backend: backend), limit: .max), profile: .strict,
            adminToken: backend.adminToken, microchips: MicrochipSequence(), concurrency: 1, submissions: { [] })
        let proxy = FaultProxy(forward: { request in
            if forwardDelay > 0 { Thread.sleep(forTimeInterval: forwardDelay) }
            return target.sendOutsideBudgetNow(request)
        })
        let url = try proxy.start()
        return (ScenarioExecutor(proxy: proxy, proxyURL: url, target: target, requestTimeout: timeout, photoDirectory: FileManager.default.temporaryDirectory), proxy)
    }

    /// The reference model as an app that waits `seconds` before each submit, or that ignores the
    /// request time-out it is given and waits `ignoringTimeoutFor` seconds for every answer.
    struct ReferenceVariant: SubmittingApp {
        let reference: ReferenceSubmittingApp
        var delay = 0.0
        var ignoringTimeoutFor: Double?
        var name: String { "a variant of the reference model" }

        func submit(_ flowCase: FlowCase, over network: SubmissionNetwork) -> (report: Int, turn: AppTurn) {
            Thread.sleep(forTimeInterval: delay)
            var network = network
            if let seconds = ignoringTimeoutFor { network.requestTimeout = seconds }
            return reference.submit(flowCase, over: network)
        }
        func tryAgain(report: Int) -> AppTurn { reference.tryAgain(report: report) }
        func cancel(report: Int) -> AppTurn { reference.cancel(report: report) }
    }

    @Test("an app that waits past the time-out it was given breaks the time-out property, naming the wait and the time-out")
    func ignoredTimeout() throws {
        let (executor, proxy) = try Self.executor(timeout: 0.3)
        defer { proxy.stop() }
        let scenario = SubmissionScenario(flowCase: validMissingCase(), microchip: nil, faults: [.holdPastTimeout], cancels: [])
        let keeping = executor.run(scenario, on: ReferenceSubmittingApp(rule: .spec))
        #expect(SubmissionProperty.problems(keeping)[.timeout] == nil, "\(SubmissionProperty.problems(keeping))")
        let app = ReferenceVariant(reference: ReferenceSubmittingApp(rule: .spec, longestTimeout: 60), ignoringTimeoutFor: 60)
        let waiting = executor.run(scenario, on: app)
        let problem = try #require(SubmissionProperty.problems(waiting)[.timeout])
        #expect(problem.contains("still waited for the held answer to request 1 (POST /api/v1/announcements (create)) after 10.3"), "\(problem)")
        #expect(problem.contains("request time-out of 0.3 s"), "\(problem)")
        #expect(SubmissionProperty.problems(waiting)[.alert] == nil, "the alert is right: only the wait is wrong")
    }

    @Test("an app that gives up on a held answer long before the time-out it was given breaks the time-out property")
    func hastyTimeout() throws {
        // Given 3 s, the app waits 10 ms: time to send its request, not to wait. A loaded machine
        // can keep it from sending that fast (then the proxy holds nothing): up to 5 runs.
        let (executor, proxy) = try Self.executor(timeout: 3)
        defer { proxy.stop() }
        let scenario = SubmissionScenario(flowCase: validMissingCase(), microchip: nil, faults: [.holdPastTimeout], cancels: [])
        let app = ReferenceVariant(reference: ReferenceSubmittingApp(rule: .spec), ignoringTimeoutFor: 0.01)
        var hasty = executor.run(scenario, on: app)
        for _ in 1..<5 where !hasty.exchanges.contains(where: { $0.fault == .holdPastTimeout }) { hasty = executor.run(scenario, on: app) }
        let problem = try #require(SubmissionProperty.problems(hasty)[.timeout])
        #expect(problem.contains("gave up on the held answer to request 1 (POST /api/v1/announcements (create)) after"), "\(problem)")
        #expect(problem.contains("request time-out of 3 s (giving up before 0.300 s is not waiting for it)"), "\(problem)")
        // Run again before it counts (a stall of the machine looks the same once), up to the runs per scenario.
        let (again, repeated) = executor.runUndisturbed(scenario, on: app)
        #expect(!again.gaveUpTooSoon || repeated == ScenarioExecutor.runsPerScenario - 1, "\(repeated) repeated")
    }

    @Test("an app that gives up before healthy answers come is not judged on those scenarios, and the judged contract fails")
    func impatientAppIsNotJudged() throws {
        // The backend takes 0.3 s; the app gives up after 0.03 s, whatever time-out it is given.
        let (executor, proxy) = try Self.executor(timeout: 0.3, forwardDelay: 0.3)
        defer { proxy.stop() }
        let settings = SubmissionSettings(scenarios: 4, rule: .spec, requestTimeout: 0.3, shrinkSeconds: 0)
        let impatient = ReferenceVariant(reference: ReferenceSubmittingApp(rule: .spec), ignoringTimeoutFor: 0.03)
        let check = SubmissionFaultCheck(
            group: SubmissionSettings.groupName, app: impatient, reference: ReferenceSubmittingApp(rule: .spec), appIsReference: false,
            executor: executor, settings: settings, seed: 3, replay: "petspot-contracts check --seed 3", stopSignal: nil, redactor: Redactor(),
            progress: nil)
        let recorder = ContractRecorder()
        check.run(
            recorder: recorder,
            contracts: SubmissionFaultContracts.scenarioContracts)
        let report = recorder.report(command: "check", arguments: [], target: impatient.name, seed: 3, startedAt: Date())
        let group = try #require(report.groups.first { $0.name == SubmissionSettings.groupName })
        let judged = try #require(group.contracts.first { $0.name == SubmissionFaultContracts.judgedContract })
        #expect(judged.status == .failed, "\(group.contracts)")
        let message = try #require(judged.failures.first?.message)
        #expect(message.contains("scenarios could not be judged: in each of their 3 runs the app gave up on a healthy answer"), "\(message)")
        #expect(judged.failures.first?.replay?.contains("--submission-scenario ") == true, "\(judged.failures)")
        #expect(group.summary?.contains("not judged: disturbed in each of their runs") == true, "\(group.summary ?? "")")
        #expect(report.hasFailures)
    }

    @Test("the time bound stops the group: the contracts not reached are skipped with the reason and the bound's contract fails")
    func timeBound() throws {
        let (executor, proxy) = try Self.executor(timeout: 0.3)
        defer { proxy.stop() }
        let settings = SubmissionSettings(scenarios: 3, rule: .spec, requestTimeout: 0.3, shrinkSeconds: 0)
        let bound = SubmissionFaultCheck.timeBound(settings)
        let reference = ReferenceSubmittingApp(rule: .spec)
        // Each submit takes 0.6 of the bound: the third scenario cannot start within it.
        let slow = ReferenceVariant(reference: ReferenceSubmittingApp(rule: .spec), delay: bound * 0.6)
        // The progress line the group draws (a plain line every 5 s off a terminal).
        let written = Locked("")
        let output = RunnerOutput(writingOut: { _ in }, writingError: { text in written.withLock { $0 += text } })
        let progress = ProgressLine(output: output, label: "check", total: 40)
        let check = SubmissionFaultCheck(
            group: SubmissionSettings.groupName, app: slow, reference: reference, appIsReference: false, executor: executor, settings: settings,
            seed: 3, replay: "petspot-contracts check --seed 3", stopSignal: nil, redactor: Redactor(), progress: progress)
        let recorder = ContractRecorder()
        let contracts = SubmissionFaultContracts.scenarioContracts
        check.run(recorder: recorder, contracts: contracts)
        let report = recorder.report(command: "check", arguments: [], target: slow.name, seed: 3, startedAt: Date())
        let group = try #require(report.groups.first { $0.name == SubmissionSettings.groupName })
        let bounded = try #require(group.contracts.first { $0.name == SubmissionFaultContracts.timeBoundContract })
        #expect(bounded.status == .failed, "\(bounded)")
        #expect(bounded.failures.first?.message.contains("time bound of \(ContractReport.plainNumber(bound.rounded())) s") == true, "\(bounded.failures)")
        // None passes on scenarios it never ran: skipped with the reason (or failed, had a loaded
        // machine disturbed a scenario that did run).
        for property in SubmissionProperty.allCases {
            let outcome = try #require(group.contracts.first { $0.name == property.contract })
            let skipped = outcome.status == .skipped && outcome.skipReason?.contains("time bound") == true
            #expect(skipped || outcome.status == .failed, "\(property): \(outcome)")
        }
        #expect(group.contracts.contains { $0.status == .skipped }, "\(group.contracts)")
        // The first scenario ends past 5 s into the group: its progress line is drawn.
        #expect(written.withLock { $0 }.contains("check: submission under faults: 1/3 scenarios"), "\(written.withLock { $0 })")
        #expect(report.hasFailures)
    }

    @Test("the findings are worded for the rule in force", arguments: SubmissionRule.allCases)
    func findingsNameTheRule(rule: SubmissionRule) throws {
        let (executor, proxy) = try Self.executor(timeout: 0.3)
        defer { proxy.stop() }
        let settings = SubmissionSettings(scenarios: 40, rule: rule, requestTimeout: 0.3, shrinkSeconds: 0)
        let reference = ReferenceSubmittingApp(rule: rule)
        let check = SubmissionFaultCheck(
            group: SubmissionSettings.groupName, app: reference, reference: reference, appIsReference: true, executor: executor, settings: settings,
            seed: 5, replay: "petspot-contracts check --seed 5", stopSignal: nil, redactor: Redactor(), progress: nil)
        let recorder = ContractRecorder()
        check.run(recorder: recorder, contracts: SubmissionFaultContracts.scenarioContracts)
        let report = recorder.report(command: "check", arguments: [], target: reference.name, seed: 5, startedAt: Date())
        try #require(!report.findings.isEmpty, "a lost create answer is a finding under either rule")
        let named = rule == .spec ? "under report-flows.md's rule" : "under the later iteration's rule (--submission-rule later"
        for finding in report.findings {
            #expect(finding.message.hasPrefix(named), "\(finding.message)")
            if rule == .later { #expect(!finding.consequence.contains("every Try Again creates again"), "\(finding.consequence)") }
        }
        #expect(!report.consoleText.contains("follows report-flows.md"), "\(report.consoleText)")
    }
}
