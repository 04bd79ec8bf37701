import Foundation
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotJSON
import PetSpotModel

/// Runs programs against the backend: the prefix one step after another, each answer judged by
/// the ``SequenceOracle`` at once; then the parallel branches, each from its own client at the
/// same time, judged together (``Linearization``); then it deletes every announcement the
/// program created. Every request of a program is held from the budget before the first is
/// sent (``GroupBackend/holding(_:_:)``), so a program is never cut in half.
///
/// A program's announcements lie around a centre of its own, far out in the South Pacific, so
/// programs never see each other's, nor another group's: programs that run at once never share
/// a centre (``centres``).
struct SequenceExecutor: Sendable {
    /// Credentials of an announcement a create made.
    struct Credentials: Sendable {
        var path: AnnouncementPath
        var password: String
        var id: String { path.id }
    }

    /// What a program needs while it runs: its number, centre, microchip numbers and labels.
    struct Context: Sendable {
        var number: Int
        /// The centre's index among ``centreCount``.
        var centreIndex: Int
        var centre: (lat: Double, lng: Double)
        var chipNumbers: [Int: String]
        var slotLabels: [Int: String]
        var chipLabels: [Int: String]
        /// The position of each slot among the program's (for its place).
        var slotPositions: [Int: Int]
        /// Text in every image of the program, unique to the run.
        var tag: String
    }

    /// The backend.
    let backend: GroupBackend
    /// Programs run so far (numbers the next one), and the centres of the programs under way.
    private let counter = Locked((programs: 0, centres: Set<Int>()))

    /// Centres, 0.3 degrees of longitude (about 20 km) apart: more than a list's default 5 km
    /// range beyond a program's farthest announcement (3.6 km).
    static let centreCount = 100

    /// Kilometres from the centre to the point of every fill.
    static let fillDistance = 0.25

    /// Runs `program`; when its parallel branches break the contract and `classifying`, runs the
    /// same operations again one after another: if that fails too, the defect needs no
    /// concurrency and that failure is the one reported (under its own contract); if it passes,
    /// the concurrent one is. (Shrinking a concurrency failure does not classify its candidates.)
    func run(_ program: SequenceProgram, classifying: Bool = true) async -> ProgramOutcome {
        let first = await runOnce(program)
        guard classifying, case .failed(let failure, let requests) = first, failure.concurrent else { return first }
        switch await runOnce(SequenceProgram(prefix: program.operations, lanes: [])) {
        case .failed(let sequential, let more): return .failed(sequential, requests: requests + more)
        case .passed(_, let more): return .failed(failure, requests: requests + more)
        case .refused: return first
        }
    }

    /// Runs `program` once, holding its requests.
    private func runOnce(_ program: SequenceProgram) async -> ProgramOutcome {
        do {
            return try await backend.holding(program.requestCost) { held throws(GroupStop) in await execute(program, held: held) }
        } catch {
            return .refused
        }
    }

    /// The context of the next program run.
    private func makeContext(for program: SequenceProgram) -> Context {
        let prefix = backend.target.microchips.prefix
        let offset = Int(prefix.suffix(2)) ?? 0
        // The centre the program's number gives, or the next one no program under way holds.
        let (number, index) = counter.withLock { counter -> (Int, Int) in
            counter.programs += 1
            var index = (counter.programs + offset) % Self.centreCount
            while counter.centres.contains(index), counter.centres.count < Self.centreCount { index = (index + 1) % Self.centreCount }
            counter.centres.insert(index)
            return (counter.programs, index)
        }
        let centre = (lat: -52.6, lng: -150.0 + 0.3 * Double(index))
        var chipNumbers: [Int: String] = [:]
        for chip in program.chipOrder { chipNumbers[chip] = backend.microchip() }
        var slotPositions: [Int: Int] = [:]
        for (position, slot) in program.slotOrder.enumerated() { slotPositions[slot] = position }
        let labels = program.labels
        return Context(
            number: number, centreIndex: index, centre: centre, chipNumbers: chipNumbers, slotLabels: labels.slots, chipLabels: labels.chips,
            slotPositions: slotPositions, tag: "petspot-contracts \(prefix) sequence \(number)")
    }

    /// The oracle of a program.
    private func oracle(_ context: Context) -> SequenceOracle {
        let target = backend.target
        return SequenceOracle(
            profile: backend.profile, schemas: backend.schemas, isOwnRow: { target.didCreate($0) }, slotLabels: context.slotLabels,
            chipLabels: context.chipLabels, chipNumbers: context.chipNumbers)
    }

