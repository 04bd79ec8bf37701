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

    @Test("shrinking on operations keeps only what the failure needs, and runs no candidate twice")
    func shrinksToTheNeededOperations() {
        let needed: [SequenceOperation] = [.create(slot: 0, chip: .chip(0)), .delete(slot: 0), .create(slot: 2, chip: .chip(0))]
        let program = SequenceProgram(prefix: [
            .list(near: false), .create(slot: 0, chip: .chip(0)), .upload(slot: 0, .jpeg), .details(slot: 0),
            .create(slot: 1, chip: .none), .delete(slot: 0), .upload(slot: 1, .png), .create(slot: 2, chip: .chip(0)), .details(slot: 2),
        ], lanes: [])
        var seen: Set<SequenceProgram> = []
        var runs = 0
        func fails(_ candidate: SequenceProgram) -> Bool {
            var index = 0
            for operation in candidate.operations where index < needed.count && operation == needed[index] { index += 1 }
            return index == needed.count
        }
        let failure = ProgramFailure(contract: .microchip, message: "", expected: "", steps: [], failingIndex: 7, concurrent: false)
        let shrinker = ProgramShrinker(contract: .microchip) { candidate in
            runs += 1
            #expect(seen.insert(candidate).inserted, "run twice: \(candidate)")
            return fails(candidate) ? .failed(failure) : .passed
        }
        let result = shrinker.shrink(program, failure: failure)
        #expect(result.program == SequenceProgram(prefix: needed, lanes: []), "\(result.program.operations)")
        #expect(result.replays == runs && !result.spent)
        #expect(runs < 40, "\(runs) candidates run")
    }

    @Test("a removed create takes the operations on its announcement with it")
    func normalizing() {
        let program = SequenceProgram(prefix: [.create(slot: 0, chip: .none), .upload(slot: 0, .png), .photo(slot: 0, .png), .list(near: true)], lanes: [])
        var shorter = program
        shorter.prefix.removeFirst()
        #expect(shorter.normalized().operations == [.list(near: true)])
        let branches = SequenceProgram(prefix: [.create(slot: 0, chip: .none)], lanes: [[.details(slot: 0)], [.upload(slot: 5, .png)]])
        #expect(branches.normalized() == SequenceProgram(prefix: [.create(slot: 0, chip: .none), .details(slot: 0)], lanes: []), "one branch left joins the prefix")
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
