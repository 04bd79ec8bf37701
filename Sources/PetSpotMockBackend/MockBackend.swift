import Foundation
import PetSpotContractKit
import PetSpotHTTP
import PetSpotJSON

/// The transport failure an in-process mock reports for an injected dropped connection.
public enum MockTransportError: Error, Sendable, Equatable {
    /// The connection was closed without an answer (the request was not processed).
    case connectionDropped
}

/// A stand-in for the PetSpot announcements backend that answers as backend-contract.md says.
///
/// It serves every documented route — create, photo upload, `/images`, list with a location
/// filter, details, admin delete, health — and the behaviour every route shares (CORS and the
/// `OPTIONS` preflight, `HEAD`, gzip and deflate request bodies, charsets, malformed
/// percent-encoding) from a thread-safe in-memory store, in one of two profiles:
/// ``BackendProfile/strict`` (the default: empty or blank optional strings are refused,
/// malformed JSON is a 400, clear messages naming the field) or ``BackendProfile/production``
/// (exactly what production accepts and answers, its messages and defects included). Use it
/// in-process, without sockets:
///
/// ```swift
/// let backend = MockBackend()
/// let response = backend.answer(HTTPRequest(
///     method: "POST", target: "/api/v1/announcements",
///     headers: ["Content-Type": "application/json"], body: Array(json.utf8)))
/// response.status   // 201
/// ```
///
/// or over HTTP with ``MockHTTPServer``. A ``FaultPlan`` makes a seeded share of requests fail
/// (5xx, delay, dropped connection) to exercise clients' retry logic; ``MockDefect``s plant
/// realistic backend bugs to measure a contract runner's power to find them; ``MockChange``s
/// serve a deliberately changed contract to measure a release gate.
///
/// Invariants: an answered create is stored until deleted; the management password exists only
/// in the 201 answer (the store keeps a salted SHA-256); microchip uniqueness is checked and
/// claimed atomically. Each request costs O(size of the request) plus, for the list, O(stored
/// announcements).
public final class MockBackend: Sendable {
    /// The admin token accepted by the delete routes unless another is configured.
    public static let defaultAdminToken = "petspot-admin-token"
    /// Largest create body accepted (100 KB as Express's JSON parser counts: 102,400 bytes).
    public static let maxCreateBodyBytes = RequestBodyReader.maxJSONBodyBytes
    /// Largest photo accepted is one byte below this (20 MiB).
    public static let photoSizeLimit = 20 * 1024 * 1024
    /// The methods an `OPTIONS` preflight allows (the `cors` package's default list).
    public static let allowedMethods = "GET,HEAD,PUT,PATCH,POST,DELETE"

    /// The profile answered.
    public let profile: BackendProfile
    /// The planted defects (none by default).
    public let defects: Set<MockDefect>
    /// The contract changes served (none by default: the contract of backend-contract.md).
    public let changes: Set<MockChange>
    /// The raw `Authorization` value the delete routes accept.
    public let adminToken: String
    /// The fault plan applied by ``handle(_:)`` and ``respond(to:)``.
    public let faults: FaultPlan

    private let behaviour: MockBehaviour
    private let clock: @Sendable () -> Date
    private let store = AnnouncementStore()
    private let injector: FaultInjector

    /// A mock with an empty store.
    /// - Parameters:
    ///   - profile: `strict` (default) or `production`.
    ///   - adminToken: the token the delete routes accept.
    ///   - faults: which requests to fail; none by default.
    ///   - defects: the backend bugs to plant; none by default.
    ///   - changes: the contract changes to serve; none by default.
    ///   - clock: the server's current instant (timestamps, the future-date rule).
    ///   - sampleRows: whether the store starts with production's 8 sample announcements
    ///     (``SampleRows``), as production's does after every start; `false` by default (an
    ///     empty store).
    public init(
        profile: BackendProfile = .strict, adminToken: String = MockBackend.defaultAdminToken,
        faults: FaultPlan = .none, defects: Set<MockDefect> = [], changes: Set<MockChange> = [],
        clock: @escaping @Sendable () -> Date = { Date() }, sampleRows: Bool = false
    ) {
        self.profile = profile
        self.defects = defects
        self.changes = changes
        self.adminToken = adminToken
        self.faults = faults
        self.behaviour = MockBehaviour(profile: profile, defects: defects)
        self.clock = clock
        self.injector = FaultInjector(plan: faults)
        self.hasRaceWindow = defects.contains(where: \.hasRaceWindow)
        if sampleRows { store.seed(SampleRows.entries) }
    }

