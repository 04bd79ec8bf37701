import Foundation
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotFlowChecks
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

/// backend-contract.md's "the list has no size limit and no paging", once per run at a depth no
/// page size common in the field (20, 25, 50, 100) reaches: more than 100 announcements with a
/// photo visible to one query, every one of which the list must answer.
///
/// The group creates ``ListDepth`` announcements (by default a count drawn from the seed in
/// ``ListDepth/drawnRange``), each with a photo, 0.2 to 0.8 km around a point of the run's own in
/// the South Pacific (placed by the run's seed, so two runs at once use different points; far
/// from anyone's data), lists within 1 km of the point and unfiltered, and compares
/// the run's own ids only: others' rows on a staging backend neither help nor hurt. Each create
/// and its upload are held together (``GroupBackend/holding(_:_:)``), so the budget never cuts
/// one in half; the announcements are deleted at the end with the admin token, through the
/// budget (what a delete leaves, the run's cleanup deletes). Without an admin token it would
/// leave them all behind, so it is skipped; so it is when the budget cannot pay for it.
package struct ListDepthContracts: BackendContractGroup {
    package let name = "list depth"
    package let surfaces: Set<MockDefect.Surface> = [.list]

    /// The group.
    package init() {}

    /// The contract, as the report shows it.
    package static let everyMatch = "the list shows every match, however many"

    /// The range queried around the point, in km.
    static let range = 1

    package func contracts(in session: ContractSession) -> [String] { [Self.everyMatch] }

    /// Requests the group sends for `count` announcements: a create, an upload and a delete each,
    /// and the two lists.
    package static func cost(_ count: Int) -> Int { 3 * count + 2 }

    /// The run's point: 50.8° S, and a longitude from 140° W eastwards in steps of 0.03° (2.1 km
    /// there) chosen by the run's seed, so that runs at once (with other seeds) use other points;
    /// more than 200 km from the list group's centre and the sequences group's.
    package static func point(seed: UInt64) -> (lat: Double, lng: Double) {
        (lat: -50.8, lng: -140.0 + 0.03 * Double(seed % 1000))
    }

    /// Where the announcement `index` of `count` lies from the point: 0.2 to 0.8 km away (never at
    /// the point itself, where production's `acos` can leave an announcement out; at least 0.2 km
    /// inside the range), bearings a golden angle apart.
    static func placement(_ index: Int, of count: Int) -> (kilometres: Double, bearing: Double) {
        let share = count > 1 ? Double(index) / Double(count - 1) : 0
        return (0.2 + 0.6 * share, (137.5 * Double(index)).truncatingRemainder(dividingBy: 360))
    }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        let count = backend.target.listDepth.count(seed: backend.session.seed)
        guard count > 0 else {
            backend.skip(Self.everyMatch, reason: "--list-depth 0")
            return
        }
        guard let adminToken = backend.adminToken else {
            backend.skip(Self.everyMatch, reason: "no --admin-token given: it creates \(count) announcements and must delete them")
            return
        }
        let transport = backend.target.transport
        let left = transport.limit - transport.requestsSent
        guard left >= Self.cost(count) else {
            backend.skip(
                Self.everyMatch,
                reason: "the request budget (--max-requests \(transport.limit)) leaves \(left) requests and \(count) announcements need "
                    + "\(Self.cost(count)) (a create, an upload and a delete each, and 2 lists): raise --max-requests or lower --list-depth")
            return
        }
        let point = Self.point(seed: backend.session.seed)
        let place = "\(point.lat), \(point.lng)"
        backend.session.recorder.describe(
            group: name,
            "\(count) announcements with a photo 0.2 to 0.8 km from \(place) (\(backend.target.listDepth == .drawn ? "a count drawn from the seed" : "--list-depth")), "
                + "listed within \(Self.range) km and unfiltered, then deleted")

        let (made, complete) = try await create(count, around: point, backend)
        if complete {
            let ids = made.map(\.id)
            let isOwn = { (id: String) in backend.target.didCreate(id) }
            let queries = [
                ("within \(Self.range) km of \(place)", RequestPath.list(["lat": "\(point.lat)", "lng": "\(point.lng)", "range": "\(Self.range)"])),
                ("unfiltered", RequestPath.list([])),
            ]
            for (label, path) in queries {
                let answer = try await backend.exchange(BackendTarget.getRequest(path))
                backend.record(
                    Self.everyMatch, Self.problem(answer.response, ids: ids, query: label, schemas: backend.schemas, isOwn: isOwn), answer,
                    expected: "200 listing all \(count) of the run's announcements with a photo (\(label)), beside any others'")
            }
        }
        try await delete(made, token: adminToken, backend)
    }

    /// Creates `count` announcements with a photo around `point`, each create and its upload held
    /// together; on the first that does not answer 201 the contract fails as a setup failure and
    /// no more are started.
    /// - Returns: those created, in order (with a photo or not), and whether all were, with a photo.
    private func create(
        _ count: Int, around point: (lat: Double, lng: Double), _ backend: GroupBackend
    ) async throws(GroupStop) -> (made: [GroupBackend.Created], complete: Bool) {
        let made = Locked<[Int: GroupBackend.Created]>([:])
        let failed = Locked(false)
        let contract = Self.everyMatch
        /// Records the first setup failure; `false` for every later one.
        let firstFailure = { @Sendable in failed.withLock { failed in defer { failed = true }; return !failed } }
        try await backend.forEach(Array(0..<count)) { index throws(GroupStop) in
            guard !failed.withLock({ $0 }) else { return }
            try await backend.holding(2) { held throws(GroupStop) in
                let spot = Self.placement(index, of: count)
                let location = GreatCircle.destination(point.lat, point.lng, kilometres: spot.kilometres, bearing: spot.bearing)
                var body = held.basePayload()
                body["locationLatitude"] = .number(JSONNumber(location.lat))
                body["locationLongitude"] = .number(JSONNumber(location.lng))
                switch try await held.create(body) {
                case .failure(let setup):
                    if firstFailure() { held.recordSetupFailure([contract], setup, what: "creating announcement \(index + 1) of \(count)") }
                case .success(let created):
                    made.withLock { $0[index] = created }
                    let upload = try await held.exchange(photoUploadRequest(
                        created.path, password: created.password, fileName: "pet.png", contentType: "image/png",
                        bytes: SampleImage.png(tag: "petspot-contracts list depth \(index)")))
                    guard case .success(let response) = upload.response, response.status == 201 else {
                        if firstFailure() {
                            held.record(
                                contract, "setup: the photo upload of announcement \(index + 1) of \(count) did not answer 201", upload,
                                expected: "201 {}", password: created.password)
                        }
                        return
                    }
                }
            }
        }
        let created = made.withLock { $0 }.sorted { $0.key < $1.key }.map(\.value)
        return (created, created.count == count && !failed.withLock { $0 })
    }

    /// Deletes `made` with the admin token, through the budget; a delete that does not answer 204
    /// leaves its announcement to the cleanup.
    private func delete(_ made: [GroupBackend.Created], token: String, _ backend: GroupBackend) async throws(GroupStop) {
        try await backend.forEach(made) { created throws(GroupStop) in
            _ = try await backend.send(BackendTarget.adminDeleteRequest(created.path, authorization: token))
        }
    }

    /// What is wrong with a list answer that must hold every one of `ids` (the run's, in the
    /// order they were created), or `nil`. Rows the run did not create are checked only for what
    /// the apps decode (``ListAnswer``).
    static func problem(
        _ answer: Result<TransportResponse, TransportError>, ids: [String], query: String, schemas: ContractSchemas, isOwn: (String) -> Bool
    ) -> String? {
        let body: JSONObject
        switch successObject(answer, status: 200) {
        case .failure(let problem): return problem.description
        case .success(let object): body = object
        }
        if let problem = ListAnswer.problem(body, schemas: schemas, isOwn: isOwn) { return problem }
        let rows = body["data"]?.arrayValue ?? []
        let listed = Set(rows.compactMap { $0["id"]?.stringValue })
        let missing = ids.enumerated().filter { !listed.contains($0.element) }
        guard !missing.isEmpty else { return nil }
        let examples = missing.prefix(3).map { "\($0.element) (created #\($0.offset + 1))" }.joined(separator: ", ")
        return "the list (\(query)) answers \(ids.count - missing.count) of the run's \(ids.count) announcements with a photo, "
            + "\(rows.count) rows in all: it leaves out \(missing.count), e.g. \(examples); the list has no size limit and no paging"
    }
}