    private func execute(_ program: SequenceProgram, held: GroupBackend) async -> ProgramOutcome {
        let context = makeContext(for: program)
        defer { _ = counter.withLock { $0.centres.remove(context.centreIndex) } }
        let oracle = oracle(context)
        var model = StoreModel()
        var credentials: [Int: Credentials] = [:]
        var shown: [ShownStep] = []
        var exercised: Set<SequenceContract> = []
        var executed: [ExecutedStep] = []
        func finish(_ outcome: (Int) -> ProgramOutcome) async -> ProgramOutcome {
            let deletes = await deleteCreated(by: executed, held: held)
            return outcome(executed.reduce(0) { $0 + $1.exchanges.count } + deletes)
        }

        for operation in program.prefix {
            guard let (step, learned) = await perform(operation, lane: nil, context: context, credentials: credentials, held: held) else {
                _ = await deleteCreated(by: executed, held: held)
                return .refused
            }
            executed.append(step)
            if let learned, let slot = operation.slot { credentials[slot] = learned }
            if let silent = step.exchanges.first(where: { if case .failure = $0.response { return true } else { return false } }) {
                let action = program.text(of: operation)
                shown.append(ShownStep(lane: nil, action: action, outcome: SequenceOracle.short(silent.response), exchange: silent))
                var failure = ProgramFailure(
                    contract: .visible, message: "step \(shown.count): \(action) got \(SequenceOracle.short(silent.response))",
                    expected: "an answer", steps: shown, failingIndex: shown.count - 1, concurrent: false)
                failure.noAnswer = true
                return await finish { .failed(failure, requests: $0) }
            }
            switch oracle.check(step, number: shown.count + 1, in: model, concurrent: false) {
            case .success(let accepted):
                model = accepted.model
                exercised.formUnion(accepted.exercised)
                shown.append(ShownStep(lane: nil, action: accepted.action, outcome: accepted.outcome, exchange: step.exchanges.first))
            case .failure(let violation):
                shown.append(ShownStep(
                    lane: nil, action: violation.action, outcome: "\(violation.outcome); expected \(violation.expected)", exchange: step.exchanges.first))
                let failure = ProgramFailure(
                    contract: violation.contract, message: "step \(shown.count): \(violation.message)", expected: violation.expected,
                    steps: shown, failingIndex: shown.count - 1, concurrent: false)
                return await finish { .failed(failure, requests: $0) }
            }
        }
        guard program.isConcurrent else { return await finish { .passed(exercised: exercised, requests: $0) } }

        // The branches, each from its own client, all at once.
        let prefixCredentials = credentials
        let branches = await withTaskGroup(of: (Int, [ExecutedStep]?).self) { group -> [[ExecutedStep]]? in
            for (lane, operations) in program.lanes.enumerated() {
                group.addTask {
                    var credentials = prefixCredentials
                    var steps: [ExecutedStep] = []
                    for operation in operations {
                        guard let (step, learned) = await perform(operation, lane: lane, context: context, credentials: credentials, held: held) else {
                            return (lane, nil)
                        }
                        if let learned, let slot = operation.slot { credentials[slot] = learned }
                        steps.append(step)
                    }
                    return (lane, steps)
                }
            }
            var branches = Array(repeating: [ExecutedStep](), count: program.lanes.count)
            var refused = false
            for await (lane, steps) in group {
                if let steps { branches[lane] = steps } else { refused = true }
            }
            return refused ? nil : branches
        }
        guard let branches else {
            _ = await deleteCreated(by: executed, held: held)
            return .refused
        }
        executed += branches.flatMap { $0 }
        for step in branches.flatMap({ $0 }) {
            guard let silent = step.exchanges.first(where: { if case .failure = $0.response { return true } else { return false } }) else { continue }
            let action = program.text(of: step.operation)
            var failure = ProgramFailure(
                contract: .visible, message: "\(action) (client \((step.lane ?? 0) + 1)) got \(SequenceOracle.short(silent.response))",
                expected: "an answer",
                steps: shown + [ShownStep(lane: step.lane, action: action, outcome: SequenceOracle.short(silent.response), exchange: silent)],
                failingIndex: shown.count, concurrent: false)
            failure.noAnswer = true
            return await finish { .failed(failure, requests: $0) }
        }
        switch Linearization.search(branches, from: model, firstNumber: shown.count + 1, oracle: oracle) {
        case .success:
            // Only the concurrency contract: what else the branches exercised depends on the order
            // the backend happened to take, and the counts of a run are the same from run to run.
            exercised.insert(.concurrent)
            return await finish { .passed(exercised: exercised, requests: $0) }
        case .failure(let closest):
            let requests = branches.reduce(0) { $0 + $1.count }
            var steps = shown
            for (step, accepted) in closest.order {
                steps.append(ShownStep(lane: step.lane, action: accepted.action, outcome: accepted.outcome, exchange: step.exchanges.first))
            }
            let failingIndex = steps.count
            let blocked = closest.blocked
            steps.append(ShownStep(
                lane: blocked.step.lane, action: blocked.violation.action,
                outcome: "\(blocked.violation.outcome); expected \(blocked.violation.expected)", exchange: blocked.step.exchanges.first))
            for step in closest.unplaced {
                steps.append(ShownStep(
                    lane: step.lane, action: program.text(of: step.operation),
                    outcome: step.exchanges.first.map { SequenceOracle.short($0.response) } ?? "not sent", exchange: step.exchanges.first))
            }
            let message = "no order of the \(requests) requests that \(program.lanes.count) clients sent at once explains their answers; "
                + "in the order that explains the most (steps \(shown.count + 1)-\(failingIndex)), step \(failingIndex + 1): \(blocked.violation.message)"
            let failure = ProgramFailure(
                contract: .concurrent, message: message, expected: blocked.violation.expected, steps: steps, failingIndex: failingIndex,
                concurrent: true)
            return await finish { .failed(failure, requests: $0) }
        }
    }

