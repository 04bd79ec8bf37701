import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotHTTP
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import PetSpotPlantedDefects
import PetSpotPropertyEngine
import PetSpotRunner
@testable import PetSpotReport
@testable import PetSpotSequences
import Testing

/// The parts of the stateful group that judge and shrink, on answers made to order, and the
/// judgement of list rows the run did not create.
@Suite("sequences and concurrency: oracle, orders, shrinking")
struct SequenceContractsTests {
    static let chip = "900000000012345"

    static func oracle(_ profile: BackendProfile) throws -> SequenceOracle {
        SequenceOracle(
            profile: profile, schemas: try ContractSchemas.shared(), isOwnRow: { _ in true }, slotLabels: [100: "#1", 200: "#2"],
            chipLabels: [0: "A"], chipNumbers: [0: chip])
    }

    /// A genuine answer of a fresh strict mock to a create with the test's microchip number.
    static func created() throws -> TransportResponse {
        var body = try ContractSchemas.shared().documents.negativeCases.basePayload
        body["microchipNumber"] = .string(chip)
        let answer = MockBackend(clock: { serverClockAhead() }).answer(InProcessTransport.httpRequest(BackendTarget.createRequest(.object(body))))
        return InProcessTransport.transportResponse(answer)
    }

    static func error(_ status: Int, _ code: String, _ message: String, field: String? = nil) -> TransportResponse {
        var error: [(key: String, value: JSONValue)] = [(key: "requestId", value: "r"), (key: "code", value: .string(code)), (key: "message", value: .string(message))]
        if let field { error.append((key: "field", value: .string(field))) }
        return TransportResponse(
            status: status, headers: [(name: "Content-Type", value: "application/json")],
            body: JSONValue.object(JSONObject([(key: "error", value: .object(JSONObject(error)))])).serializedData())
    }

    /// Two clients, each creating with microchip A, answered `first` and `second`.
    static func race(_ first: TransportResponse, _ second: TransportResponse) -> [[ExecutedStep]] {
        let request = BackendTarget.createRequest(.object(JSONObject()))
        return [(0, 100, first), (1, 200, second)].map { lane, slot, answer in
            [ExecutedStep(
                lane: lane, operation: .create(slot: slot, chip: .chip(0)), exchanges: [BackendTarget.Exchange(request: request, response: .success(answer))],
                notSent: nil, images: [])]
        }
    }

    @Test("two clients creating with one new microchip: one 201 and one 409 is an order; two 201 is none; 500 only in production")
    func microchipRace() throws {
        let conflict = Self.error(409, "CONFLICT", "An entity with this value already exists", field: "microchipNumber")
        let internalError = Self.error(500, "INTERNAL_SERVER_ERROR", "Internal server error")
        for profile in BackendProfile.allCases {
            let oracle = try Self.oracle(profile)
            let fine = Linearization.search(Self.race(try Self.created(), conflict), from: StoreModel(), firstNumber: 1, oracle: oracle)
            #expect((try? fine.get()) != nil, "\(profile): 201 then 409")
            let reversed = Linearization.search(Self.race(conflict, try Self.created()), from: StoreModel(), firstNumber: 1, oracle: oracle)
            #expect((try? reversed.get()) != nil, "\(profile): 409 to the first client, 201 to the second: the second went first")
            guard case .failure(let closest) = Linearization.search(
                Self.race(try Self.created(), try Self.created()), from: StoreModel(), firstNumber: 1, oracle: oracle)
            else {
                Issue.record("\(profile): two 201 for one microchip number were explained by an order")
                continue
            }
            #expect(closest.order.count == 1 && closest.blocked.violation.contract == .microchip)
            #expect(closest.blocked.violation.message.contains("is held by #"), "\(closest.blocked.violation.message)")
            let withFailure = Linearization.search(Self.race(try Self.created(), internalError), from: StoreModel(), firstNumber: 1, oracle: oracle)
            #expect(((try? withFailure.get()) != nil) == (profile == .production), "\(profile): production's documented 500")
        }
    }

    @Test("a 500 to a create with a held microchip is the documented race only between clients at once")
    func raceOnlyWhenConcurrent() throws {
        let oracle = try Self.oracle(.production)
        let first = Self.race(try Self.created(), Self.error(500, "INTERNAL_SERVER_ERROR", "Internal server error"))
        var model = StoreModel()
        guard case .success(let accepted) = oracle.check(first[0][0], number: 1, in: model, concurrent: false) else {
            Issue.record("the first create was not accepted")
            return
        }
        model = accepted.model
        guard case .failure(let violation) = oracle.check(first[1][0], number: 2, in: model, concurrent: false) else {
            Issue.record("a 500 one after another was accepted")
            return
        }
        #expect(violation.contract == .microchip)
        if case .failure = oracle.check(first[1][0], number: 2, in: model, concurrent: true) { Issue.record("the documented race was refused") }
    }

