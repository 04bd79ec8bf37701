import Foundation
import PetSpotJSON

/// A response or request body that does not have the expected shape; names the key at fault.
public struct WireDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key path at fault, e.g. `error.code` or `managementPassword` (empty for the root).
    public let keyPath: String
    /// What is wrong with it.
    public let reason: String

    /// Creates an error naming `keyPath`.
    public init(keyPath: String, reason: String) {
        self.keyPath = keyPath
        self.reason = reason
    }

    /// The key path and the reason, as one line.
    public var description: String {
        keyPath.isEmpty ? "body: \(reason)" : "\(keyPath): \(reason)"
    }
}

/// Reads typed members out of a JSON object, naming the key in every error.
struct WireObjectReader {
    let object: JSONObject
    let path: String

    init(_ value: JSONValue, path: String) throws(WireDecodingError) {
        guard case .object(let object) = value else {
            throw WireDecodingError(keyPath: path, reason: "expected an object, found \(value.typeName)")
        }
        self.object = object
        self.path = path
    }

    func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func rejectUnknownKeys(allowed: [String]) throws(WireDecodingError) {
        for key in object.keys where !allowed.contains(key) {
            throw WireDecodingError(keyPath: keyPath(key), reason: "unexpected key")
        }
    }

    func value(_ key: String) throws(WireDecodingError) -> JSONValue {
        guard let value = object[key] else { throw WireDecodingError(keyPath: keyPath(key), reason: "missing") }
        return value
    }

    func string(_ key: String) throws(WireDecodingError) -> String {
        let found = try value(key)
        guard case .string(let text) = found else {
            throw WireDecodingError(keyPath: keyPath(key), reason: "expected a string, found \(found.typeName)")
        }
        return text
    }

    func optionalString(_ key: String, allowNull: Bool = true) throws(WireDecodingError) -> String? {
        guard let found = object[key] else { return nil }
        if found.isNull && allowNull { return nil }
        guard case .string(let text) = found else {
            throw WireDecodingError(keyPath: keyPath(key), reason: "expected a string, found \(found.typeName)")
        }
        return text
    }

    func double(_ key: String) throws(WireDecodingError) -> Double {
        let found = try value(key)
        guard case .number(let number) = found else {
            throw WireDecodingError(keyPath: keyPath(key), reason: "expected a number, found \(found.typeName)")
        }
        return number.doubleValue
    }

    func optionalInt(_ key: String, allowNull: Bool = true) throws(WireDecodingError) -> Int? {
        guard let found = object[key] else { return nil }
        if found.isNull && allowNull { return nil }
        guard case .number(let number) = found, let integer = number.intValue else {
            throw WireDecodingError(keyPath: keyPath(key), reason: "expected an integer, found \(found)")
        }
        return integer
    }

    func status(_ key: String) throws(WireDecodingError) -> AnnouncementStatus {
        let text = try string(key)
        guard let status = AnnouncementStatus(wireValue: text) else {
            throw WireDecodingError(keyPath: keyPath(key), reason: "unknown status \"\(text)\"")
        }
        return status
    }
}

/// An announcement as the backend returns it (details, list element, and the create response
/// without its password).
public struct Announcement: Sendable, Hashable {
    /// UUID v4, lower case.
    public var id: String
    /// The pet's name, as stored (optional).
    public var petName: String?
    /// The species, as sent (the app sends `DOG`, `CAT`, ...).
    public var species: String
    /// The breed, as stored (optional).
    public var breed: String?
    /// The sex, as sent (`MALE`, `FEMALE`, `UNKNOWN`).
    public var sex: String
    /// The age in years (optional).
    public var age: Int?
    /// The description, as stored (optional).
    public var description: String?
    /// The microchip number, digits (optional).
    public var microchipNumber: String?
    /// Latitude, -90...90.
    public var locationLatitude: Double
    /// Longitude, -180...180.
    public var locationLongitude: Double
    /// The date last seen or found, `YYYY-MM-DD`.
    public var lastSeenDate: String
    /// The contact email (optional).
    public var email: String?
    /// The contact phone (optional).
    public var phone: String?
    /// `/images/{id}.{ext}` once a photo was uploaded, else `nil`.
    public var photoUrl: String?
    /// The announcement's status.
    public var status: AnnouncementStatus
    /// The reward offered (optional).
    public var reward: String?
    /// When it was created (ISO-8601, as sent).
    public var createdAt: String
    /// When it was last changed (ISO-8601, as sent).
    public var updatedAt: String