    // MARK: Requests

    /// Sends `request` from the held budget; `nil` when it was refused.
    private func send(_ request: TransportRequest, held: GroupBackend) async -> BackendTarget.Exchange? {
        do {
            return try await held.exchange(request)
        } catch {
            return nil
        }
    }

    /// The place of an announcement: slots 0.4 to 3.6 km from the centre, all within the default
    /// range of 5 km (and 0.4 km or more from it); fills at one point 0.25 km away.
    private func point(_ context: Context, slot: Int?) -> (lat: Double, lng: Double) {
        guard let slot else {
            return GreatCircle.destination(context.centre.lat, context.centre.lng, kilometres: Self.fillDistance, bearing: 200)
        }
        let position = Double(context.slotPositions[slot] ?? 0)
        return GreatCircle.destination(
            context.centre.lat, context.centre.lng, kilometres: min(3.6, 0.4 + 0.4 * position), bearing: (47 * position).truncatingRemainder(dividingBy: 360))
    }

    private func createRequest(_ context: Context, slot: Int?, chip: String?) -> TransportRequest {
        var body = backend.schemas.documents.negativeCases.basePayload
        body["microchipNumber"] = chip.map(JSONValue.string)
        let place = point(context, slot: slot)
        body["locationLatitude"] = .number(JSONNumber(place.lat))
        body["locationLongitude"] = .number(JSONNumber(place.lng))
        return BackendTarget.createRequest(.object(body))
    }

    /// The credentials a 201 create answered. An id that is no single path segment is never sent
    /// back (the model fails the create's answer; later operations on it go to an id no one has).
    private static func credentials(_ answer: Result<TransportResponse, TransportError>) -> Credentials? {
        guard case .success(let object) = successObject(answer, status: 201), let id = object["id"]?.stringValue,
            let password = object["managementPassword"]?.stringValue, case .success(let path) = AnnouncementPath.of(id)
        else { return nil }
        return Credentials(path: path, password: password)
    }

    /// A new image of `kind`, unique to the run.
    private static func image(_ kind: PhotoKind, tag: String) -> Data {
        kind == .png ? SampleImage.png(tag: tag) : SampleImage.jpeg(tag: tag)
    }