    /// Whether a planted defect sleeps inside a request (``MockDefect/hasRaceWindow``): then
    /// ``respond(to:)`` answers on a thread of its own, so that concurrent requests meet in the
    /// window however few threads the caller's executor has.
    private let hasRaceWindow: Bool

    // MARK: Entry points

    /// Answers `request`, applying the fault plan (a delay blocks the calling thread).
    /// - Throws: ``MockTransportError/connectionDropped`` when the plan drops this request.
    public func handle(_ request: HTTPRequest) throws(MockTransportError) -> HTTPResponse {
        guard let decision = faultDecision(for: request) else { return answer(request) }
        if decision.delayMilliseconds > 0 { Thread.sleep(forTimeInterval: Double(decision.delayMilliseconds) / 1000) }
        return try apply(decision, to: request)
    }

    /// Answers `request`, applying the fault plan (a delay suspends the task).
    /// - Throws: ``MockTransportError/connectionDropped`` when the plan drops this request.
    public func respond(to request: HTTPRequest) async throws(MockTransportError) -> HTTPResponse {
        guard let decision = faultDecision(for: request) else {
            return hasRaceWindow ? await answerOnOwnThread(request) : answer(request)
        }
        if decision.delayMilliseconds > 0 { try? await Task.sleep(for: .milliseconds(decision.delayMilliseconds)) }
        return try apply(decision, to: request)
    }

