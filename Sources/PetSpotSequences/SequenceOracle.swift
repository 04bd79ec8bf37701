import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotJSON
import PetSpotModel

/// Judges one answer of a program in a state of the store.
struct SequenceOracle: Sendable {
    /// The profile the backend should answer as.
    let profile: BackendProfile
    /// The captured contract.
    let schemas: ContractSchemas
    /// Whether the run created a listed row (the others are checked only for what the apps decode).
    let isOwnRow: @Sendable (String) -> Bool
    /// `#1`, `#2`, ... by slot.
    let slotLabels: [Int: String]
    /// `A`, `B`, ... by chip.
    let chipLabels: [Int: String]
    /// The microchip number of each chip.
    let chipNumbers: [Int: String]

    /// An answer that keeps the contract: the state after it, the contracts it exercised, and how
    /// the step reads in a report.
    struct Accepted: Sendable {
        var model: StoreModel
        var exercised: Set<SequenceContract>
        var action: String
        var outcome: String
    }

    /// An answer that breaks the contract.
    struct Violation: Error, Sendable {
        var contract: SequenceContract
        var action: String
        /// What is wrong, in one sentence.
        var message: String
        /// The answer the contract expects.
        var expected: String
        /// The answer that came, in short.
        var outcome: String
    }

    static let notFound = ErrorExpectation(404, "NOT_FOUND", message: "Resource not found")
    static let conflict = ErrorExpectation(409, "CONFLICT", field: .named("microchipNumber"), message: "An entity with this value already exists")
    static let raceFailure = ErrorExpectation(500, "INTERNAL_SERVER_ERROR", message: "Internal server error")

    func label(_ slot: Int) -> String { slotLabels[slot] ?? "#?" }
    func chipLabel(_ chip: Int) -> String { chipLabels[chip] ?? "?" }

    /// `201`, `404 NOT_FOUND`, `no answer: ...`.
    static func short(_ answer: Result<TransportResponse, TransportError>) -> String {
        switch answer {
        case .failure(let error): return "no answer: \(error.description)"
        case .success(let response):
            guard response.status >= 400, let code = (try? JSONValue.parse(response.body))?["error"]?["code"]?.stringValue else {
                return String(response.status)
            }
            return "\(response.status) \(code)"
        }
    }

    /// Judges `step`, the `number`-th step shown, in `model`; `concurrent` when it was sent beside
    /// other clients' requests (production's documented race on one new microchip is allowed then).
    func check(_ step: ExecutedStep, number: Int, in model: StoreModel, concurrent: Bool) -> Result<Accepted, Violation> {
        switch step.operation {
        case .create(let slot, let chip): create(step, slot: slot, chip: chip, number: number, model: model, concurrent: concurrent)
        case .upload(let slot, let kind): upload(step, slot: slot, kind: kind, number: number, model: model)
        case .details(let slot): details(step, slot: slot, model: model)
        case .photo(let slot, let kind): photo(step, slot: slot, kind: kind, model: model)
        case .list(let near): list(step, near: near, model: model)
        case .delete(let slot): delete(step, slot: slot, number: number, model: model)
        case .fill(let count): fill(step, count: count, number: number, model: model)
        }
    }

    // MARK: Create

