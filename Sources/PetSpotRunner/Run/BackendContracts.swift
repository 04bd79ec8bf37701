import Foundation
import PetSpotContractKit
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel

/// The backend contracts of issue 6, run through any ``AnnouncementTransport``: over HTTP for
/// `run`, straight into the in-process mock for `check`. The same code both ways.
///
/// Groups, in order: submission of generated reports (create, photo upload, read back, list,
/// admin delete), the catalog's negative create requests, schema-derived negative create
/// requests, and the catalog's photo upload cases. Every announcement created is remembered;
/// ``cleanUp()`` deletes them with the admin token (outside the request budget) or lists them
/// as leftovers. Management passwords and the admin token never reach the report.
public final class BackendContracts: @unchecked Sendable {
    // Unchecked: the mutable registry is guarded by `lock`; everything else is immutable.
    /// Group names.
    public static let submissionGroup = "submission"
    /// See ``submissionGroup``.
    public static let catalogGroup = "create negatives (catalog)"
    /// See ``submissionGroup``.
    public static let derivedGroup = "create negatives (schema-derived)"
    /// See ``submissionGroup``.
    public static let photoGroup = "photo upload (catalog)"
    /// See ``submissionGroup``.
    public static let healthGroup = "health"

    /// Submission contract names.
    public static let createContract = "create answers 201 with a create response (6-digit password, lower-case UUID v4 id)"
    /// See ``createContract``.
    public static let statusEchoContract = "create echoes the status"
    /// See ``createContract``.
    public static let photoUrlNullContract = "create answers photoUrl null"
    /// See ``createContract``.
    public static let uploadContract = "photo upload with Basic auth answers 201"
    /// See ``createContract``.
    public static let readBackContract = "read back answers the announcement with photoUrl set and no managementPassword"
    /// See ``createContract``.
    public static let listContract = "list contains the announcement"
    /// See ``createContract``.
    public static let deleteContract = "admin delete answers 204, then the announcement is 404"

    /// Bytes uploaded per photo at most (the declared type's magic bytes, padded).
    public static let maxPhotoBytes = 64 * 1024

    let transport: BudgetedTransport
    let schemas: ContractSchemas
    let profile: BackendProfile
    let adminToken: String?
    let redactor: Redactor
    let recorder: ContractRecorder
    let microchips: MicrochipSequence
    let seed: UInt64
    let replay: String
    let concurrency: Int
    let progress: ProgressLine?
    private let lock = NSLock()
    private var created: [(id: String, microchip: String?)] = []
    private var deleted: Set<String> = []
    private var budgetNoted = false

    /// Prepares a run.
    public init(
        transport: BudgetedTransport, schemas: ContractSchemas, profile: BackendProfile, adminToken: String?,
        recorder: ContractRecorder, microchips: MicrochipSequence, seed: UInt64, replay: String, concurrency: Int,
        progress: ProgressLine?
    ) {
        self.transport = transport
        self.schemas = schemas
        self.profile = profile
        self.adminToken = adminToken
        self.redactor = Redactor(secrets: adminToken.map { [$0] } ?? [])
        self.recorder = recorder
        self.microchips = microchips
        self.seed = seed
        self.replay = replay
        self.concurrency = max(1, concurrency)
        self.progress = progress
    }

    // MARK: Health