    /// ``answer(_:)`` on a new thread: a race window's sleep then blocks no thread of the caller's.
    private func answerOnOwnThread(_ request: HTTPRequest) async -> HTTPResponse {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: self.answer(request)) }
            thread.start()
        }
    }

    /// Answers `request` as the backend would, ignoring the fault plan.
    public func answer(_ request: HTTPRequest) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try dispatch(request)
        } catch {
            response = errorResponse(error, to: request)
        }
        return finish(response, for: request)
    }

    private func faultDecision(for request: HTTPRequest) -> FaultDecision? {
        if faults.isEmpty { return nil }
        if case .health? = (try? router.route(method: request.method, target: request.target))?.route.handler { return nil }
        return injector.nextDecision()
    }

    private func apply(_ decision: FaultDecision, to request: HTTPRequest) throws(MockTransportError) -> HTTPResponse {
        switch decision.outcome {
        case nil: return answer(request)
        case .drop: throw .connectionDropped
        case .status(let status):
            let code = switch status {
            case 429: "TOO_MANY_REQUESTS"
            case 500: "INTERNAL_SERVER_ERROR"
            case 502: "BAD_GATEWAY"
            case 503: "SERVICE_UNAVAILABLE"
            case 504: "GATEWAY_TIMEOUT"
            default: "INJECTED_FAULT"
            }
            return finish(MockError(status, code, "Injected fault: status \(status)").response, for: request)
        }
    }

    /// What every answer shares: the CORS header, error Content-Type, `Content-Length` (as the
    /// HTTP server writes it, so in-process answers carry the same headers), and no body for
    /// `HEAD`.
    private func finish(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        // The mock's own answers carry neither header yet: adding them needs no search.
        var response = response
        if !behaviour.has(.routingNoCORS) { response.headers.add("Access-Control-Allow-Origin", "*") }
        if response.status >= 400 && behaviour.has(.routingErrorsTextPlain) {
            response.headers.set("Content-Type", "text/plain; charset=utf-8")
        }
        if response.status >= 200 && response.status != 204 && response.status != 304 {
            response.headers.add("Content-Length", String(response.bodyLength))
        }
        return request.method == "HEAD" ? response.forHeadRequest() : response
    }

    private func errorResponse(_ problem: MockProblem, to request: HTTPRequest) -> HTTPResponse {
        if problem == .routeNotFound && behaviour.has(.routingHTML404) {
            let method = request.method == "HEAD" ? "GET" : request.method
            // Express's final handler escapes the path (escape-html).
            var path = ""
            for character in MockRouter.rawPath(of: request.target) {
                switch character {
                case "&": path += "&amp;"
                case "<": path += "&lt;"
                case ">": path += "&gt;"
                case "\"": path += "&quot;"
                case "'": path += "&#39;"
                default: path.append(character)
                }
            }
            let page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error</title>\n</head>\n"
                + "<body>\n<pre>Cannot \(method) \(path)</pre>\n</body>\n</html>\n"
            return HTTPResponse(status: 404, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(page.utf8))
        }
        return behaviour.error(problem).response
    }

    /// The most body bytes the backend reads of a request, judged from its head (the request
    /// without its body): the multipart limit for a multipart body, 100 KB for any other (so
    /// never less than 100 KB), `nil` for a gzip or deflate body (its limit counts after inflating). The HTTP server
    /// leaves a body over this limit unread and passes the request flagged
    /// ``HTTPRequest/isBodyOverLimit``, which ``handle(_:)`` answers exactly as it would the
    /// whole body (413 where the body would be read, the route's own answer where it would not).
    public func maxBodyBytes(forHead head: HTTPRequest) -> Int? {
        bodyReader.maxBodyBytes(forHead: head)
    }

    // MARK: Inspection (for tests)

    /// The number of announcements stored.
    public var storedAnnouncementCount: Int { store.count }

    /// The ids of every stored announcement, oldest first.
    public var storedAnnouncementIdentifiers: [String] { store.allIdentifiers }

    /// The stored announcement as details would answer it, or `nil`.
    public func storedAnnouncement(id: String) -> JSONValue? {
        store.record(id: id).map { .object($0.representation) }
    }

    /// The stored photo of an announcement, or `nil`.
    public func storedPhoto(id: String) -> StoredPhoto? {
        store.record(id: id)?.photo
    }

    /// Whether `password` is the announcement's management password (checked against the hash).
    public func verifiesManagementPassword(_ password: String, id: String) -> Bool {
        store.record(id: id)?.password.matches(password) ?? false
    }

    /// Empties the store.
    public func removeAllAnnouncements() { store.removeAll() }

    // MARK: Routing

    var router: MockRouter { MockRouter(behaviour: behaviour) }
    private var bodyReader: RequestBodyReader { RequestBodyReader(behaviour: behaviour) }

    private func dispatch(_ request: HTTPRequest) throws(MockProblem) -> HTTPResponse {
        if request.method == "OPTIONS" && !behaviour.has(.routingOptions404) { return preflight(request) }
        if request.method == "HEAD" && behaviour.has(.routingHead404) { throw .routeNotFound }
        // Express answers HEAD with the GET route.
        let method = request.method == "HEAD" ? "GET" : request.method
        // The JSON body parser runs for every route, before routing.
        let jsonBody = try bodyReader.jsonBody(of: request)
        guard let match = try router.route(method: method, target: request.target) else { throw .routeNotFound }
        switch match.route.handler {
        case .health:
            return MockResponses.json(status: 200, .object(JSONObject([
                (key: "status", value: "ok"), (key: "timestamp", value: .string(isoNow())),
            ])))
        case .create: return try create(jsonBody)
        case .list: return try list(request)
        case .details: return try details(id: match.value(of: .announcementId))
        case .uploadPhoto: return try uploadPhoto(request, id: match.value(of: .announcementId))
        case .delete: return try delete(request, id: match.value(of: .announcementId))
        case .image: return try image(fileName: match.value(of: .imageFileName))
        }
    }

    /// The `cors` package's preflight answer, for any path.
    private func preflight(_ request: HTTPRequest) -> HTTPResponse {
        var headers: HTTPHeaders = ["Access-Control-Allow-Methods": MockBackend.allowedMethods]
        if let requested = request.headers["Access-Control-Request-Headers"], !requested.isEmpty {
            headers.add("Access-Control-Allow-Headers", requested)
        }
        headers.add("Vary", "Access-Control-Request-Headers")
        return HTTPResponse(status: 204, headers: headers)
    }

    private func nowMilliseconds() -> Int64 {
        Int64((clock().timeIntervalSince1970 * 1000).rounded(.down))
    }

    private func isoNow() -> String { JavaScript.isoString(milliseconds: nowMilliseconds()) }

    // MARK: Create

    private func create(_ body: JSONValue?) throws(MockProblem) -> HTTPResponse {
        guard let body else { throw .bodyMissing }
        guard case .object(let object) = body else { throw .bodyNotObject(received: JavaScript.zodTypeName(body)) }
        let now = nowMilliseconds()
        let validator = CreateRequestValidator(behaviour: behaviour, changes: changes, nowMilliseconds: now)
        if let problem = validator.firstProblem(in: object) { throw problem }

        let microchipKey: String? = object["microchipNumber"]?.stringValue.map {
            profile == .strict ? JavaScript.trim($0) : $0
        }
        // Production checks for a duplicate first and inserts later: two concurrent creates can
        // both pass the check, and the unique index then fails the later insert with a 500. The
        // strict profile checks and claims atomically. (The duplicate-microchip race checks first in both.)
        let racesOnMicrochip = behaviour.has(.concurrencyDuplicateMicrochipBoth201)
        if profile == .production || racesOnMicrochip, let microchipKey, store.isMicrochipTaken(microchipKey) { throw .microchipTaken }
        let id = behaviour.has(.sequenceIdsReusedAfterDelete) ? store.reusableId ?? UUID().uuidString.lowercased() : UUID().uuidString.lowercased()
        let password = String(UInt32.random(in: 100_000...999_999))
        let timestamp = JavaScript.isoString(milliseconds: now)
        let representation = representation(of: object, id: id, timestamp: timestamp)
        let make = { (sequence: Int) in
            StoredAnnouncement(id: id, sequence: sequence, representation: representation,
                               password: SaltedPasswordHash(password: password), microchipKey: microchipKey, photo: nil)
        }
        let stored: StoredAnnouncement?
        if behaviour.has(.concurrencyLostInsert) {
            stored = store.insertRewritingSnapshot(after: MockDefect.raceWindow, microchipKey: microchipKey, make: make)
        } else if behaviour.has(.concurrencyDuplicateMicrochipBoth201) && microchipKey != nil {
            // The window between the check above and an insert without the unique index.
            Thread.sleep(forTimeInterval: AnnouncementStore.seconds(MockDefect.raceWindow))
            stored = store.insert(microchipKey: microchipKey, enforcingUniqueMicrochip: false, make: make)
        } else {
            stored = store.insert(microchipKey: microchipKey, make: make)
        }
        guard let stored else {
            throw profile == .production ? .internalFailure("UNIQUE constraint failed: announcements.microchipNumber") : .microchipTaken
        }
        return MockResponses.created(stored.serializedRepresentation, managementPassword: password)
    }

    /// The stored form of a valid create body: text fields sanitised, strings as sent, numbers as
    /// JavaScript prints them, empty optional text and absent fields `null` (and, under the
    /// served changes, no breed where it is no longer a field, age as the text sent where it is text).
    func representation(of body: JSONObject, id: String, timestamp: String) -> JSONObject {
        let trims = behaviour.has(.echoTrimmed), keepsHTML = behaviour.has(.echoHTMLKept)
        func text(_ name: String, sanitized: Bool) -> JSONValue {
            guard var value = body[name]?.stringValue else { return .null }
            if trims { value = JavaScript.trim(value) }
            if value.isEmpty { return behaviour.has(.echoEmptyStringKept) && !trims ? .string("") : .null }
            return .string(sanitized && !keepsHTML ? HTMLSanitizer.sanitize(value) : value)
        }
        func number(_ name: String, asString: Bool = false) -> JSONValue {
            guard let value = body[name]?.numberValue else { return .null }
            let literal = JavaScript.numberText(value.doubleValue)
            if asString { return .string(literal) }
            return .number(JSONNumber(literal: literal) ?? JSONNumber(value.doubleValue))
        }
        let coordinatesAsText = behaviour.has(.echoNumbersAsStrings)
        return JSONObject(uniqueMembers: [
            (key: "id", value: .string(id)),
            (key: "petName", value: text("petName", sanitized: true)),
            (key: "species", value: text("species", sanitized: true)),
            (key: "breed", value: changes.contains(.breedRemoved) ? .null : text("breed", sanitized: true)),
            (key: "sex", value: text("sex", sanitized: true)),
            (key: "age", value: changes.contains(.ageAsText) ? text("age", sanitized: false) : number("age")),
            (key: "description", value: text("description", sanitized: true)),
            (key: "microchipNumber", value: text("microchipNumber", sanitized: false)),
            (key: "locationLatitude", value: number("locationLatitude", asString: coordinatesAsText)),
            (key: "locationLongitude", value: number("locationLongitude", asString: coordinatesAsText)),
            (key: "lastSeenDate", value: text("lastSeenDate", sanitized: false)),
            (key: "email", value: text("email", sanitized: false)),
            (key: "phone", value: text("phone", sanitized: false)),
            (key: "photoUrl", value: .null),
            (key: "status", value: text("status", sanitized: false)),
            (key: "reward", value: text("reward", sanitized: true)),
            (key: "createdAt", value: .string(timestamp)),
            (key: "updatedAt", value: .string(timestamp)),
        ])
    }

    // MARK: Photo upload and /images

    private func uploadPhoto(_ request: HTTPRequest, id: String) throws(MockProblem) -> HTTPResponse {
        if behaviour.has(.photoFileBeforeAuth) { _ = try photoFile(of: request) }
        let password = try MockBackend.basicPassword(request.headers["Authorization"], lenientBase64: profile == .production)
        var record = store.record(id: id)
        var isTombstone = false
        if record == nil, behaviour.has(.sequenceUploadAfterDelete201), let tombstone = store.tombstone(id: id) {
            record = tombstone
            isTombstone = true
        }
        if behaviour.has(.photo403Before404), !(record?.password.matches(password) ?? false) { throw .wrongPassword }
        guard let record else { throw .photoAnnouncementNotFound(id: id) }
        guard record.password.matches(password) else { throw .wrongPassword }
        let (file, format) = try photoFile(of: request)
        if behaviour.has(.photoSecondUploadIgnored) && record.photo != nil || isTombstone {
            return MockResponses.json(status: 201, .object(JSONObject()))
        }
        let urlFormat = behaviour.has(.photoURLDeclaredType) ? ImageFormat.declared(file.contentType) ?? format : format
        var photo = StoredPhoto(format: format, bytes: Array(file.body))
        if behaviour.has(.concurrencyUploadsCrossed) {
            photo = StoredPhoto(format: format, bytes: store.stagedPhoto(photo, window: MockDefect.raceWindow).bytes)
        }
        guard store.setPhoto(id: id, photo: photo, fileName: "\(id).\(urlFormat.fileExtension)", updatedAt: isoNow(),
                             overwritingFile: !behaviour.has(.imagesStaleBytes),
                             rehashingPassword: behaviour.has(.sequencePasswordRehashedOnUpload))
        else { throw .photoAnnouncementNotFound(id: id) }
        return MockResponses.json(status: 201, .object(JSONObject()))
    }

    /// The one `photo` file part and its detected format, checked as the upload library and the
    /// handler check it: part names (in body order), presence, size, then magic bytes.
    private func photoFile(of request: HTTPRequest) throws(MockProblem) -> (MultipartPart, ImageFormat) {
        var fileParts: [MultipartPart] = []
        if let contentType = request.headers["Content-Type"], let boundary = MultipartFormData.boundary(contentType: contentType) {
            let body = try bodyReader.decodedBody(of: request, limit: RequestBodyReader.maxMultipartBodyBytes)
            do {
                fileParts = try MultipartFormData.parts(of: body, boundary: boundary).filter(\.isFile)
            } catch {
                throw .multipartMalformed(error.reason)
            }
        }
        let photoCount = fileParts.filter { $0.name == "photo" }.count
        var photo: MultipartPart?
        for part in fileParts {
            guard part.name == "photo", photo == nil else {
                if part.name == "photo" { throw .photoRepeated(count: photoCount) }
                throw .photoUnexpectedPart(part.name ?? "", photoPresent: photoCount > 0)
            }
            photo = part
            if part.body.count > MockBackend.photoSizeLimit
                || part.body.count == MockBackend.photoSizeLimit && !behaviour.has(.photoSizeLimitInclusive)
            {
                throw .photoTooLarge
            }
        }
        guard let photo else { throw .photoMissing }
        guard let format = ImageFormat.detect(photo.body) else { throw .photoNotImage(animatedPNG: false) }
        if format == .png && ImageFormat.isAnimatedPNG(photo.body) && !behaviour.has(.photoAPNGAccepted) {
            throw .photoNotImage(animatedPNG: true)
        }
        return (photo, format)
    }

    /// The password of a `Basic` Authorization value whose user and password are non-empty.
    ///
    /// With `lenientBase64` (production), the credentials are decoded as Node's `Buffer.from(_,
    /// "base64")` does: characters outside the base64 and base64url alphabets are skipped, so
    /// nothing is ever "not base64" (backend-contract.md's corrected 401 table); the strict profile
    /// refuses such a credential with its own clear message.
    /// - Throws: the 401 problem naming what is wrong with the header.
    static func basicPassword(_ header: String?, lenientBase64: Bool = false) throws(MockProblem) -> String {
        guard let header, !header.trimmingASCIIWhitespace().isEmpty else { throw .authorizationMissing }
        let trimmed = header.trimmingASCIIWhitespace()
        guard trimmed.count > 6, trimmed.prefix(6).lowercased() == "basic " else { throw .authorizationNotBasic }
        var token = trimmed.dropFirst(6).trimmingASCIIWhitespace()
        guard !token.isEmpty else { throw .authorizationNotBasic }
        let data: Data
        if lenientBase64 {
            data = Data(JavaScript.lenientBase64Decode(token))
        } else {
            while token.utf8.count % 4 != 0 { token += "=" }
            guard let strict = Data(base64Encoded: token) else { throw .authorizationNotBase64 }
            data = strict
        }
        let decoded = String(decoding: data, as: UTF8.self)
        guard let colon = decoded.firstIndex(of: ":") else { throw .authorizationWithoutColon }
        let user = decoded[..<colon]
        let password = String(decoded[decoded.index(after: colon)...])
        guard !user.isEmpty, !password.isEmpty else { throw .authorizationEmptyPart }
        return password
    }

    /// `GET /images/{id}.{ext}`: the stored bytes, Content-Type from the extension.
    private func image(fileName: String) throws(MockProblem) -> HTTPResponse {
        var file = store.file(named: fileName)
        if file == nil, behaviour.has(.imagesAnyExtension), let dot = fileName.lastIndex(of: ".") {
            file = store.record(id: String(fileName[..<dot]))?.photo
        }
        guard let file else { throw .routeNotFound }
        let extensionFormat = fileName.lastIndex(of: ".").flatMap { ImageFormat(rawValue: String(fileName[fileName.index(after: $0)...])) }
        let mediaType = behaviour.has(.imagesWrongContentType) ? "application/octet-stream" : (extensionFormat ?? file.format).mediaType
        return HTTPResponse(status: 200, headers: ["Content-Type": mediaType], body: file.bytes)
    }

    // MARK: List, details, delete

    private func details(id: String) throws(MockProblem) -> HTTPResponse {
        if behaviour.has(.detailsMalformedID500) && !MockBackend.isUUID(id) {
            throw .internalFailure("invalid input syntax for type uuid")
        }
        guard let record = store.record(id: id) else {
            if behaviour.has(.detailsUnknownID200) { return MockResponses.json(status: 200, .null) }
            throw .announcementNotFound
        }
        var representation = record.representation
        if behaviour.has(.sequenceDetailsCacheStaleAfterUpload) {
            if let cached = store.cachedDetails(id: id) {
                representation = cached
            } else {
                store.cacheDetails(representation, id: id)
            }
        }
        if behaviour.has(.detailsLeaksPassword) {
            representation["managementPassword"] = .string(record.password.digest.map { String(format: "%02x", $0) }.joined())
        }
        return MockResponses.json(status: 200, .object(representation))
    }

    /// Whether `text` is a UUID in its 8-4-4-4-12 hexadecimal form.
    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) else { return false }
            }
        }
        return true
    }

    private func list(_ request: HTTPRequest) throws(MockProblem) -> HTTPResponse {
        let filter = try LocationFilter(query: request.queryItems, behaviour: behaviour)
        let query = String(request.target.drop { $0 != "?" })
        if behaviour.has(.sequenceListCacheStale), let cached = store.cachedList(query: query) {
            return listResponse(cached)
        }
        var announcements = store.announcements(
            includingPhotoless: behaviour.has(.listShowsPhotoless), includingTombstones: behaviour.has(.sequenceSoftDeleteListed)
        ).filter { record in
            guard let filter else { return true }
            guard let latitude = MockBackend.coordinate(record.representation["locationLatitude"]),
                  let longitude = MockBackend.coordinate(record.representation["locationLongitude"])
            else { return false }
            return filter.contains(latitude: latitude, longitude: longitude)
        }
        if filter != nil && behaviour.has(.sequenceListBucket10) {
            // A spatial index of cells of 0.01 degrees, each holding its first 10 entries.
            var perCell: [String: Int] = [:]
            announcements = announcements.filter { record in
                let latitude = MockBackend.coordinate(record.representation["locationLatitude"]) ?? 0
                let longitude = MockBackend.coordinate(record.representation["locationLongitude"]) ?? 0
                let cell = "\(Int((latitude * 100).rounded(.down))),\(Int((longitude * 100).rounded(.down)))"
                perCell[cell, default: 0] += 1
                return perCell[cell]! <= 10
            }
        }
        if behaviour.has(.sequenceListLimit20) { announcements = Array(announcements.prefix(20)) }
        if let pageSize = behaviour.defects.compactMap(\.listPageSize).min() {
            announcements = Array(announcements.reversed().prefix(pageSize))
        }
        if behaviour.has(.sequenceListCacheStale) { store.cacheList(announcements, query: query) }
        return listResponse(announcements)
    }

    private func listResponse(_ announcements: [StoredAnnouncement]) -> HTTPResponse {
        MockResponses.jsonList(announcements.map(\.serializedRepresentation))
    }

    /// A stored coordinate (a number, or a string under the `echo-numbers-as-strings` defect).
    private static func coordinate(_ value: JSONValue?) -> Double? {
        switch value {
        case .number(let number)?: number.doubleValue
        case .string(let text)?: Double(text)
        default: nil
        }
    }

    private func delete(_ request: HTTPRequest, id: String) throws(MockProblem) -> HTTPResponse {
        let header = request.headers["Authorization"].map { $0.trimmingASCIIWhitespace() } ?? ""
        if header.isEmpty {
            guard behaviour.has(.deleteNoTokenAccepted) else { throw .adminTokenMissing }
        } else {
            var token = header
            if behaviour.has(.deleteBearerAccepted), token.count > 7, token.prefix(7).lowercased() == "bearer " {
                token = token.dropFirst(7).trimmingASCIIWhitespace()
            }
            guard token == adminToken || behaviour.has(.deleteAnyTokenAccepted) else { throw .adminTokenInvalid }
        }
        // One step under the store's lock, so of two deletes racing on one id, one finds it.
        let removed: Bool
        if behaviour.has(.deleteKeepsAnnouncement) {
            removed = store.record(id: id) != nil
        } else if behaviour.has(.concurrencyDeleteTwice204) {
            removed = store.record(id: id) != nil
            Thread.sleep(forTimeInterval: AnnouncementStore.seconds(MockDefect.raceWindow))
            if removed { _ = store.remove(id: id) }
        } else {
            var remnants: AnnouncementStore.Remnants = []
            if behaviour.has(.photoKeptAfterDelete) { remnants.insert(.file) }
            if behaviour.has(.sequenceMicrochipKeptAfterDelete) { remnants.insert(.microchip) }
            if behaviour.has(.sequenceSoftDeleteListed) || behaviour.has(.sequenceUploadAfterDelete201) { remnants.insert(.tombstone) }
            if behaviour.has(.sequenceIdsReusedAfterDelete) { remnants.insert(.reusableId) }
            removed = store.remove(id: id, leaving: remnants)
        }
        guard removed || behaviour.has(.deleteUnknown204) else { throw .announcementNotFound }
        return HTTPResponse(status: 204)
    }
}