    /// The choices that draw `prefix` run one after another, then the clients' `lanes` (`nil`:
    /// the first client's branch again), in the layout of ``SequencePlan/drawnPrograms(maxClients:withFill:)``:
    /// each collection an element after another, an "another?" choice (1) before each past its
    /// minimum (every step of the prefix, a branch's steps after its first) and a 0 where it stops.
    static func choices(prefix: [SequenceOperation], lanes: [[SequenceOperation]?] = []) -> [UInt64] {
        func steps(_ operations: [SequenceOperation], lane: Int?) -> [UInt64] {
            var choices: [UInt64] = []
            for (index, operation) in operations.enumerated() {
                let step = StepChoices(operation, lane: lane)
                choices += (index == 0 && lane != nil ? [] : [1]) + [step.kind.rawValue, step.slot, step.parameter]
            }
            return choices + [0]
        }
        var choices = steps(prefix, lane: nil)
        // A client's position: the branches kept before it (a repeat with no branch before it sends nothing).
        var position = 0
        for lane in lanes {
            if let lane {
                choices += [1, 0] + steps(lane, lane: position)
                position += 1
            } else {
                choices += [1, 1]
                if position > 0 { position += 1 }
            }
        }
        return choices + [0]
    }

    /// The drawn program of `choices`.
    static func program(_ choices: [UInt64]) throws -> DrawnProgram {
        try SequencePlan.drawnPrograms().replay(choices)
    }

    /// A backend with a planted defect, as far as shrinking sees it: `fails` says whether a
    /// program shows it (and at which step of its prefix, `nil` for a concurrent failure), and
    /// every run is recorded.
    final class FakeRuns {
        let contract: SequenceContract
        let fails: (SequenceProgram, _ run: Int) -> Int??
        var runs: [SequenceProgram: Int] = [:]
        var requests = 0

        init(_ contract: SequenceContract, fails: @escaping (SequenceProgram, _ run: Int) -> Int??) {
            self.contract = contract
            self.fails = fails
        }

        func run(_ program: SequenceProgram, classifying: Bool) -> ProgramOutcome {
            runs[program, default: 0] += 1
            requests += program.requestCost
            guard let failing = fails(program, runs[program] ?? 0) else { return .passed(exercised: [], requests: program.requestCost) }
            let failure = ProgramFailure(
                contract: contract, message: "planted", expected: "", steps: [], failingIndex: failing ?? program.prefix.count,
                concurrent: failing == nil)
            return .failed(failure, requests: program.requestCost)
        }
    }

    /// The positions of `pattern`'s operations in `operations`, when all are there in order.
    static func positions(of pattern: [(SequenceOperation) -> Bool], in operations: [SequenceOperation]) -> [Int]? {
        var found: [Int] = []
        for (index, operation) in operations.enumerated() where found.count < pattern.count && pattern[found.count](operation) { found.append(index) }
        return found.count == pattern.count ? found : nil
    }