    /// `GET /api/health`; throws ``RunnerError/unreachable(_:)`` when there is no answer at all.
    public func checkHealth(target: String) async throws(RunnerError) {
        let contract = "health answers 200 with the health body"
        recorder.declare(group: Self.healthGroup, contract: contract)
        let request = TransportRequest(method: "GET", path: "/api/health", headers: [("Accept", "application/json")])
        guard transport.reserve(1) else {
            recorder.skip(group: Self.healthGroup, contract: contract, reason: "request budget reached")
            return
        }
        let response: TransportResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw .unreachable("cannot reach \(target): \(error.description)")
        }
        var problem: String?
        if response.status != 200 {
            problem = "expected 200, got \(response.status)"
        } else if let body = try? JSONValue.parse(response.body) {
            let violations = schemas.violations(of: body, against: .health)
            if !violations.isEmpty { problem = "body does not match health.schema.json: " + violations.prefix(3).joined(separator: "; ") }
        } else {
            problem = "body is not JSON"
        }
        record(Self.healthGroup, contract, problem, request: request, expected: "200 {\"status\": \"ok\", \"timestamp\": ...}", response: .success(response))
    }

    // MARK: Submission

    /// Declares the submission contracts (so they are listed even when no case submits).
    func declareSubmission() {
        for contract in [
            Self.createContract, Self.statusEchoContract, Self.photoUrlNullContract, Self.uploadContract,
            Self.readBackContract, Self.listContract, Self.deleteContract,
        ] {
            recorder.declare(group: Self.submissionGroup, contract: contract)
        }
        if adminToken == nil {
            recorder.skip(group: Self.submissionGroup, contract: Self.deleteContract, reason: "no --admin-token given")
        }
    }

    /// Submits each payload with its photo through the model's ``ReportSubmitter``, then reads
    /// it back, finds it in the list and deletes it; `beforeEach` runs before each case (the
    /// in-process mock sets its clock to the case's instant there).
    func submit(
        _ reports: [(flowCase: FlowCase, payload: CreateAnnouncementRequest)],
        beforeEach: (@Sendable (FlowCase) -> Void)? = nil
    ) async {
        declareSubmission()
        await forEachConcurrently(reports, limit: beforeEach == nil ? concurrency : 1) { report in
            beforeEach?(report.flowCase)
            await self.submitOne(report.flowCase, report.payload)
        }
    }

    private func submitOne(_ flowCase: FlowCase, _ original: CreateAnnouncementRequest) async {
        let requestsPerCase = adminToken == nil ? 4 : 6
        guard transport.reserve(requestsPerCase) else {
            noteBudget()
            return
        }
        var payload = original
        payload[.chipNumber] = .string(microchips.next())
        let photoSize = min(max(flowCase.inputs.photo?.byteCount ?? 1, 1), Self.maxPhotoBytes)
        let mimeType = flowCase.inputs.photo?.mimeType ?? "image/jpeg"
        let photo = PhotoAttachment(
            fileName: flowCase.inputs.photo?.fileName ?? "photo.jpg", mimeType: mimeType,
            contents: PhotoContents.bytes(mimeType: mimeType.lowercased() == "image/png" ? "image/png" : "image/jpeg", count: photoSize))
        let recording = RecordingTransport(transport)
        let outcome = await ReportSubmitter(transport: recording).submit(payload, photo: photo)
        let exchanges = recording.exchanges
        let caseInput = flowCase.json
        guard let createExchange = exchanges.first else { return }
        let group = Self.submissionGroup

        // Create.
        var caseRedactor = redactor
        var createdId: String?
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
                if let password = body["managementPassword"]?.stringValue { caseRedactor = Redactor(secrets: redactor.secrets + [password]) }
                let violations = schemas.violations(of: body, against: .createResponse)
                if let id = body["id"]?.stringValue { createdId = id }
                if !violations.isEmpty {
                    createProblem = "body does not match create-response.schema.json: " + violations.prefix(3).joined(separator: "; ")
                } else {
                    do {
                        let decoded = try CreateAnnouncementResponse(json: body)
                        if let number = Int(decoded.managementPassword), !(100_000...999_999).contains(number) {
                            createProblem = "managementPassword is outside 100000-999999"
                        } else if !Self.isLowercaseUUIDv4(decoded.announcement.id) {
                            createProblem = "id \(decoded.announcement.id) is not a lower-case UUID v4"
                        }
                    } catch {
                        createProblem = "create response: \(error.description)"
                    }
                }
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
        if let createdId { remember(createdId, microchip: payload[.chipNumber]?.stringValue) }
        let createExpected = "201 with the stored announcement, a 6-digit managementPassword, status \(payload.status.wireValue), photoUrl null"
        record(group, Self.createContract, createProblem, exchange: createExchange, expected: createExpected, input: caseInput, redactor: caseRedactor)
        guard createProblem == nil || createdId != nil else {
            progress?.advance(failed: 1)
            return
        }
        record(group, Self.statusEchoContract, echoProblem, exchange: createExchange, expected: createExpected, input: caseInput, redactor: caseRedactor)
        record(group, Self.photoUrlNullContract, photoUrlProblem, exchange: createExchange, expected: createExpected, input: caseInput, redactor: caseRedactor)

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
            record(group, Self.uploadContract, problem, exchange: upload, expected: "201 {}", input: caseInput, redactor: caseRedactor)
        } else if case .failure(let failure) = outcome, createdId != nil {
            record(group, Self.uploadContract, "the submitter did not upload: \(failure)", exchange: createExchange, expected: "201 {}", input: caseInput, redactor: caseRedactor)
        }
        guard let id = createdId else {
            progress?.advance(failed: 1)
            return
        }

        // Read back.
        let readRequest = TransportRequest(method: "GET", path: "/api/v1/announcements/\(id)", headers: [("Accept", "application/json")])
        let read = await exchange(readRequest)
        var readProblem: String?
        switch read {
        case .failure(let error): readProblem = "no answer: \(error.description)"
        case .success(let response):
            if response.status != 200 {
                readProblem = "expected 200, got \(response.status)"
            } else if let body = try? JSONValue.parse(response.body) {
                let violations = schemas.violations(of: body, against: .announcement)
                if body["managementPassword"] != nil {
                    readProblem = "the answer contains managementPassword"
                } else if !violations.isEmpty {
                    readProblem = "body does not match announcement.schema.json: " + violations.prefix(3).joined(separator: "; ")
                } else if uploaded, !(body["photoUrl"]?.stringValue?.hasPrefix("/images/\(id).") ?? false) {
                    readProblem = "photoUrl is \(body["photoUrl"]?.serialized() ?? "missing"), expected /images/\(id).{ext}"
                }
            } else {
                readProblem = "body is not JSON"
            }
        }
        record(group, Self.readBackContract, readProblem, request: readRequest, expected: "200 with the announcement, photoUrl /images/\(id).{ext}", response: read, input: caseInput, redactor: caseRedactor)

        // List (only announcements with a photo are listed).
        if uploaded {
            let listRequest = TransportRequest(
                method: "GET",
                path: "/api/v1/announcements?lat=\(payload[.latitude]?.serialized() ?? "0")&lng=\(payload[.longitude]?.serialized() ?? "0")&range=1",
                headers: [("Accept", "application/json")])
            let list = await exchange(listRequest)
            var listProblem: String?
            switch list {
            case .failure(let error): listProblem = "no answer: \(error.description)"
            case .success(let response):
                if response.status != 200 {
                    listProblem = "expected 200, got \(response.status)"
                } else if let body = try? JSONValue.parse(response.body) {
                    let violations = schemas.violations(of: body, against: .listResponse)
                    let ids = body["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
                    if !violations.isEmpty {
                        listProblem = "body does not match list-response.schema.json: " + violations.prefix(3).joined(separator: "; ")
                    } else if !ids.contains(id) {
                        listProblem = "the list around the announcement's location does not contain \(id) (\(ids.count) listed)"
                    }
                } else {
                    listProblem = "body is not JSON"
                }
            }
            record(group, Self.listContract, listProblem, request: listRequest, expected: "200 {\"data\": [...]} containing \(id)", response: list, input: caseInput, redactor: caseRedactor)
        }

        // Admin delete, then 404.
        if let adminToken {
            let deleteRequest = TransportRequest(
                method: "DELETE", path: "/api/admin/v1/announcements/\(id)", headers: [("Authorization", adminToken)])
            let deletion = await exchange(deleteRequest)
            var problem: String?
            var gone = false
            switch deletion {
            case .failure(let error): problem = "no answer: \(error.description)"
            case .success(let response):
                if response.status == 204 {
                    gone = true
                    markDeleted(id)
                    let after = await exchange(readRequest)
                    if case .success(let answer) = after, answer.status != 404 {
                        problem = "after the delete, GET answers \(answer.status), expected 404"
                    } else if case .failure(let error) = after {
                        problem = "after the delete, GET has no answer: \(error.description)"
                    }
                } else {
                    problem = "expected 204, got \(response.status)"
                }
            }
            record(group, Self.deleteContract, problem, request: deleteRequest, expected: gone ? "404 after the delete" : "204", response: deletion, input: caseInput, redactor: caseRedactor)
        }
        progress?.advance()
    }

    // MARK: Negative create requests

    /// Every catalog case, with the expectation of this run's profile.
    func catalogNegatives() async {
        let catalog = schemas.documents.negativeCases
        for item in catalog.cases { recorder.declare(group: Self.catalogGroup, contract: Self.catalogName(item)) }
        await forEachConcurrently(catalog.cases, limit: concurrency) { item in
            await self.runCatalogCase(item, catalog: catalog)
        }
    }

    static func catalogName(_ item: NegativeCase) -> String { "\(item.id): \(item.description)" }

    private func runCatalogCase(_ item: NegativeCase, catalog: CaseCatalog) async {
        let contract = Self.catalogName(item)
        guard transport.reserve(item.setup == nil ? 1 : 2) else {
            recorder.skip(group: Self.catalogGroup, contract: contract, reason: "request budget reached")
            noteBudget()
            return
        }
        let base = catalog.basePayload(microchipNumber: microchips.next())
        if item.setup == .createBaseFirst {
            let setup = Self.jsonRequest(.object(base))
            let answer = await exchange(setup)
            guard case .success(let response) = answer, response.status == 201,
                let id = (try? JSONValue.parse(response.body))?["id"]?.stringValue
            else {
                record(Self.catalogGroup, contract, "setup: creating the base payload did not answer 201", request: setup, expected: "201", response: answer)
                return
            }
            remember(id, microchip: base["microchipNumber"]?.stringValue)
        }
        let body: CaseBody
        do {
            body = try item.body(from: base)
        } catch {
            record(Self.catalogGroup, contract, "the case cannot be built: \(error.description)", request: nil, expected: nil, response: nil)
            return
        }
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if let contentType = body.contentType { headers.insert(("Content-Type", contentType), at: 0) }
        let request = TransportRequest(method: "POST", path: "/api/v1/announcements", headers: headers, body: Data(body.bytes))
        let expected = item.expected(for: profile)
        await sendNegative(request, expected: expected, group: Self.catalogGroup, contract: contract, caseId: item.id, microchip: base["microchipNumber"]?.stringValue)
    }

    /// Negative requests derived from the create-request schema: each required field dropped,
    /// each field `null`, of a wrong type, past its bounds, against its pattern or enum, and
    /// unknown keys. A derived case is kept only when the schema itself rejects its body.
    func derivedNegatives() async {
        let base = schemas.documents.negativeCases.basePayload
        let derived = SchemaDerivedCases.make(schema: schemas.documents[.createRequest], base: base) { body in
            !schemas.violations(of: body, against: .createRequest).isEmpty
        }
        for category in SchemaDerivedCases.Category.allCases {
            recorder.declare(group: Self.derivedGroup, contract: category.contractName)
        }
        await forEachConcurrently(derived, limit: concurrency) { item in
            guard self.transport.reserve(1) else {
                self.noteBudget()
                return
            }
            var body = item.body
            let microchip = self.microchips.next()
            if item.field != "microchipNumber" || item.category == .unknownKey { body["microchipNumber"] = .string(microchip) }
            await self.sendNegative(
                Self.jsonRequest(.object(body)), expected: item.expected, group: Self.derivedGroup,
                contract: item.category.contractName, caseId: item.id, microchip: microchip)
        }
    }

    private func sendNegative(
        _ request: TransportRequest, expected: ExpectedResponse, group: String, contract: String, caseId: String, microchip: String?
    ) async {
        let answer = await exchange(request)
        var problem: String?
        switch answer {
        case .failure(let error): problem = "no answer: \(error.description)"
        case .success(let response):
            let body = try? JSONValue.parse(response.body)
            problem = expected.mismatch(status: response.status, body: body)
            if problem == nil, expected.isError, let body {
                let violations = schemas.violations(of: body, against: .errorEnvelope)
                if !violations.isEmpty { problem = "error body does not match error-envelope.schema.json: " + violations.prefix(3).joined(separator: "; ") }
            }
            if (200..<300).contains(response.status), let id = body?["id"]?.stringValue {
                remember(id, microchip: microchip)
            }
        }
        record(group, contract, problem, request: request, expected: expected.description, response: answer, caseId: caseId)
    }

    // MARK: Photo upload cases

    /// Every photo upload case of the catalog, against one announcement created for them.
    func photoCases() async {
        let catalog = schemas.documents.photoUploadCases
        for item in catalog.cases { recorder.declare(group: Self.photoGroup, contract: "\(item.id): \(item.description)") }
        guard transport.reserve(1) else {
            for item in catalog.cases {
                recorder.skip(group: Self.photoGroup, contract: "\(item.id): \(item.description)", reason: "request budget reached")
            }
            noteBudget()
            return
        }
        let microchip = microchips.next()
        let setup = Self.jsonRequest(.object(schemas.documents.negativeCases.basePayload(microchipNumber: microchip)))
        let answer = await exchange(setup)
        guard case .success(let response) = answer, response.status == 201,
            let body = try? JSONValue.parse(response.body), let id = body["id"]?.stringValue,
            let password = body["managementPassword"]?.stringValue
        else {
            for item in catalog.cases {
                record(Self.photoGroup, "\(item.id): \(item.description)", "setup: creating an announcement did not answer 201", request: setup, expected: "201", response: answer)
            }
            return
        }
        remember(id, microchip: microchip)
        let redactor = Redactor(secrets: self.redactor.secrets + [password])
        await forEachConcurrently(catalog.cases, limit: concurrency) { item in
            let contract = "\(item.id): \(item.description)"
            guard self.transport.reserve(1) else {
                self.recorder.skip(group: Self.photoGroup, contract: contract, reason: "request budget reached")
                self.noteBudget()
                return
            }
            let targetId: String
            switch item.announcement {
            case .created: targetId = id
            case .unknown: targetId = UUID().uuidString.lowercased()
            case .malformed: targetId = PhotoUploadCase.Target.malformedID
            }
            let credentials = PhotoCredentials(id: targetId, password: password)
            let request = Self.photoRequest(item, announcementId: targetId, credentials: credentials)
            let answer = await self.exchange(request)
            let expected = item.expected(for: self.profile)
            var problem: String?
            switch answer {
            case .failure(let error): problem = "no answer: \(error.description)"
            case .success(let response):
                problem = expected.mismatch(status: response.status, body: try? JSONValue.parse(response.body))
            }
            self.record(Self.photoGroup, contract, problem, request: request, expected: expected.description, response: answer, caseId: item.id, redactor: redactor)
        }
    }

    static func photoRequest(_ item: PhotoUploadCase, announcementId: String, credentials: PhotoCredentials) -> TransportRequest {
        let boundary = "PetSpotContractsBoundary5f2a"
        var body = Data()
        for part in item.otherParts {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"\r\n\r\n\(part.value)\r\n".utf8))
        }
        if let file = item.file {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.partName)\"; filename=\"\(file.fileName)\"\r\n".utf8))
            body.append(Data("Content-Type: \(file.contentType)\r\n\r\n".utf8))
            body.append(Data(file.content.bytes()))
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        var headers: [(name: String, value: String)] = [("Content-Type", "multipart/form-data; boundary=\(boundary)")]
        if let authorization = item.authorization.headerValue(with: credentials) { headers.append(("Authorization", authorization)) }
        return TransportRequest(method: "POST", path: "/api/v1/announcements/\(announcementId)/photos", headers: headers, body: body)
    }

    // MARK: Cleanup

    /// Deletes every announcement this run created (admin token given), outside the request
    /// budget; records the rest as leftovers.
    public func cleanUp() async {
        let remaining: [(id: String, microchip: String?)] = lock.withLock { created.filter { !deleted.contains($0.id) } }
        guard let adminToken else {
            for item in remaining {
                recorder.leave(Leftover(id: item.id, microchipNumber: item.microchip, reason: "no --admin-token given; delete it by hand"))
            }
            return
        }
        await forEachConcurrently(remaining, limit: concurrency) { item in
            let request = TransportRequest(method: "DELETE", path: "/api/admin/v1/announcements/\(item.id)", headers: [("Authorization", adminToken)])
            do {
                let response = try await self.transport.sendUnbudgeted(request)
                if response.status == 204 || response.status == 404 {
                    self.markDeleted(item.id)
                } else {
                    self.recorder.leave(Leftover(id: item.id, microchipNumber: item.microchip, reason: "delete answered \(response.status)"))
                }
            } catch {
                self.recorder.leave(Leftover(id: item.id, microchipNumber: item.microchip, reason: "delete got no answer: \(String(describing: error))"))
            }
        }
    }

    /// Announcements created so far.
    public var createdCount: Int { lock.withLock { created.count } }

    // MARK: Helpers

    private func remember(_ id: String, microchip: String?) {
        lock.withLock { created.append((id, microchip)) }
    }

    private func markDeleted(_ id: String) {
        _ = lock.withLock { deleted.insert(id) }
    }

    private func noteBudget() {
        let first = lock.withLock { () -> Bool in
            defer { budgetNoted = true }
            return !budgetNoted
        }
        if first { recorder.note("the request budget (--max-requests \(transport.limit)) was reached; later cases were not run") }
    }

    private func exchange(_ request: TransportRequest) async -> Result<TransportResponse, TransportError> {
        do {
            return .success(try await transport.send(request))
        } catch {
            return .failure(error)
        }
    }

    static func jsonRequest(_ body: JSONValue) -> TransportRequest {
        TransportRequest(
            method: "POST", path: "/api/v1/announcements",
            headers: [("Content-Type", "application/json"), ("Accept", "application/json")], body: body.serializedData())
    }

    private func record(
        _ group: String, _ contract: String, _ problem: String?, exchange: RecordingTransport.Exchange, expected: String,
        input: JSONValue?, redactor: Redactor
    ) {
        record(group, contract, problem, request: exchange.request, expected: expected, response: exchange.response, input: input, redactor: redactor)
    }

    private func record(
        _ group: String, _ contract: String, _ problem: String?, request: TransportRequest?, expected: String?,
        response: Result<TransportResponse, TransportError>?, input: JSONValue? = nil, caseId: String? = nil,
        redactor: Redactor? = nil
    ) {
        guard let problem else {
            recorder.pass(group: group, contract: contract)
            return
        }
        let redactor = redactor ?? self.redactor
        let actual: String? = response.map {
            switch $0 {
            case .success(let answer): redactor.response(answer)
            case .failure(let error): "no answer: \(error.description)"
            }
        }
        recorder.fail(group: group, contract: contract, ContractFailure(
            message: redactor.scrub(problem), caseId: caseId, request: request.map(redactor.request), expected: expected, actual: actual,
            originalInput: input, seed: seed, replay: replay))
    }

    static func isLowercaseUUIDv4(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 8, 13, 18, 23: if byte != UInt8(ascii: "-") { return false }
            case 14: if byte != UInt8(ascii: "4") { return false }
            case 19: if !"89ab".utf8.contains(byte) { return false }
            default: if !"0123456789abcdef".utf8.contains(byte) { return false }
            }
        }
        return true
    }
}