    private func create(
        _ step: ExecutedStep, slot: Int, chip: ChipUse, number: Int, model: StoreModel, concurrent: Bool
    ) -> Result<Accepted, Violation> {
        var action = "create \(label(slot))"
        var holder: Int?
        if let index = chip.index {
            holder = model.chipHolders[index]
            let state: String
            if let holder {
                state = "held by \(label(holder))"
            } else if let freed = model.chipFreed[index] {
                state = "freed by the delete of \(label(freed.slot)) in step \(freed.step)"
            } else {
                state = "new"
            }
            action += " with microchip \(chipLabel(index)) (\(state))"
        } else {
            action += " without a microchip"
        }
        guard let answer = step.exchanges.first?.response else { return .failure(notSent(step, action: action)) }
        let outcome = Self.short(answer)
        if let holder {
            var next = model
            if Self.conflict.problem(answer, profile: profile, schemas: schemas) == nil {
                return .success(Accepted(model: next, exercised: [.microchip], action: action, outcome: outcome))
            }
            if concurrent && profile == .production && Self.raceFailure.problem(answer, profile: profile, schemas: schemas) == nil {
                next.slots[slot] = nil
                return .success(Accepted(
                    model: next, exercised: [.microchip], action: action, outcome: outcome + " (production's documented race on one new microchip)"))
            }
            let allowed = concurrent && profile == .production ? "409 CONFLICT (or production's 500 when two creates race)" : Self.conflict.description
            return .failure(Violation(
                contract: .microchip, action: action,
                message: "microchip \(chipLabel(chip.index ?? 0)) is held by \(label(holder)) (created in step \(model.slots[holder]?.createdStep ?? 0)), "
                    + "but the create answered \(outcome)", expected: allowed, outcome: outcome))
        }
        // A new, freed or absent microchip: 201 with the stored announcement.
        let body: JSONObject
        switch successObject(answer, status: 201) {
        case .failure(let problem):
            if let index = chip.index, let freed = model.chipFreed[index], case .success(let response) = answer, response.status == 409 {
                return .failure(Violation(
                    contract: .microchip, action: action,
                    message: "microchip \(chipLabel(index)) was freed by the delete of \(label(freed.slot)) in step \(freed.step), "
                        + "but the create answered \(outcome): a delete frees its microchip number", expected: "201", outcome: outcome))
            }
            return .failure(Violation(contract: .visible, action: action, message: "the create answered \(outcome): \(problem)", expected: "201", outcome: outcome))
        case .success(let object): body = object
        }
        if let problem = CreateAnswer.problem(.object(body), schemas: schemas) {
            return .failure(Violation(contract: .visible, action: action, message: problem, expected: "201 with a create response", outcome: outcome))
        }
        let id = body["id"]?.stringValue ?? ""
        let sentChip = chip.index.flatMap { chipNumbers[$0] }
        if body["microchipNumber"]?.stringValue != sentChip {
            return .failure(Violation(
                contract: .visible, action: action,
                message: "the create answered microchipNumber \(body["microchipNumber"]?.serialized() ?? "missing"), sent \(sentChip ?? "none")",
                expected: "201 echoing the microchip number", outcome: outcome))
        }
        if let owner = model.seenIds[id] {
            let deleted = model.slots.first { $0.value.id == id }?.value.deletedStep
            return .failure(Violation(
                contract: .freshIds, action: action,
                message: "the create answered id \(id), the id of \(owner)" + (deleted.map { " (deleted in step \($0))" } ?? "")
                    + ": an id names one announcement, never reused", expected: "201 with a new id", outcome: outcome + ", id \(id)"))
        }
        var next = model
        next.slots[slot] = StoreModel.Slot(id: id, chip: chip.index, created: body, createdStep: number)
        next.seenIds[id] = label(slot)
        if let index = chip.index { next.chipHolders[index] = slot }
        var exercised: Set<SequenceContract> = [.freshIds]
        if chip.index != nil { exercised.insert(.microchip) }
        return .success(Accepted(model: next, exercised: exercised, action: action, outcome: "201, id \(id)"))
    }

    // MARK: Upload

    private func upload(_ step: ExecutedStep, slot: Int, kind: PhotoKind, number: Int, model: StoreModel) -> Result<Accepted, Violation> {
        let action = "upload a \(kind.rawValue.uppercased()) to \(label(slot))"
        guard let stored = model.slots[slot] else { return refusedSlot(step, action: action, model: model) }
        guard let answer = step.exchanges.first?.response else { return .failure(notSent(step, action: action)) }
        let outcome = Self.short(answer)
        if let deleted = stored.deletedStep {
            return gone(
                answer, expected: ErrorExpectation(404, "NOT_FOUND", message: "Announcement with ID \(stored.id) not found"),
                action: action + " (deleted in step \(deleted))", what: "an upload to \(label(slot)), deleted in step \(deleted)", model: model)
        }
        guard case .success(let response) = answer, response.status == 201 else {
            if stored.uploads > 0, case .success(let response) = answer, response.status == 403 || response.status == 401 {
                return .failure(Violation(
                    contract: .password, action: action,
                    message: "the upload with \(label(slot))'s management password answered \(outcome), though the same password was "
                        + "accepted for its upload in step \(stored.photo?.step ?? 0): the password never changes",
                    expected: "201 {}", outcome: outcome))
            }
            return .failure(Violation(contract: .visible, action: action, message: "the upload to \(label(slot)) answered \(outcome)", expected: "201 {}", outcome: outcome))
        }
        var next = model
        next.slots[slot]?.photo = StoreModel.Photo(kind: kind, bytes: step.images.first ?? Data(), step: number)
        next.slots[slot]?.uploads += 1
        return .success(Accepted(model: next, exercised: [stored.uploads > 0 ? .password : .visible], action: action, outcome: outcome))
    }

