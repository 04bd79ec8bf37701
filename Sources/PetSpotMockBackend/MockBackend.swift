import Foundation
import PetSpotHTTP
import PetSpotJSON
import PetSpotContractKit

/// The transport failure an in-process mock reports for an injected dropped connection.
public enum MockTransportError: Error, Sendable, Equatable {
    /// The connection was closed without an answer (the request was not processed).
    case connectionDropped
}

/// A stand-in for the PetSpot announcements backend that answers as backend-contract.md says.
///
/// It serves every documented route — create, photo upload, list with a location filter,
/// details, admin delete, health — from a thread-safe in-memory store, in one of two profiles:
/// ``BackendProfile/strict`` (the default: empty or blank strings are rejected in every field and
/// malformed JSON is a 400) or ``BackendProfile/production`` (exactly what production accepts and
/// answers). Use it in-process, without sockets:
///
/// ```swift
/// let backend = MockBackend()
/// let response = try backend.handle(HTTPRequest(
///     method: "POST", target: "/api/v1/announcements",
///     headers: ["Content-Type": "application/json"], body: Array(json.utf8)))
/// response.status   // 201
/// ```
///
/// or over HTTP with ``MockHTTPServer``. A ``FaultPlan`` makes a seeded share of requests fail
/// (5xx, delay, dropped connection) to exercise clients' retry logic.
///
/// Invariants: an answered create is stored until deleted; the management password exists only
/// in the 201 answer (the store keeps a salted SHA-256); microchip uniqueness is checked and
/// claimed atomically. Each request costs O(size of the request) plus, for the list, O(stored
/// announcements).
public final class MockBackend: Sendable {
    /// The admin token accepted by the delete routes unless another is configured.
    public static let defaultAdminToken = "petspot-admin-token"
    /// Largest create body accepted (100 KB as Express's JSON parser counts: 102,400 bytes).
    public static let maxCreateBodyBytes = 100 * 1024
    /// Largest photo accepted is one byte below this (20 MiB).
    public static let photoSizeLimit = 20 * 1024 * 1024

    /// The profile answered.
    public let profile: BackendProfile
    /// The raw `Authorization` value the delete routes accept.
    public let adminToken: String
    /// The fault plan applied by ``handle(_:)`` and ``respond(to:)``.
    public let faults: FaultPlan

    private let clock: @Sendable () -> Date
    private let store = AnnouncementStore()
    private let injector: FaultInjector