    /// The keys of an announcement object.
    public static let keys = [
        "id", "petName", "species", "breed", "sex", "age", "description", "microchipNumber",
        "locationLatitude", "locationLongitude", "lastSeenDate", "email", "phone", "photoUrl",
        "status", "reward", "createdAt", "updatedAt",
    ]

    /// Decodes an announcement; unknown keys are refused (a leaked `managementPassword` among
    /// them), optional values may be `null`.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json, path: "")
        try reader.rejectUnknownKeys(allowed: Self.keys)
        try self.init(reader: reader)
    }

    init(reader: WireObjectReader) throws(WireDecodingError) {
        id = try reader.string("id")
        petName = try reader.optionalString("petName")
        species = try reader.string("species")
        breed = try reader.optionalString("breed")
        sex = try reader.string("sex")
        age = try reader.optionalInt("age")
        description = try reader.optionalString("description")
        microchipNumber = try reader.optionalString("microchipNumber")
        locationLatitude = try reader.double("locationLatitude")
        locationLongitude = try reader.double("locationLongitude")
        lastSeenDate = try reader.string("lastSeenDate")
        email = try reader.optionalString("email")
        phone = try reader.optionalString("phone")
        photoUrl = try reader.optionalString("photoUrl")
        status = try reader.status("status")
        reward = try reader.optionalString("reward")
        createdAt = try reader.string("createdAt")
        updatedAt = try reader.string("updatedAt")
    }
}

/// The 201 answer to a create: the stored announcement plus its management password.
public struct CreateAnnouncementResponse: Sendable, Hashable {
    /// The stored announcement.
    public var announcement: Announcement
    /// Six digits, shown to the owner once on the summary; needed to upload the photo.
    public var managementPassword: String

    /// Decodes the create response; the password must be 6 ASCII digits.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json, path: "")
        try reader.rejectUnknownKeys(allowed: Announcement.keys + ["managementPassword"])
        announcement = try Announcement(reader: reader)
        managementPassword = try reader.string("managementPassword")
        guard managementPassword.utf8.count == 6, managementPassword.unicodeScalars.allSatisfy(\.isASCIIDigit) else {
            throw WireDecodingError(keyPath: "managementPassword", reason: "expected 6 digits")
        }
    }
}

/// The body of every 4xx/5xx answer: `{"error": {requestId, code, message, field?}}`.
public struct ErrorEnvelope: Sendable, Hashable, CustomStringConvertible {
    /// The backend's id of the failed request, for its logs.
    public var requestId: String
    /// e.g. `INVALID_FORMAT`, `MISSING_VALUE`, `CONFLICT`.
    public var code: String
    /// A human-readable explanation.
    public var message: String
    /// The field to blame, when one is.
    public var field: String?

    /// Creates an envelope.
    public init(requestId: String, code: String, message: String, field: String? = nil) {
        self.requestId = requestId
        self.code = code
        self.message = message
        self.field = field
    }

    /// Decodes an envelope; keys are named as `error.code` and so on.
    public init(json: JSONValue) throws(WireDecodingError) {
        let outer = try WireObjectReader(json, path: "")
        try outer.rejectUnknownKeys(allowed: ["error"])
        let inner = try WireObjectReader(try outer.value("error"), path: "error")
        try inner.rejectUnknownKeys(allowed: ["requestId", "code", "message", "field"])
        requestId = try inner.string("requestId")
        code = try inner.string("code")
        message = try inner.string("message")
        field = try inner.optionalString("field", allowNull: false)
    }

    /// The envelope as JSON, `field` only when present.
    public var json: JSONValue {
        var error: JSONObject = JSONObject([("requestId", .string(requestId)), ("code", .string(code)), ("message", .string(message))])
        if let field { error["field"] = .string(field) }
        return .object(JSONObject([("error", .object(error))]))
    }

    /// `CODE (field): message`.
    public var description: String {
        "\(code)\(field.map { " (\($0))" } ?? ""): \(message)"
    }
}