    /// An operation on a deleted announcement: its answer must be `expected` (a 404); the model
    /// stays as it is.
    private func gone(
        _ answer: Result<TransportResponse, TransportError>, expected: ErrorExpectation, action: String, what: String, model: StoreModel
    ) -> Result<Accepted, Violation> {
        let outcome = Self.short(answer)
        if let problem = expected.problem(answer, profile: profile, schemas: schemas) {
            return .failure(Violation(
                contract: .deleted, action: action, message: "\(what): \(problem)", expected: expected.description, outcome: outcome))
        }
        return .success(Accepted(model: model, exercised: [.deleted], action: action, outcome: outcome))
    }

    // MARK: Reads

    private func details(_ step: ExecutedStep, slot: Int, model: StoreModel) -> Result<Accepted, Violation> {
        let action = "details of \(label(slot))"
        guard let stored = model.slots[slot] else { return refusedSlot(step, action: action, model: model) }
        guard let answer = step.exchanges.first?.response else { return .failure(notSent(step, action: action)) }
        let outcome = Self.short(answer)
        if let deleted = stored.deletedStep {
            return gone(answer, expected: Self.notFound, action: action, what: "details of \(label(slot)), deleted in step \(deleted)", model: model)
        }
        let expectedURL = stored.photo.map { "/images/\(stored.id).\($0.kind.fileExtension)" }
        let expected = "200 with the announcement, photoUrl " + (expectedURL ?? "null")
        func violation(_ message: String, _ shown: String = outcome) -> Result<Accepted, Violation> {
            .failure(Violation(contract: .visible, action: action, message: "details of \(label(slot)): \(message)", expected: expected, outcome: shown))
        }
        let body: JSONObject
        switch successObject(answer, status: 200) {
        case .failure(let problem): return violation(problem.description)
        case .success(let object): body = object
        }
        let violations = schemas.violations(of: .object(body), against: .announcement)
        if !violations.isEmpty { return violation("body does not match announcement.schema.json: " + violations.prefix(3).joined(separator: "; ")) }
        if body["managementPassword"] != nil { return violation("the answer contains managementPassword") }
        if body["id"]?.stringValue != stored.id { return violation("id is \(body["id"]?.serialized() ?? "missing"), expected \(stored.id)") }
        if body["microchipNumber"] != stored.created["microchipNumber"] {
            return violation("microchipNumber is \(body["microchipNumber"]?.serialized() ?? "missing"), the create answered \(stored.created["microchipNumber"]?.serialized() ?? "none")")
        }
        let url = body["photoUrl"]?.stringValue
        if url != expectedURL {
            let shown = "200, photoUrl " + (url ?? "null")
            if let photo = stored.photo {
                return violation("photoUrl is \(url ?? "null"), but the upload in step \(photo.step) set \(expectedURL ?? "null")", shown)
            }
            return violation("photoUrl is \(url ?? "null") before any upload", shown)
        }
        return .success(Accepted(model: model, exercised: [.visible], action: action, outcome: "200, photoUrl " + (url ?? "null")))
    }

    private func photo(_ step: ExecutedStep, slot: Int, kind: PhotoKind, model: StoreModel) -> Result<Accepted, Violation> {
        let action = "GET the \(kind.rawValue.uppercased()) of \(label(slot))"
        guard let stored = model.slots[slot] else { return refusedSlot(step, action: action, model: model) }
        guard let answer = step.exchanges.first?.response else { return .failure(notSent(step, action: action)) }
        let outcome = Self.short(answer)
        if let deleted = stored.deletedStep {
            guard case .success(let response) = answer, response.status == 404 else {
                return .failure(Violation(
                    contract: .deleted, action: action,
                    message: "/images of \(label(slot)), deleted in step \(deleted), answered \(outcome): a delete removes the photo",
                    expected: "404", outcome: outcome))
            }
            return .success(Accepted(model: model, exercised: [.deleted], action: action, outcome: outcome))
        }
        // Only the latest upload's file is contracted; another extension is not judged.
        guard let photo = stored.photo, photo.kind == kind else {
            return .success(Accepted(model: model, exercised: [], action: action, outcome: outcome + " (not judged: not the latest upload's type)"))
        }
        let expected = "200 \(kind.mediaType) with the bytes of the upload in step \(photo.step)"
        guard case .success(let response) = answer, response.status == 200 else {
            return .failure(Violation(
                contract: .visible, action: action, message: "the photo of \(label(slot)) uploaded in step \(photo.step) answered \(outcome)",
                expected: expected, outcome: outcome))
        }
        if response.body != photo.bytes {
            // Whose bytes they are, when they are another upload's of the sequence.
            let owner = model.slots.first { $0.key != slot && $0.value.photo?.bytes == response.body }
            let whose = owner.map { " but those of \(label($0.key))'s upload in step \($0.value.photo?.step ?? 0)" } ?? ""
            return .failure(Violation(
                contract: .visible, action: action,
                message: "/images of \(label(slot)) served \(response.body.count) bytes that are not the ones uploaded in step \(photo.step)\(whose)",
                expected: expected, outcome: owner.map { "200, the bytes of \(label($0.key))'s upload" } ?? "200, other bytes"))
        }
        let type = SharedBehaviourObservations.mediaType(response.header("Content-Type"))
        if type != kind.mediaType {
            return .failure(Violation(
                contract: .visible, action: action, message: "/images of \(label(slot)) answered Content-Type \(type ?? "none")",
                expected: expected, outcome: outcome))
        }
        return .success(Accepted(model: model, exercised: [.visible], action: action, outcome: "200, the bytes of step \(photo.step)"))
    }