/// Runs `body` for every item with at most `limit` running at once.
func forEachConcurrently<Item: Sendable>(
    _ items: [Item], limit: Int, _ body: @escaping @Sendable (Item) async -> Void
) async {
    await withTaskGroup(of: Void.self) { group in
        var index = 0
        let width = max(1, limit)
        while index < items.count && index < width {
            let item = items[index]
            group.addTask { await body(item) }
            index += 1
        }
        while await group.next() != nil {
            if index < items.count {
                let item = items[index]
                group.addTask { await body(item) }
                index += 1
            }
        }
    }
}

/// Microchip numbers unique to one run: a random 9-digit prefix, then a 6-digit counter
/// (15 digits, as the app allows). Leftovers of one run can never collide with another's, and
/// the seeded production record `123456789012345` is never produced.
public final class MicrochipSequence: @unchecked Sendable {
    // Unchecked: `counter` is guarded by `lock`.
    /// The run's prefix.
    public let prefix: String
    private let lock = NSLock()
    private var counter = 0

    /// A sequence with a random prefix.
    public init() {
        var prefix = String(UInt64.random(in: 100_000_000...999_999_999))
        if prefix == "123456789" { prefix = "987654321" }
        self.prefix = prefix
    }

    /// The next number.
    public func next() -> String {
        let value = lock.withLock { () -> Int in
            counter += 1
            return counter % 1_000_000
        }
        let digits = String(value)
        return prefix + String(repeating: "0", count: 6 - digits.count) + digits
    }
}