    /// Sends `operation`; returns the step and the credentials a create learnt, or `nil` when the
    /// budget refused a request.
    private func perform(
        _ operation: SequenceOperation, lane: Int?, context: Context, credentials: [Int: Credentials], held: GroupBackend
    ) async -> (ExecutedStep, Credentials?)? {
        func step(_ exchanges: [BackendTarget.Exchange], images: [Data] = []) -> ExecutedStep {
            ExecutedStep(lane: lane, operation: operation, exchanges: exchanges, notSent: nil, images: images)
        }
        let position = "\(lane.map { "c\($0 + 1)" } ?? "p") \(UUID().uuidString.prefix(8))"
        // A client's operation on an announcement whose create lost a race to another client's is
        // sent all the same, to an id no one has (it must answer 404): the requests a program
        // sends do not depend on which client won.
        var credentials = credentials
        if let slot = operation.slot, credentials[slot] == nil, !isCreate(operation) {
            let madeUp = Credentials(path: AnnouncementPath(uuid: UUID()), password: "100000")
            credentials[slot] = madeUp
            // An upload with it sends a password made up to be refused: a decoy, not a secret.
            backend.target.transport.secrets.markDecoy(basicAuthorization("\(madeUp.path.id):\(madeUp.password)"))
        }
        switch operation {
        case .create(let slot, let chip):
            let request = createRequest(context, slot: slot, chip: chip.index.flatMap { context.chipNumbers[$0] })
            guard let exchange = await send(request, held: held) else { return nil }
            return (step([exchange]), Self.credentials(exchange.response))
        case .upload(let slot, let kind):
            guard let owner = credentials[slot] else { return nil }
            let bytes = Self.image(kind, tag: "\(context.tag) \(position)")
            let request = photoUploadRequest(owner.path, password: owner.password, fileName: kind.fileName, contentType: kind.mediaType, bytes: bytes)
            guard let exchange = await send(request, held: held) else { return nil }
            return (step([exchange], images: [bytes]), nil)
        case .details(let slot):
            guard let owner = credentials[slot], let exchange = await send(BackendTarget.getRequest(owner.path.details), held: held) else { return nil }
            return (step([exchange]), nil)
        case .photo(let slot, let kind):
            guard let owner = credentials[slot] else { return nil }
            let request = TransportRequest(method: "GET", path: owner.path.image(extension: kind.fileExtension))
            guard let exchange = await send(request, held: held) else { return nil }
            return (step([exchange]), nil)
        case .list(let near):
            let path = near ? RequestPath.list(["lat": "\(context.centre.lat)", "lng": "\(context.centre.lng)"]) : RequestPath.list([])
            guard let exchange = await send(BackendTarget.getRequest(path), held: held) else { return nil }
            return (step([exchange]), nil)
        case .delete(let slot):
            guard let owner = credentials[slot], let token = backend.adminToken,
                let exchange = await send(BackendTarget.adminDeleteRequest(owner.path, authorization: token), held: held)
            else { return nil }
            return (step([exchange]), nil)
        case .fill(let count):
            var exchanges: [BackendTarget.Exchange] = []
            var images: [Data] = []
            for index in 0..<count {
                guard let create = await send(createRequest(context, slot: nil, chip: nil), held: held) else { return nil }
                exchanges.append(create)
                guard let made = Self.credentials(create.response) else { break }
                let bytes = Self.image(.png, tag: "\(context.tag) fill \(index) \(position)")
                let request = photoUploadRequest(made.path, password: made.password, fileName: "pet.png", contentType: "image/png", bytes: bytes)
                guard let upload = await send(request, held: held) else { return nil }
                exchanges.append(upload)
                images.append(bytes)
            }
            return (step(exchanges, images: images), nil)
        }
    }

    /// Whether `operation` is a create.
    private func isCreate(_ operation: SequenceOperation) -> Bool {
        if case .create = operation { return true }
        return false
    }

    /// Deletes every announcement the program's creates answered and no delete of it removed
    /// (204); returns the requests sent. What is left (a delete that failed) is deleted at cleanup.
    private func deleteCreated(by steps: [ExecutedStep], held: GroupBackend) async -> Int {
        guard let token = backend.adminToken else { return 0 }
        var created: [AnnouncementPath] = []
        var deleted: Set<String> = []
        for step in steps {
            for exchange in step.exchanges {
                let path = exchange.request.path
                if exchange.request.method == "POST", path == "/api/v1/announcements", let made = Self.credentials(exchange.response) {
                    if !created.contains(made.path) { created.append(made.path) }
                }
                if exchange.request.method == "DELETE", case .success(let response) = exchange.response, response.status == 204,
                    let id = BackendTarget.deletedId(path)
                {
                    deleted.insert(id)
                }
            }
        }
        var sent = 0
        for announcement in created where !deleted.contains(announcement.id) {
            guard await send(BackendTarget.adminDeleteRequest(announcement, authorization: token), held: held) != nil else { break }
            sent += 1
        }
        return sent
    }
}