    private func list(_ step: ExecutedStep, near: Bool, model: StoreModel) -> Result<Accepted, Violation> {
        let action = near ? "list around the centre" : "list, unfiltered"
        guard let answer = step.exchanges.first?.response else { return .failure(notSent(step, action: action)) }
        let outcome = Self.short(answer)
        let ordered = model.slots.sorted { label($0.key).count != label($1.key).count ? label($0.key).count < label($1.key).count : label($0.key) < label($1.key) }
        let shown = ordered.filter { $0.value.isLive && $0.value.photo != nil }
        let expected = "200 listing, of the sequence's announcements, exactly those live with a photo: "
            + (shown.map { label($0.key) } + (model.cluster.isEmpty ? [] : ["the \(model.cluster.count) of the fill"])).joined(separator: ", ")
        func violation(_ contract: SequenceContract, _ message: String, _ outcome: String) -> Result<Accepted, Violation> {
            .failure(Violation(contract: contract, action: action, message: "the list \(message)", expected: expected, outcome: outcome))
        }
        let body: JSONObject
        switch successObject(answer, status: 200) {
        case .failure(let problem): return violation(.visible, problem.description, outcome)
        case .success(let object): body = object
        }
        if let problem = ListAnswer.problem(body, schemas: schemas, isOwn: isOwnRow) { return violation(.visible, problem, outcome) }
        let rows = body["data"]?.arrayValue ?? []
        var listed: [String: JSONValue] = [:]
        for row in rows { if let id = row["id"]?.stringValue { listed[id] = row } }
        var missing: [String] = []
        for (slot, stored) in ordered {
            let isListed = listed[stored.id] != nil
            if let deleted = stored.deletedStep, isListed {
                return violation(.deleted, "lists \(label(slot)), deleted in step \(deleted)", "200, lists \(label(slot))")
            }
            if stored.isLive, stored.photo == nil, isListed {
                return violation(.visible, "lists \(label(slot)), which has no photo", "200, lists \(label(slot))")
            }
            guard stored.isLive, let photo = stored.photo else { continue }
            guard let row = listed[stored.id] else {
                missing.append("\(label(slot)) (photo uploaded in step \(photo.step))")
                continue
            }
            let url = "/images/\(stored.id).\(photo.kind.fileExtension)"
            if row["photoUrl"]?.stringValue != url {
                return violation(
                    .visible, "lists \(label(slot)) with photoUrl \(row["photoUrl"]?.serialized() ?? "missing"), but the upload in step \(photo.step) set \(url)",
                    "200, an old photoUrl")
            }
        }
        let clusterMissing = model.cluster.keys.filter { listed[$0] == nil }.count
        if clusterMissing > 0 {
            missing.append("\(clusterMissing) of the \(model.cluster.count) announcements the fill in step \(model.fillSteps.first ?? 0) created")
        }
        if !missing.isEmpty {
            // A list that should hold many of the sequence's and leaves some out: a silent limit.
            let contract: SequenceContract = shown.count + model.cluster.count >= Self.manyListed ? .scale : .visible
            return violation(
                contract, "answered \(rows.count) row(s) and leaves out " + missing.joined(separator: ", "),
                "200, \(rows.count) rows, \(missing.count == 1 && clusterMissing == 0 ? "one" : "some") of the sequence's missing")
        }
        var exercised: Set<SequenceContract> = [.visible]
        if ordered.contains(where: { !$0.value.isLive }) { exercised.insert(.deleted) }
        if shown.count + model.cluster.count >= Self.manyListed { exercised.insert(.scale) }
        let names = shown.map { label($0.key) } + (model.cluster.isEmpty ? [] : ["the fill's \(model.cluster.count)"])
        return .success(Accepted(
            model: model, exercised: exercised, action: action,
            outcome: "200, lists " + (names.isEmpty ? "none of the sequence's" : names.joined(separator: ", ")) + " (\(rows.count) rows)"))
    }