    /// A mock with an empty store.
    /// - Parameters:
    ///   - profile: `strict` (default) or `production`.
    ///   - adminToken: the token the delete routes accept.
    ///   - faults: which requests to fail; none by default.
    ///   - clock: the server's current instant (timestamps, the future-date rule).
    public init(
        profile: BackendProfile = .strict, adminToken: String = MockBackend.defaultAdminToken,
        faults: FaultPlan = .none, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.profile = profile
        self.adminToken = adminToken
        self.faults = faults
        self.clock = clock
        self.injector = FaultInjector(plan: faults)
    }

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
        guard let decision = faultDecision(for: request) else { return answer(request) }
        if decision.delayMilliseconds > 0 { try? await Task.sleep(for: .milliseconds(decision.delayMilliseconds)) }
        return try apply(decision, to: request)
    }

    /// Answers `request` as the backend would, ignoring the fault plan.
    public func answer(_ request: HTTPRequest) -> HTTPResponse {
        do {
            return try route(request)
        } catch {
            return error.response
        }
    }

    private func faultDecision(for request: HTTPRequest) -> FaultDecision? {
        if faults.isEmpty { return nil }
        if request.method == "GET" && matchRoute(request.path) == .health { return nil }
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
            return MockError(status, code, "Injected fault: status \(status)").response
        }
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

    enum Route: Equatable {
        case health
        case announcements
        case announcement(String)
        case photos(String)
        case adminAnnouncement(String)
    }

    /// The route of a path. Strict: exact, case-sensitive paths. Production: as Express routes,
    /// case-insensitive and with an optional trailing slash.
    func matchRoute(_ path: String) -> Route? {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.first == "" else { return nil }
        segments.removeFirst()
        if profile == .production, segments.count > 1, segments.last == "" { segments.removeLast() }
        func fixed(_ actual: String, _ expected: String) -> Bool {
            profile == .production ? actual.lowercased() == expected : actual == expected
        }
        func matches(_ pattern: [String?]) -> Bool {
            guard segments.count == pattern.count else { return false }
            for (actual, expected) in zip(segments, pattern) {
                if let expected {
                    if !fixed(actual, expected) { return false }
                } else if actual.isEmpty {
                    return false
                }
            }
            return true
        }
        if matches(["api", "health"]) { return .health }
        if matches(["api", "v1", "announcements"]) { return .announcements }
        if matches(["api", "v1", "announcements", nil]) { return .announcement(segments[3]) }
        if matches(["api", "v1", "announcements", nil, "photos"]) { return .photos(segments[3]) }
        if matches(["api", "admin", "v1", "announcements", nil]) { return .adminAnnouncement(segments[4]) }
        return nil
    }

    private func route(_ request: HTTPRequest) throws(MockError) -> HTTPResponse {
        let method = request.method
        switch (method, matchRoute(request.path)) {
        case ("GET", .health?):
            return MockResponses.json(status: 200, .object(JSONObject([
                (key: "status", value: "ok"), (key: "timestamp", value: .string(isoNow())),
            ])))
        case ("POST", .announcements?): return try create(request)
        case ("GET", .announcements?): return try list(request)
        case ("GET", .announcement(let id)?): return try details(id: id)
        case ("POST", .photos(let id)?): return try uploadPhoto(request, id: id)
        case ("DELETE", .announcement(let id)?), ("DELETE", .adminAnnouncement(let id)?):
            return try delete(request, id: id)
        default:
            throw MockError.notFound("Route \(method) \(request.path) not found")
        }
    }

    private func nowMilliseconds() -> Int64 {
        Int64((clock().timeIntervalSince1970 * 1000).rounded(.down))
    }

    private func isoNow() -> String { JavaScript.isoString(milliseconds: nowMilliseconds()) }

    // MARK: Create

    private func create(_ request: HTTPRequest) throws(MockError) -> HTTPResponse {
        guard let contentType = request.headers["Content-Type"], MockBackend.isJSONMediaType(contentType),
              !request.body.isEmpty
        else {
            throw MockError(400, "MISSING_VALUE", "Request body is required (a JSON object)")
        }
        guard request.body.count <= MockBackend.maxCreateBodyBytes else {
            throw MockError(413, "PAYLOAD_TOO_LARGE", "Request body larger than 100kb")
        }
        let body = try parseCreateBody(request.body)
        let now = nowMilliseconds()
        let validator = CreateRequestValidator(profile: profile, nowMilliseconds: now)
        if let problem = validator.firstProblem(in: body) { throw problem }

        let microchipKey: String? = body["microchipNumber"]?.stringValue.map {
            profile == .strict ? JavaScript.trim($0) : $0
        }
        let id = UUID().uuidString.lowercased()
        let password = String(UInt32.random(in: 100_000...999_999))
        let timestamp = JavaScript.isoString(milliseconds: now)
        let representation = MockBackend.representation(of: body, id: id, timestamp: timestamp)
        let stored = store.insert(id: id, microchipKey: microchipKey) { sequence in
            StoredAnnouncement(id: id, sequence: sequence, representation: representation,
                               password: SaltedPasswordHash(password: password), microchipKey: microchipKey, photo: nil)
        }
        guard stored != nil else {
            throw MockError(409, "CONFLICT", "An entity with this value already exists", field: "microchipNumber")
        }
        var answer = representation
        answer["managementPassword"] = .string(password)
        return MockResponses.json(status: 201, .object(answer))
    }

    /// `application/json` with any parameters, case-insensitive.
    static func isJSONMediaType(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return mediaType.trimmingASCIIWhitespace().lowercased() == "application/json"
    }

    private func parseCreateBody(_ bytes: [UInt8]) throws(MockError) -> JSONObject {
        let value: JSONValue
        switch profile {
        case .strict:
            do {
                value = try JSONValue.parse(bytes, options: JSONParseOptions(maxDepth: 64, duplicateKeys: .reject))
            } catch {
                throw MockError(400, "INVALID_FORMAT", "Malformed JSON body: \(error)")
            }
        case .production:
            // body-parser: a BOM is stripped, the first non-space byte must be { or [, then
            // JSON.parse (duplicate keys keep the last value); any failure reaches the generic
            // error handler as a 500.
            var text = bytes[...]
            if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
            let first = text.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { throw MockError.internalError() }
            do {
                value = try JSONValue.parse(Array(text), options: JSONParseOptions(maxDepth: 512, duplicateKeys: .keepLast))
            } catch {
                throw MockError.internalError()
            }
        }
        switch value {
        case .object(let object): return object
        case .array: throw MockError(400, "INVALID_FORMAT", "Request body must be a JSON object, not an array")
        default: throw MockError(400, "INVALID_FORMAT", "Request body must be a JSON object")
        }
    }

    /// The stored form of a valid create body: text fields sanitised, strings as sent, numbers as
    /// JavaScript prints them, empty optional text and absent fields `null`.
    static func representation(of body: JSONObject, id: String, timestamp: String) -> JSONObject {
        func text(_ name: String, sanitized: Bool) -> JSONValue {
            guard let value = body[name]?.stringValue, !value.isEmpty else { return .null }
            return .string(sanitized ? HTMLSanitizer.sanitize(value) : value)
        }
        func number(_ name: String) -> JSONValue {
            guard let value = body[name]?.numberValue else { return .null }
            let literal = JavaScript.numberText(value.doubleValue)
            return .number(JSONNumber(literal: literal) ?? JSONNumber(value.doubleValue))
        }
        return JSONObject(uniqueMembers: [
            (key: "id", value: .string(id)),
            (key: "petName", value: text("petName", sanitized: true)),
            (key: "species", value: text("species", sanitized: true)),
            (key: "breed", value: text("breed", sanitized: true)),
            (key: "sex", value: text("sex", sanitized: true)),
            (key: "age", value: number("age")),
            (key: "description", value: text("description", sanitized: true)),
            (key: "microchipNumber", value: text("microchipNumber", sanitized: false)),
            (key: "locationLatitude", value: number("locationLatitude")),
            (key: "locationLongitude", value: number("locationLongitude")),
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

    // MARK: Photo upload

    private func uploadPhoto(_ request: HTTPRequest, id: String) throws(MockError) -> HTTPResponse {
        guard let credentials = MockBackend.basicCredentials(request.headers["Authorization"]) else {
            throw MockError(401, "UNAUTHENTICATED", "Basic authentication with the management password is required")
        }
        guard let record = store.record(id: id) else { throw MockError.notFound("Announcement not found") }
        guard record.password.matches(credentials.password) else {
            throw MockError(403, "UNAUTHORIZED", "Invalid management password")
        }
        let parts: [MultipartPart]
        if let contentType = request.headers["Content-Type"], let boundary = MultipartFormData.boundary(contentType: contentType) {
            do {
                parts = try MultipartFormData.parts(of: request.body, boundary: boundary)
            } catch {
                if profile == .production { throw MockError.internalError() }
                throw MockError(400, "MISSING_FILE", "Malformed multipart body: \(error.reason)", field: "photo")
            }
        } else {
            parts = []
        }
        guard let file = parts.first(where: { $0.name == "photo" && $0.filename != nil }) else {
            throw MockError(400, "MISSING_FILE", "A file part named 'photo' is required", field: "photo")
        }
        guard file.body.count < MockBackend.photoSizeLimit else {
            throw MockError(413, "PAYLOAD_TOO_LARGE", "File must be smaller than 20 MB")
        }
        guard let format = ImageFormat.detect(file.body) else {
            throw MockError(400, "INVALID_FILE_FORMAT", "File is not a supported image (JPEG, PNG, GIF, WebP, BMP, TIFF, HEIC, HEIF)",
                            field: "file")
        }
        let photoURL = "/images/\(id).\(format.fileExtension)"
        guard store.setPhoto(id: id, photo: StoredPhoto(format: format, bytes: Array(file.body)), photoURL: photoURL,
                             updatedAt: isoNow())
        else { throw MockError.notFound("Announcement not found") }
        return MockResponses.json(status: 201, .object(JSONObject()))
    }

    /// The user and password of a `Basic` Authorization value when both are non-empty.
    static func basicCredentials(_ header: String?) -> (user: String, password: String)? {
        guard let header else { return nil }
        let trimmed = header.trimmingASCIIWhitespace()
        guard trimmed.count > 6, trimmed.prefix(6).lowercased() == "basic " else { return nil }
        var token = trimmed.dropFirst(6).trimmingASCIIWhitespace()
        guard !token.isEmpty else { return nil }
        while token.utf8.count % 4 != 0 { token += "=" }
        guard let data = Data(base64Encoded: token) else { return nil }
        let decoded = String(decoding: data, as: UTF8.self)
        guard let colon = decoded.firstIndex(of: ":") else { return nil }
        let user = String(decoded[..<colon])
        let password = String(decoded[decoded.index(after: colon)...])
        guard !user.isEmpty, !password.isEmpty else { return nil }
        return (user, password)
    }

    // MARK: List, details, delete

    private func details(id: String) throws(MockError) -> HTTPResponse {
        guard let record = store.record(id: id) else { throw MockError.notFound("Announcement not found") }
        return MockResponses.json(status: 200, .object(record.representation))
    }

    private func list(_ request: HTTPRequest) throws(MockError) -> HTTPResponse {
        let filter = try LocationFilter(query: request.queryItems)
        let announcements = store.withPhotos().filter { record in
            guard let filter else { return true }
            guard let latitude = record.representation["locationLatitude"]?.numberValue?.doubleValue,
                  let longitude = record.representation["locationLongitude"]?.numberValue?.doubleValue
            else { return false }
            return filter.contains(latitude: latitude, longitude: longitude)
        }
        return MockResponses.json(status: 200, .object(JSONObject([
            (key: "data", value: .array(announcements.map { .object($0.representation) })),
        ])))
    }

    private func delete(_ request: HTTPRequest, id: String) throws(MockError) -> HTTPResponse {
        guard let token = request.headers["Authorization"], token == adminToken else {
            throw MockError(401, "UNAUTHENTICATED", "A valid admin token is required")
        }
        guard store.remove(id: id) else { throw MockError.notFound("Announcement not found") }
        return HTTPResponse(status: 204)
    }
}

/// The list route's `lat`/`lng`/`range` filter: great-circle distance below `range` km.
struct LocationFilter {
    static let earthRadiusKilometres = 6371.0

    let latitude: Double
    let longitude: Double
    let rangeKilometres: Double

    /// The filter the query asks for, `nil` when it has no `lat`/`lng`.
    /// - Throws: 400 `INVALID_PARAMETER` naming the parameter.
    init?(query: [(name: String, value: String)]) throws(MockError) {
        func single(_ name: String) throws(MockError) -> String? {
            let values = query.filter { $0.name == name }.map(\.value)
            guard values.count <= 1 else {
                throw MockError(400, "INVALID_PARAMETER", "Parameter '\(name)' must be given at most once", field: name)
            }
            return values.first
        }
        let latitudeText = try single("lat"), longitudeText = try single("lng"), rangeText = try single("range")
        var range = 5.0
        if let rangeText {
            let trimmed = JavaScript.trim(rangeText)
            guard LocationFilter.isInteger(trimmed), let value = Double(trimmed) else {
                throw MockError(400, "INVALID_PARAMETER", "Parameter 'range' must be an integer", field: "range")
            }
            guard value > 0 else {
                throw MockError(400, "INVALID_PARAMETER", "Parameter 'range' must be a positive integer", field: "range")
            }
            range = value
        }
        switch (latitudeText, longitudeText) {
        case (nil, nil): return nil
        case (.some, nil):
            throw MockError(400, "INVALID_PARAMETER", "Parameter 'lng' is required when 'lat' is provided", field: "lng")
        case (nil, .some):
            throw MockError(400, "INVALID_PARAMETER", "Parameter 'lat' is required when 'lng' is provided", field: "lat")
        case (.some(let latitudeText), .some(let longitudeText)):
            let latitude = try LocationFilter.coordinate(latitudeText, name: "lat", bound: 90)
            let longitude = try LocationFilter.coordinate(longitudeText, name: "lng", bound: 180)
            self.latitude = latitude
            self.longitude = longitude
            self.rangeKilometres = range
        }
    }

    private static func coordinate(_ text: String, name: String, bound: Double) throws(MockError) -> Double {
        let trimmed = JavaScript.trim(text)
        guard isDecimal(trimmed), let value = Double(trimmed), value.isFinite else {
            throw MockError(400, "INVALID_PARAMETER", "Parameter '\(name)' must be a number", field: name)
        }
        guard value >= -bound && value <= bound else {
            throw MockError(400, "INVALID_PARAMETER", "Parameter '\(name)' must be between -\(Int(bound)) and \(Int(bound))",
                            field: name)
        }
        return value
    }

    /// `^[+-]?\d+$`.
    static func isInteger(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        return !bytes.isEmpty && bytes.count <= 15 && bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// `^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`.
    static func isDecimal(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let integerDigits = bytes.prefix(while: isDigit).count
        bytes = bytes.dropFirst(integerDigits)
        var fractionDigits = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fractionDigits = bytes.prefix(while: isDigit).count
            bytes = bytes.dropFirst(fractionDigits)
        }
        guard integerDigits + fractionDigits > 0 else { return false }
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            let exponentDigits = bytes.prefix(while: isDigit).count
            guard exponentDigits > 0, exponentDigits <= 4 else { return false }
            bytes = bytes.dropFirst(exponentDigits)
        }
        return bytes.isEmpty
    }

    /// Whether the point lies strictly within `rangeKilometres` (haversine, R = 6371 km).
    func contains(latitude otherLatitude: Double, longitude otherLongitude: Double) -> Bool {
        LocationFilter.distanceKilometres(latitude, longitude, otherLatitude, otherLongitude) < rangeKilometres
    }

    static func distanceKilometres(_ lat1: Double, _ lng1: Double, _ lat2: Double, _ lng2: Double) -> Double {
        let radians = Double.pi / 180
        let deltaLatitude = (lat2 - lat1) * radians
        let deltaLongitude = (lng2 - lng1) * radians
        let a = sin(deltaLatitude / 2) * sin(deltaLatitude / 2)
            + cos(lat1 * radians) * cos(lat2 * radians) * sin(deltaLongitude / 2) * sin(deltaLongitude / 2)
        let c = 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
        return earthRadiusKilometres * c
    }
}