    @Test("the engine shrinks a program to what the failure needs, sends no program twice, and stays within the allowance")
    func shrinksToTheNeededOperations() throws {
        let program: [SequenceOperation] = [
            .list(near: false), .create(slot: 0, chip: .chip(0)), .upload(slot: 0, .jpeg), .details(slot: 0),
            .create(slot: 1, chip: .none), .delete(slot: 0), .upload(slot: 1, .png), .create(slot: 2, chip: .chip(0)), .details(slot: 2),
        ]
        let choices = Self.choices(prefix: program)
        let drawn = try Self.program(choices)
        #expect(drawn.program == SequenceProgram(prefix: program, lanes: []))
        // The planted defect: a create with the microchip number of an announcement deleted before it fails.
        let fake = FakeRuns(.microchip) { candidate, _ in
            var chips: [Int: Int] = [:], deleted: Set<Int> = []
            for (index, operation) in candidate.prefix.enumerated() {
                switch operation {
                case .create(let slot, .chip(let chip)):
                    if let holder = chips[chip], deleted.contains(holder) { return .some(index) }
                    chips[chip] = slot
                case .delete(let slot): deleted.insert(slot)
                default: break
                }
            }
            return nil
        }
        guard case .failed(let failure, _) = fake.run(drawn.program, classifying: true) else {
            Issue.record("the program does not fail")
            return
        }
        let shrunk = try SequenceExplorer.shrink(
            failure, of: drawn.program, choices: choices, size: 100, generator: SequencePlan.drawnPrograms(), allowance: 470, run: fake.run)
        #expect(shrunk.value.program == SequenceProgram(prefix: [.create(slot: 0, chip: .chip(0)), .delete(slot: 0), .create(slot: 1, chip: .chip(0))], lanes: []),
            "\(shrunk.value.program.operations)")
        #expect(shrunk.stopReason == .minimal)
        #expect(fake.runs.values.allSatisfy { $0 == 1 }, "a program sent twice: \(fake.runs.filter { $0.value > 1 })")
        #expect(shrunk.cost == fake.requests - drawn.program.requestCost && shrunk.cost <= 470)
    }

    @Test("shrinking never sends more than its allowance: it stops, saying why, when the next candidate would not fit")
    func shrinkingAllowance() throws {
        let program: [SequenceOperation] = [
            .create(slot: 0, chip: .none), .upload(slot: 0, .png), .details(slot: 0), .upload(slot: 0, .jpeg), .details(slot: 0), .list(near: true),
        ]
        let choices = Self.choices(prefix: program)
        let drawn = try Self.program(choices)
        // Fails whenever a create and a list remain.
        let fake = FakeRuns(.visible) { candidate, _ in
            guard candidate.prefix.contains(where: { if case .create = $0 { true } else { false } }),
                let list = candidate.prefix.firstIndex(where: { if case .list = $0 { true } else { false } })
            else { return nil }
            return .some(list)
        }
        guard case .failed(let failure, _) = fake.run(drawn.program, classifying: true) else {
            Issue.record("the program does not fail")
            return
        }
        for allowance in [0, 5, 9, 20] {
            fake.requests = 0
            fake.runs = [:]
            let shrunk = try SequenceExplorer.shrink(
                failure, of: drawn.program, choices: choices, size: 100, generator: SequencePlan.drawnPrograms(), allowance: allowance, run: fake.run)
            #expect(fake.requests == shrunk.cost && shrunk.cost <= allowance, "allowance \(allowance): \(fake.requests) requests sent")
            #expect(shrunk.stopReason == .replayBudget, "allowance \(allowance): \(shrunk.stopReason)")
            #expect(Self.positions(of: [{ if case .create = $0 { true } else { false } }, { $0 == .list(near: true) }], in: shrunk.value.program.prefix) != nil)
        }
    }

    @Test("a step naming an announcement whose create was deleted is skipped: the choices replay as a valid shorter program")
    func deletedCreate() throws {
        let program: [SequenceOperation] = [
            .list(near: true), .create(slot: 0, chip: .chip(0)), .upload(slot: 0, .png), .photo(slot: 0, .png), .create(slot: 1, chip: .chip(1)),
            .details(slot: 0), .details(slot: 1),
        ]
        let drawn = try Self.program(Self.choices(prefix: program))
        #expect(drawn.program == SequenceProgram(prefix: program, lanes: []))
        var choices = Self.choices(prefix: program)
        choices.removeSubrange(drawn.stepChoices[1])
        let shorter = try Self.program(choices).program
        #expect(shorter == SequenceProgram(prefix: [.list(near: true), .create(slot: 1, chip: .chip(1)), .details(slot: 1)], lanes: []),
            "\(shorter.operations)")
        #expect(SequencePlanTests.isValid(shorter))
        // Without the upload, GET of its photo goes too.
        var withoutUpload = Self.choices(prefix: program)
        withoutUpload.removeSubrange(drawn.stepChoices[2])
        #expect(try Self.program(withoutUpload).program.prefix == [
            .list(near: true), .create(slot: 0, chip: .chip(0)), .create(slot: 1, chip: .chip(1)), .details(slot: 0), .details(slot: 1),
        ])
    }

    @Test("clients' branches: one left joins the prefix, a repeated branch names the client's own announcements")
    func branches() throws {
        let prefix: [SequenceOperation] = [.create(slot: 0, chip: .none), .create(slot: 1, chip: .none)]
        let branch: [SequenceOperation] = [.create(slot: 100, chip: .chip(0)), .details(slot: 100), .upload(slot: 0, .png)]
        let three = try Self.program(Self.choices(prefix: prefix, lanes: [branch, nil, nil])).program
        #expect(three.lanes == [
            branch, [.create(slot: 200, chip: .chip(0)), .details(slot: 200), .upload(slot: 1, .png)],
            [.create(slot: 300, chip: .chip(0)), .details(slot: 300), .upload(slot: 0, .png)],
        ])
        #expect(SequencePlanTests.isValid(three))
        let one = try Self.program(Self.choices(prefix: prefix, lanes: [branch])).program
        #expect(one == SequenceProgram(prefix: prefix + branch, lanes: []))
        // A repeated branch with none before it sends nothing: the other client's joins the prefix.
        let noFirst = try Self.program(Self.choices(prefix: prefix, lanes: [nil, branch])).program
        #expect(noFirst == SequenceProgram(prefix: prefix + branch, lanes: []))
        // A branch cannot create an announcement of the prefix: that step is skipped.
        let creatingPrefixSlot = StepChoices(kind: .create, slot: 3, parameter: 0)
        var choices = Self.choices(prefix: prefix, lanes: [[.details(slot: 0)], [.details(slot: 1)]])
        choices.insert(contentsOf: [1, creatingPrefixSlot.kind.rawValue, creatingPrefixSlot.slot, creatingPrefixSlot.parameter], at: choices.count - 2)
        #expect(try Self.program(choices).program.lanes == [[.details(slot: 0)], [.details(slot: 1)]])
    }

    @Test("a race failure shrinks to two clients: a branch goes, a candidate that passes runs 4 times, one failing run of 4 counts")
    func shrinksARace() throws {
        let prefix: [SequenceOperation] = [.create(slot: 0, chip: .none), .list(near: true)]
        let branch: [SequenceOperation] = [.delete(slot: 0), .details(slot: 0), .list(near: false)]
        let choices = Self.choices(prefix: prefix, lanes: [branch, nil, nil])
        let drawn = try Self.program(choices)
        #expect(drawn.program.lanes.count == 3)
        // Two clients deleting the first announcement at once: it shows on the third run of a program.
        let fake = FakeRuns(.concurrent) { candidate, run in
            let deleting = candidate.lanes.filter { $0.first.map { if case .delete = $0 { true } else { false } } ?? false }
            return deleting.count >= 2 && run >= 3 ? .some(nil) : nil
        }
        _ = fake.run(drawn.program, classifying: false)
        _ = fake.run(drawn.program, classifying: false)
        guard case .failed(let failure, _) = fake.run(drawn.program, classifying: false) else {
            Issue.record("the program does not fail")
            return
        }
        let shrunk = try SequenceExplorer.shrink(
            failure, of: drawn.program, choices: choices, size: 100, generator: SequencePlan.drawnPrograms(), allowance: 470, run: fake.run)
        #expect(shrunk.value.program == SequenceProgram(prefix: [.create(slot: 0, chip: .none)], lanes: [[.delete(slot: 0)], [.delete(slot: 0)]]),
            "\(shrunk.value.program.json.serialized())")
        let sent = fake.runs.filter { $0.key != drawn.program }
        #expect(sent.values.allSatisfy { $0 <= SequenceExplorer.concurrentRuns }, "\(sent.values.sorted())")
        #expect(sent.filter { $0.key.lanes.count >= 2 }.values.allSatisfy { $0 >= 3 }, "a concurrent candidate run fewer than 3 times")
        #expect(sent.keys.allSatisfy { $0.isConcurrent }, "a candidate without clients at once cannot break the concurrency contract")
    }

    @Test("list rows the run did not create are checked only for what the apps decode")
    func foreignRows() throws {
        let schemas = try ContractSchemas.shared()
        let backend = MockBackend(profile: .production, clock: { serverClockAhead() }, sampleRows: true)
        let sample = try #require(try JSONValue.parse(Data(backend.answer(HTTPRequest(method: "GET", target: "/api/v1/announcements")).body))["data"]?.arrayValue)
        #expect(sample.count == 8)
        let body = JSONObject([(key: "data", value: .array(sample))])
        #expect(ListAnswer.problem(body, schemas: schemas, isOwn: { _ in false }) == nil)
        // Judged as the run's own, production's sample rows break the schema (not UUID v4, SQLite updatedAt).
        #expect(ListAnswer.problem(body, schemas: schemas, isOwn: { _ in true }) != nil)
        var broken = sample
        if case .object(var row) = broken[0] {
            row["updatedAt"] = .number(JSONNumber(1))
            broken[0] = .object(row)
        }
        let problem = ListAnswer.problem(JSONObject([(key: "data", value: .array(broken))]), schemas: schemas, isOwn: { _ in false })
        #expect(problem?.contains("updatedAt") == true, "\(problem ?? "nil")")
    }

    @Test("production's rounding defect at an exact point is predicted by its formula and reported as a known defect")
    func exactPointDefect() {
        #expect(ExactPointListDefect.isPredicted(latitude: 82, longitude: 132.519926))
        #expect(!ExactPointListDefect.isPredicted(latitude: -48.8767, longitude: -123.3933))
        let recorder = ContractRecorder()
        let target = BackendTarget(
            name: "t", transport: BudgetedTransport(InProcessTransport(backend: MockBackend()), limit: 10), profile: .production,
            adminToken: nil, microchips: MicrochipSequence(), concurrency: 1, submissions: { [] })
        target.noteKnownDefect(ExactPointListDefect.sighting(stillPresent: true))
        target.noteKnownDefect(ExactPointListDefect.sighting(stillPresent: true))
        target.noteKnownDefect(ExactPointListDefect.sighting(stillPresent: false))
        target.noteFindings(recorder: recorder)
        let notes = recorder.report(command: "run", arguments: [], target: "t", seed: 1, startedAt: Date()).notes
        let present = notes.filter { $0.hasPrefix("known backend defect still present") }
        #expect(present.count == 1 && present[0].components(separatedBy: ExactPointListDefect.caseId).count == 2, "\(present)")
        #expect(notes.contains { $0.hasPrefix("known backend defect no longer present") && $0.contains("backend-contract.md") }, "\(notes)")
    }

    @Test("without an admin token the group is skipped with the reason: a sequence must delete what it created")
    func needsTheAdminToken() async throws {
        let backend = MockBackend(profile: .strict, clock: serverClockAhead)
        let (report, _) = try await BackendContractRun.report(transport: InProcessTransport(backend: backend), profile: .strict, adminToken: nil)
        let group = try #require(report.groups.first { $0.name == SequenceContracts().name })
        #expect(group.contracts.count == SequenceContract.allCases.count)
        #expect(group.contracts.allSatisfy { $0.status == .skipped && ($0.skipReason ?? "").contains("--admin-token") })
    }

    @Test("the allowances fit a default run and shrink with a smaller budget")
    func allowances() {
        let full = SequenceContracts.allowance(sent: 500, limit: 2000)
        #expect(full.exploring == SequenceContracts.exploringAllowance && full.shrinking == SequenceContracts.shrinkingAllowance)
        #expect(500 + full.exploring + full.shrinking + SequenceContracts.reserve <= 2000)
        let short = SequenceContracts.allowance(sent: 500, limit: 1000)
        #expect(short.exploring + short.shrinking == 1000 - 500 - SequenceContracts.reserve)
        #expect(SequenceContracts.allowance(sent: 1950, limit: 2000).exploring == 0)
    }
}