    /// The sequence's announcements a list must hold from which one that leaves some out is
    /// judged a silent limit.
    static let manyListed = 10

    // MARK: Delete and fill

    private func delete(_ step: ExecutedStep, slot: Int, number: Int, model: StoreModel) -> Result<Accepted, Violation> {
        let action = "delete \(label(slot))"
        guard let stored = model.slots[slot] else { return refusedSlot(step, action: action, model: model) }
        guard let answer = step.exchanges.first?.response else { return .failure(notSent(step, action: action)) }
        let outcome = Self.short(answer)
        if let deleted = stored.deletedStep {
            return gone(
                answer, expected: Self.notFound, action: action, what: "a second delete of \(label(slot)) (deleted in step \(deleted))", model: model)
        }
        guard case .success(let response) = answer, response.status == 204 else {
            return .failure(Violation(contract: .deleted, action: action, message: "the delete of \(label(slot)) answered \(outcome)", expected: "204", outcome: outcome))
        }
        var next = model
        next.slots[slot]?.deletedStep = number
        if let chip = stored.chip, next.chipHolders[chip] == slot {
            next.chipHolders[chip] = nil
            next.chipFreed[chip] = (slot, number)
        }
        return .success(Accepted(model: next, exercised: [.deleted], action: action, outcome: outcome))
    }

    private func fill(_ step: ExecutedStep, count: Int, number: Int, model: StoreModel) -> Result<Accepted, Violation> {
        let action = "create \(count) announcement\(count == 1 ? "" : "s") with a photo at one point \(Int(SequenceExecutor.fillDistance * 1000)) m "
            + "from the centre (\(2 * count) requests)"
        var next = model
        next.fillSteps.append(number)
        var index = 0
        var made = 0
        while index < step.exchanges.count {
            let create = step.exchanges[index]
            guard case .success(let object) = successObject(create.response, status: 201), let id = object["id"]?.stringValue else {
                return .failure(Violation(
                    contract: .visible, action: action, message: "create \(made + 1) of the fill answered \(Self.short(create.response))",
                    expected: "201", outcome: Self.short(create.response)))
            }
            guard index + 1 < step.exchanges.count else { break }
            let upload = step.exchanges[index + 1]
            guard case .success(let response) = upload.response, response.status == 201 else {
                return .failure(Violation(
                    contract: .visible, action: action, message: "upload \(made + 1) of the fill answered \(Self.short(upload.response))",
                    expected: "201", outcome: Self.short(upload.response)))
            }
            next.cluster[id] = StoreModel.Photo(kind: .png, bytes: made < step.images.count ? step.images[made] : Data(), step: number)
            next.seenIds[id] = "an announcement of the fill in step \(number)"
            made += 1
            index += 2
        }
        guard made == count else {
            return .failure(Violation(contract: .visible, action: action, message: "the fill made \(made) of \(count)", expected: "201 x\(count)", outcome: "\(made) made"))
        }
        return .success(Accepted(model: next, exercised: [.scale], action: action, outcome: "201 x\(count), photos 201 x\(count)"))
    }

    // MARK: Steps not sent

    /// A step on an announcement whose create was refused (it lost a race on its microchip
    /// number): sent to an id no one has, it must answer 404.
    private func refusedSlot(_ step: ExecutedStep, action: String, model: StoreModel) -> Result<Accepted, Violation> {
        if step.notSent != nil { return .success(Accepted(model: model, exercised: [], action: action, outcome: "not sent (its create was refused)")) }
        guard let answer = step.exchanges.first?.response else { return .failure(notSent(step, action: action)) }
        if case .success(let response) = answer, response.status == 404 {
            return .success(Accepted(model: model, exercised: [], action: action, outcome: "404 (its create was refused: no such announcement)"))
        }
        return .failure(Violation(
            contract: .visible, action: action,
            message: "\(action), whose create was refused, was sent to an id no one has and answered \(Self.short(answer))",
            expected: "404", outcome: Self.short(answer)))
    }

    /// A step that was not sent although its announcement exists in this order.
    private func notSent(_ step: ExecutedStep, action: String) -> Violation {
        Violation(
            contract: .visible, action: action,
            message: "not sent (\(step.notSent ?? "no request")), though in this order the announcement exists", expected: "an answer",
            outcome: "not sent")
    }
}
