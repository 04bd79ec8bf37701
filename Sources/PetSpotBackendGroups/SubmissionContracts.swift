import Foundation
import PetSpotContractGroups
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotConcurrency
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

/// Generated reports submitted as the app submits them: create, then the photo upload with Basic
/// auth (through the model's ``ReportSubmitter``), read back, found in the list around their
/// location, and deleted with the admin token.
///
/// `check` submits what the flow code under test submits (the reference model or the adapter),
/// each judged by the in-process mock at the case's own instant; `run` submits valid reports of
/// either flow made now. Every report gets a microchip number unique to the run.
package struct SubmissionContracts: BackendContractGroup {
    package let name = "submission"
    package let surfaces: Set<MockDefect.Surface> = []

    /// The group.
    package init() {}

    package static let create = "create answers 201 with a create response (6-digit password, lower-case UUID v4 id)"
    static let statusEcho = "create echoes the status"
    static let photoUrlNull = "create answers photoUrl null"
    package static let upload = "photo upload with Basic auth answers 201"
    static let readBack = "read back answers the announcement with photoUrl set and no managementPassword"
    package static let list = "list contains the announcement"
    static let delete = "admin delete answers 204, then the announcement is 404"

    /// Bytes uploaded per photo at most (the declared type's magic bytes, padded).
    static let maxPhotoBytes = 64 * 1024

    package func contracts(in session: ContractSession) -> [String] {
        [Self.create, Self.statusEcho, Self.photoUrlNull, Self.upload, Self.readBack, Self.list, Self.delete]
    }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        let target = backend.target, session = backend.session
        if backend.adminToken == nil { backend.skip(Self.delete, reason: "no --admin-token given") }
        let reports = await target.submissions()
        if reports.count < session.cases {
            session.recorder.note(
                "submission: \(reports.count) of \(session.cases) generated flow cases were submitted by the flow code (the others "
                    + "are blocked at a step, as the rules require); each submitted report is created, its photo uploaded, "
                    + "then read back, listed and deleted")
        }
        defer { target.serverClock?(nil) }
        let reportsAtOnce = target.serverClock == nil ? backend.concurrency : 1
        try await backend.forEach(reports, limit: reportsAtOnce) { report throws(GroupStop) in
            target.serverClock?(report.flowCase.context.now)
            // One report is one step: its requests are held together, so it is never cut in half.
            try await backend.holding(backend.adminToken == nil ? 4 : 6) { backend throws(GroupStop) in
                try await submit(report, backend: backend)
            }
        }
    }

    private func submit(_ report: BackendTarget.Submission, backend: GroupBackend) async throws(GroupStop) {
        let session = backend.session
        let flowCase = report.flowCase
        var payload = report.payload
        payload[.chipNumber] = .string(backend.microchip())
        // The model's submitter puts the created id in the upload's path, with the management
        // password: an id that is not a single path segment stops it there.
        let recording = RecordingTransport(CreatedIdCheck(base: backend.transport))
        let outcome = await ReportSubmitter(transport: recording).submit(payload, photo: Self.photo(for: flowCase))
        let exchanges = recording.exchanges
        guard let createExchange = exchanges.first else { return }
        let input = flowCase.json

        // Create.
        var redactor = backend.target.redactor
        var created: AnnouncementPath?
        var createProblem: String?
        var echoProblem: String?
        var photoUrlProblem: String?
        switch createExchange.response {
        case .failure(let error):
            createProblem = "no answer: \(error.description)"
        case .success(let response):
            if response.status != 201 {
                createProblem = "expected 201, got \(response.status)"
            } else if let body = try? JSONValue.parse(response.body) {
                if let password = body["managementPassword"]?.stringValue { redactor = redactor.adding(password) }
                switch body["id"]?.stringValue.map(AnnouncementPath.of) {
                case .success(let path): created = path
                case .failure(let refusal): createProblem = refusal.answered(by: "create")
                case nil: break
                }
                createProblem = createProblem ?? CreateAnswer.problem(body, schemas: session.schemas)
                if body["status"] != .string(payload.status.wireValue) {
                    echoProblem = "status is \(body["status"]?.serialized() ?? "missing"), sent \"\(payload.status.wireValue)\""
                }
                if body["photoUrl"] != .null {
                    photoUrlProblem = "photoUrl is \(body["photoUrl"]?.serialized() ?? "missing"), expected null"
                }
            } else {
                createProblem = "body is not JSON"
            }
        }
        let createExpected = "201 with the stored announcement, a 6-digit managementPassword, status \(payload.status.wireValue), photoUrl null"
        func record(_ contract: String, _ problem: String?, _ exchange: RecordingTransport.Exchange, expected: String) {
            backend.record(contract, problem, request: exchange.request, expected: expected, response: exchange.response, input: input, redactor: redactor)
        }
        record(Self.create, createProblem, createExchange, expected: createExpected)
        guard let created else {
            session.progress?.advance(failed: 1)
            return
        }
        record(Self.statusEcho, echoProblem, createExchange, expected: createExpected)
        record(Self.photoUrlNull, photoUrlProblem, createExchange, expected: createExpected)

        // Photo upload.
        var uploaded = false
        if exchanges.count > 1 {
            let upload = exchanges[1]
            var problem: String?
            switch upload.response {
            case .failure(let error): problem = "no answer: \(error.description)"
            case .success(let response): problem = response.status == 201 ? nil : "expected 201, got \(response.status)"
            }
            uploaded = problem == nil
            record(Self.upload, problem, upload, expected: "201 {}")
        } else if case .failure(let failure) = outcome {
            record(Self.upload, "the submitter did not upload: \(failure)", createExchange, expected: "201 {}")
        }

        // Read back.
        let id = created.id
        let readRequest = BackendTarget.getRequest(created.details)
        let read = try await backend.send(readRequest)
        backend.record(
            Self.readBack, Self.readBackProblem(read, id: id, uploaded: uploaded, schemas: session.schemas), request: readRequest,
            expected: "200 with the announcement, photoUrl /images/\(id).{ext}", response: read, input: input, redactor: redactor)

        // List (only announcements with a photo are listed), queried at the announcement's own
        // point, where production's known rounding defect can leave it out.
        if uploaded {
            let latitude = payload[.latitude]?.serialized() ?? "0", longitude = payload[.longitude]?.serialized() ?? "0"
            // The numbers as the payload spells them (`1E+1`), percent-encoded: a raw `+` reads as a space.
            let listRequest = BackendTarget.getRequest(RequestPath.list(["lat": latitude, "lng": longitude, "range": "1"]))
            let list = try await backend.send(listRequest)
            let target = backend.target
            let judged = Self.listProblem(list, id: id, schemas: session.schemas, isOwn: { target.didCreate($0) })
            var problem = judged.problem
            if backend.profile == .production, let listed = judged.listed, let lat = Double(latitude), let lng = Double(longitude) {
                if try await Self.isExactPointDefect(listed: listed, id: id, latitude: lat, longitude: lng, backend: backend) { problem = nil }
            }
            backend.record(
                Self.list, problem, request: listRequest,
                expected: "200 {\"data\": [...]} containing \(id)", response: list, input: input, redactor: redactor)
        }

        // Admin delete, then 404.
        if let adminToken = backend.adminToken {
            let deleteRequest = BackendTarget.adminDeleteRequest(created, authorization: adminToken)
            let deletion = try await backend.send(deleteRequest)
            var problem: String?
            var gone = false
            switch deletion {
            case .failure(let error): problem = "no answer: \(error.description)"
            case .success(let response) where response.status == 204:
                gone = true
                switch try await backend.send(readRequest) {
                case .success(let answer) where answer.status != 404: problem = "after the delete, GET answers \(answer.status), expected 404"
                case .failure(let error): problem = "after the delete, GET has no answer: \(error.description)"
                default: break
                }
            case .success(let response): problem = "expected 204, got \(response.status)"
            }
            backend.record(
                Self.delete, problem, request: deleteRequest, expected: gone ? "404 after the delete" : "204", response: deletion,
                input: input, redactor: redactor)
        }
        session.progress?.advance()
    }

    /// The photo the case attached, with bytes of its declared type (PNG or JPEG magic bytes)
    /// at most ``maxPhotoBytes`` long.
    static func photo(for flowCase: FlowCase) -> PhotoAttachment {
        let declared = flowCase.inputs.photo
        let size = min(max(declared?.byteCount ?? 1, 1), maxPhotoBytes)
        let mimeType = declared?.mimeType ?? "image/jpeg"
        return PhotoAttachment(
            fileName: declared?.fileName ?? "photo.jpg", mimeType: mimeType,
            contents: PhotoContents.bytes(mimeType: mimeType.lowercased() == "image/png" ? "image/png" : "image/jpeg", count: size))
    }

    static func readBackProblem(
        _ read: Result<TransportResponse, TransportError>, id: String, uploaded: Bool, schemas: ContractSchemas
    ) -> String? {
        switch read {
        case .failure(let error): return "no answer: \(error.description)"
        case .success(let response):
            guard response.status == 200 else { return "expected 200, got \(response.status)" }
            guard let body = try? JSONValue.parse(response.body) else { return "body is not JSON" }
            if body["managementPassword"] != nil { return "the answer contains managementPassword" }
            let violations = schemas.violations(of: body, against: .announcement)
            if !violations.isEmpty { return "body does not match announcement.schema.json: " + violations.prefix(3).joined(separator: "; ") }
            if uploaded, !(body["photoUrl"]?.stringValue?.hasPrefix("/images/\(id).") ?? false) {
                return "photoUrl is \(body["photoUrl"]?.serialized() ?? "missing"), expected /images/\(id).{ext}"
            }
            return nil
        }
    }

    /// What is wrong with the list around the announcement, and whether it lists the
    /// announcement (`nil` when the answer is not a valid list). Rows the run did not create are
    /// checked only for what the apps decode (``ListAnswer``).
    static func listProblem(
        _ list: Result<TransportResponse, TransportError>, id: String, schemas: ContractSchemas, isOwn: (String) -> Bool
    ) -> (problem: String?, listed: Bool?) {
        let body: JSONObject
        switch successObject(list, status: 200) {
        case .failure(let problem): return (problem.description, nil)
        case .success(let object): body = object
        }
        if let problem = ListAnswer.problem(body, schemas: schemas, isOwn: isOwn) { return (problem, nil) }
        let ids = body["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        return ids.contains(id)
            ? (nil, true) : ("the list around the announcement's location does not contain \(id) (\(ids.count) listed)", false)
    }

    /// Whether a list queried at the announcement's own point shows production's known rounding
    /// defect (``ExactPointListDefect``), noting the sighting: missing where production's formula
    /// predicts it (still present), or missing where a query 11 m away lists it (the same defect,
    /// rounded another way: one more request); listed where the formula predicts it missing, the
    /// defect is gone.
    static func isExactPointDefect(
        listed: Bool, id: String, latitude: Double, longitude: Double, backend: GroupBackend
    ) async throws(GroupStop) -> Bool {
        let predicted = ExactPointListDefect.isPredicted(latitude: latitude, longitude: longitude)
        if listed {
            if predicted { backend.target.noteKnownDefect(ExactPointListDefect.sighting(stillPresent: false)) }
            return false
        }
        var isDefect = predicted
        if !predicted {
            let nearby = latitude + (latitude > 89 ? -0.0001 : 0.0001)
            let probe = try await backend.send(BackendTarget.getRequest("/api/v1/announcements?lat=\(nearby)&lng=\(longitude)&range=1"))
            if case .success(let object) = successObject(probe, status: 200) {
                isDefect = object["data"]?.arrayValue?.contains { $0["id"]?.stringValue == id } ?? false
            }
        }
        if isDefect { backend.target.noteKnownDefect(ExactPointListDefect.sighting(stillPresent: true)) }
        return isDefect
    }
}