/// How the stateful group spends its allowances against an in-process mock, run alone.
@Suite("sequences and concurrency: exploring borrows while nothing fails")
struct SequenceAllowanceTests {
    /// The requests the group's summary says it sent exploring and shrinking.
    static func spent(_ defects: Set<MockDefect>) async throws -> (exploring: Int, shrinking: Int) {
        let others = Set(ContractRegistry.groups.map(\.name)).subtracting([SequenceContracts().name])
        let (report, _) = try await PlantedDefectRuns.run(defects, profile: .strict, skippingGroups: others)
        let summary = try #require(report.groups.first { $0.name == SequenceContracts().name }?.summary)
        let figures = try #require(summary.firstMatch(of: /(\d+) requests exploring, (\d+) shrinking/), "\(summary)")
        return (Int(figures.1)!, Int(figures.2)!)
    }

    @Test("a run where nothing fails explores past its allowance, into half the shrinking allowance")
    func borrowsWhileNothingFails() async throws {
        let allowance = SequenceContracts.allowance(sent: 0, limit: 2000)
        let spent = try await Self.spent([])
        #expect(spent.exploring > allowance.exploring, "\(spent)")
        #expect(spent.exploring <= allowance.exploringWhileNothingFails && spent.shrinking == 0, "\(spent)")
    }

    @Test("once a program fails, exploring stops at its own allowance and shrinking keeps its whole allowance")
    func stopsBorrowingAtAFailure() async throws {
        let allowance = SequenceContracts.allowance(sent: 0, limit: 2000)
        // Found within a few programs: every upload after the first is refused.
        let spent = try await Self.spent([.sequencePasswordRehashedOnUpload])
        #expect(spent.shrinking > 0 && spent.exploring + spent.shrinking <= allowance.exploring + allowance.shrinking, "\(spent)")
        #expect(spent.exploring <= allowance.exploring, "\(spent)")
    }
}
