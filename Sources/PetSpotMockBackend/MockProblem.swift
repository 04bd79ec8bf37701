import PetSpotContractKit

/// Every refusal the mock can answer, independent of how it is worded.
///
/// A problem becomes an error envelope through ``MockBehaviour/error(_:)``, which picks the
/// status, code, field and message for the profile: production's exact messages (the table in
/// backend-contract.md, "Production's messages"), or the strict profile's own messages, each
/// naming the field or parameter to blame.
enum MockProblem: Error, Equatable {
    // Routing and shared HTTP behaviour
    /// No route for the method and path (also an unknown `/images` file).
    case routeNotFound
    /// An `:id` that is not valid percent-encoding.
    case malformedPercentEncoding(String)
    /// A JSON body whose charset does not start with `utf-` (or that no decoder reads).
    case unsupportedCharset(String)
    /// A `Content-Encoding` other than gzip, deflate or identity.
    case unsupportedContentEncoding(String)
    /// A compressed body that does not inflate.
    case corruptContentEncoding(String)
    /// A body (after inflating) larger than the route's limit.
    case payloadTooLarge

    // Create
    /// No body at all, or a Content-Type other than JSON.
    case bodyMissing
    /// A JSON body that does not parse (production reaches the generic 500 handler).
    case bodyNotJSON(String)
    /// A JSON body that parses but is not an object (`received` as zod names it).
    case bodyNotObject(received: String)
    /// A required field is absent.
    case fieldAbsent(String)
    /// `species` or `sex` is empty after trim.
    case fieldBlank(String)
    /// A field of the wrong JSON type (`expected`/`received` as zod names them).
    case fieldWrongType(String, expected: String, received: String)
    /// A field whose value breaks its rule.
    case fieldRule(String, CreateRule)
    /// A key outside the accepted list.
    case unknownKey(String)
    /// Neither email nor phone.
    case missingContact
    /// The microchip number is already stored.
    case microchipTaken
    /// A rule of a served contract change (``MockChange``), answered as the change says.
    case changedContract(MockChange.Answer)

    // Photo upload
    /// No Authorization header.
    case authorizationMissing
    /// An Authorization header that is not `Basic ...`.
    case authorizationNotBasic
    /// `Basic` credentials that are not base64.
    case authorizationNotBase64
    /// Decoded credentials without a colon.
    case authorizationWithoutColon
    /// An empty user or password.
    case authorizationEmptyPart
    /// No announcement with the id the photo is for.
    case photoAnnouncementNotFound(id: String)
    /// The password is not the announcement's.
    case wrongPassword
    /// No file part named `photo`.
    case photoMissing
    /// A file part under another name, beside a `photo` part or not (production: the upload
    /// library's unmapped "unexpected field" error).
    case photoUnexpectedPart(String, photoPresent: Bool)
    /// Two or more file parts named `photo` (production: the same unmapped error).
    case photoRepeated(count: Int)
    /// A multipart body that cannot be read.
    case multipartMalformed(String)
    /// A file of 20 MB or more.
    case photoTooLarge
    /// Content that is not one of the accepted image types (or is an animated PNG).
    case photoNotImage(animatedPNG: Bool)

    // List
    /// `lat` without `lng`, or the reverse.
    case parameterPartnerMissing(missing: String, given: String)
    /// A parameter `parseFloat` reads as NaN.
    case parameterNotNumber(String)
    /// `lat` or `lng` outside its range.
    case parameterOutOfRange(String, bound: Int)
    /// `range` that is not an integer.
    case rangeNotInteger
    /// `range=0`.
    case rangeZero
    /// A negative `range`.
    case rangeNegative
    /// A parameter given more than once (strict only: production reads the values joined).
    case parameterRepeated(String)

    // Details and delete
    /// No announcement with that id.
    case announcementNotFound
    /// Delete without an Authorization header.
    case adminTokenMissing
    /// Delete with a token that is not the admin token.
    case adminTokenInvalid

    /// An unexpected failure (a planted defect's crash).
    case internalFailure(String)
}

/// A rule of the create table, for its message.
enum CreateRule: Equatable {
    /// `age` ≥ 1.
    case agePositive
    /// `microchipNumber` only ASCII digits.
    case microchipDigits
    /// `microchipNumber` at most 15 digits (a planted defect: production has no cap).
    case microchipTooLong
    /// `locationLatitude` within ±90 (`belowMinimum` says which end).
    case latitudeRange(belowMinimum: Bool)
    /// `locationLongitude` within ±180.
    case longitudeRange(belowMinimum: Bool)
    /// The email pattern.
    case emailFormat
    /// A phone number with at least one digit.
    case phoneFormat
    /// `lastSeenDate` matches `^\d{4}-\d{2}-\d{2}$`.
    case dateFormat
    /// `lastSeenDate` is a date JavaScript accepts (production words it as the future rule).
    case dateUnparseable
    /// `lastSeenDate` is not after now.
    case dateInFuture
    /// `lastSeenDate` past its month's end (a planted defect: JavaScript rolls it over).
    case dateNotInMonth
    /// `status` is `MISSING` or `FOUND` (`received` is the value sent).
    case statusValue(received: String)
    /// An optional text that is empty or blank (strict profile; production accepts it).
    case optionalTextBlank
}

/// How the mock behaves: its profile and its planted defects.
struct MockBehaviour: Sendable {
    let profile: BackendProfile
    let defects: Set<MockDefect>

    /// Whether a planted defect is active.
    func has(_ defect: MockDefect) -> Bool { defects.contains(defect) }

    var isProduction: Bool { profile == .production }

    /// The error envelope for `problem`.
    func error(_ problem: MockProblem) -> MockError {
        var error = envelope(problem)
        if isProduction {
            if has(.messagesZodDefaults), let zod = MockBehaviour.zodDefaultMessage(problem) { error.message = zod }
            if has(.messagesUnknownKeyUnnamed), case .unknownKey = problem { error.message = "is not a valid field" }
            if has(.messagesGeneric) { error.message = MockBehaviour.genericMessage(status: error.status) }
        }
        return error
    }

    // MARK: Status, code, field and message per profile

    private func envelope(_ problem: MockProblem) -> MockError {
        let production = isProduction
        func pick(_ productionMessage: String, _ strictMessage: String) -> String { production ? productionMessage : strictMessage }
        func internalError(_ strictMessage: String) -> MockError {
            MockError(500, "INTERNAL_SERVER_ERROR", pick("Internal server error", strictMessage))
        }
        switch problem {
        case .routeNotFound:
            return MockError(404, "NOT_FOUND", "Resource not found")
        case .malformedPercentEncoding(let segment):
            return internalError("Malformed percent-encoding in the path segment '\(segment)'")
        case .unsupportedCharset(let charset):
            return internalError("Unsupported charset '\(charset)' for a JSON body (send UTF-8)")
        case .unsupportedContentEncoding(let coding):
            if production { return internalError("") }
            return MockError(400, "INVALID_FORMAT", "Unsupported Content-Encoding '\(coding)' (gzip, deflate or identity)")
        case .corruptContentEncoding(let reason):
            if production { return internalError("") }
            return MockError(400, "INVALID_FORMAT", "The request body could not be decompressed: \(reason)")
        case .payloadTooLarge:
            return MockError(413, "PAYLOAD_TOO_LARGE", pick("Request payload exceeds maximum size limit (100KB)",
                                                            "Request body larger than 100 KB (102,400 bytes)"))
        case .bodyMissing:
            return MockError(400, "MISSING_VALUE", pick("Required", "Request body is required (a JSON object with Content-Type application/json)"))
        case .bodyNotJSON(let reason):
            if production { return internalError("") }
            return MockError(400, "INVALID_FORMAT", "Malformed JSON body: \(reason)")
        case .bodyNotObject(let received):
            return MockError(400, "INVALID_FORMAT", pick("Expected object, received \(received)",
                                                         "Request body must be a JSON object, not \(article(received)) \(received)"))
        case .fieldAbsent(let field):
            return MockError(400, "MISSING_VALUE", pick("Required", "\(field) is required"), field: field)
        case .fieldBlank(let field):
            return MockError(400, "MISSING_VALUE", pick("cannot be empty", "\(field) is required and must not be empty or blank"),
                             field: field)
        case .fieldWrongType(let field, let expected, let received):
            let strictMessage = expected == "integer"
                ? "\(field) must be a whole number"
                : "\(field) must be \(article(expected)) \(expected), not \(received == "null" ? "null" : article(received) + " " + received)"
            return MockError(400, "INVALID_FORMAT", pick("Expected \(expected), received \(received)", strictMessage), field: field)
        case .fieldRule(let field, let rule):
            return MockError(400, "INVALID_FORMAT", pick(productionRuleMessage(rule), strictRuleMessage(field, rule)), field: field)
        case .unknownKey(let key):
            return MockError(400, "INVALID_FIELD", pick("\(key) is not a valid field", "Unknown field '\(key)'"), field: key)
        case .missingContact:
            return MockError(400, "MISSING_CONTACT", pick("at least one contact method (email or phone) is required",
                                                          "At least one contact method (email or phone) is required"), field: "contact")
        case .microchipTaken:
            return MockError(409, "CONFLICT", "An entity with this value already exists", field: "microchipNumber")
        case .changedContract(let answer):
            return MockError(answer.status, answer.code, answer.message(in: profile), field: answer.field)
        case .authorizationMissing:
            return MockError(401, "UNAUTHENTICATED", pick("Authorization header is required",
                                                          "Basic authentication with the management password is required"))
        case .authorizationNotBasic:
            return MockError(401, "UNAUTHENTICATED", pick("Invalid Authorization header format",
                                                          "The Authorization header must be 'Basic base64(user:password)'"))
        case .authorizationNotBase64:
            return MockError(401, "UNAUTHENTICATED", pick("Invalid Base64 encoding in Authorization header",
                                                          "The Basic credentials are not valid base64"))
        case .authorizationWithoutColon:
            return MockError(401, "UNAUTHENTICATED", pick("Credentials must be in username:password format",
                                                          "The Basic credentials must be 'user:password'"))
        case .authorizationEmptyPart:
            return MockError(401, "UNAUTHENTICATED", pick("Username and password cannot be empty",
                                                          "The Basic credentials need a non-empty user and password"))
        case .photoAnnouncementNotFound(let id):
            return MockError(404, "NOT_FOUND", pick("Announcement with ID \(id) not found", "No announcement with id '\(id)'"))
        case .wrongPassword:
            return MockError(403, "UNAUTHORIZED", pick("Invalid credentials for this announcement",
                                                       "The password is not this announcement's management password"))
        case .photoMissing:
            return MockError(400, "MISSING_FILE", pick("Photo field is required", "A file part named 'photo' is required"),
                             field: "photo")
        case .photoUnexpectedPart(let name, let photoPresent):
            if production { return internalError("") }
            if photoPresent {
                return MockError(400, "INVALID_FIELD", "Unexpected file part '\(name)': send the image as the one part 'photo'",
                                 field: name)
            }
            return MockError(400, "MISSING_FILE", "A file part named 'photo' is required; the file came as part '\(name)'",
                             field: "photo")
        case .photoRepeated(let count):
            if production { return internalError("") }
            return MockError(400, "INVALID_FORMAT", "Exactly one file part named 'photo' is accepted; the body has \(count)",
                             field: "photo")
        case .multipartMalformed(let reason):
            if production { return internalError("") }
            return MockError(400, "MISSING_FILE", "Malformed multipart body: \(reason)", field: "photo")
        case .photoTooLarge:
            return MockError(413, "PAYLOAD_TOO_LARGE", pick("Request payload exceeds maximum size limit (100KB)",
                                                            "The photo must be smaller than 20 MB (20,971,520 bytes)"))
        case .photoNotImage(let animated):
            return MockError(400, "INVALID_FILE_FORMAT", pick(
                "File is not a valid image format (JPEG, PNG, GIF, WebP, BMP, TIFF, HEIC, HEIF)",
                animated ? "Animated PNG (APNG) is not accepted; send a still image"
                    : "The file is not a JPEG, PNG, GIF, WebP, BMP, TIFF, HEIC or HEIF image (judged by its content)"),
                field: "file")
        case .parameterPartnerMissing(let missing, let given):
            return MockError(400, "INVALID_PARAMETER", "Parameter '\(missing)' is required when '\(given)' is provided", field: missing)
        case .parameterNotNumber(let name):
            return MockError(400, "INVALID_PARAMETER", "Parameter '\(name)' must be a valid number", field: name)
        case .parameterOutOfRange(let name, let bound):
            return MockError(400, "INVALID_PARAMETER", "Parameter '\(name)' must be between -\(bound) and \(bound)", field: name)
        case .rangeNotInteger:
            return MockError(400, "INVALID_PARAMETER", "Parameter 'range' must be an integer", field: "range")
        case .rangeZero:
            return MockError(400, "INVALID_PARAMETER", "Parameter 'range' must be greater than zero", field: "range")
        case .rangeNegative:
            return MockError(400, "INVALID_PARAMETER", "Parameter 'range' must be a positive number", field: "range")
        case .parameterRepeated(let name):
            return MockError(400, "INVALID_PARAMETER", "Parameter '\(name)' must be given at most once", field: name)
        case .announcementNotFound:
            return MockError(404, "NOT_FOUND", "Resource not found")
        case .adminTokenMissing:
            return MockError(401, "UNAUTHENTICATED", pick("Missing Authorization header",
                                                          "The admin token is required in the Authorization header (no scheme)"))
        case .adminTokenInvalid:
            return MockError(401, "UNAUTHENTICATED", pick("Invalid admin token", "The Authorization header is not the admin token"))
        case .internalFailure(let detail):
            return internalError(detail)
        }
    }

    private func article(_ word: String) -> String {
        word.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }

    private func productionRuleMessage(_ rule: CreateRule) -> String {
        switch rule {
        case .agePositive: "age must be a positive integer"
        case .microchipDigits: "must contain only digits"
        case .microchipTooLong: "microchipNumber must be at most 15 digits"
        case .latitudeRange: "latitude must be between -90 and 90"
        case .longitudeRange: "longitude must be between -180 and 180"
        case .emailFormat: "email format is invalid"
        case .phoneFormat: "invalid phone format"
        case .dateFormat: "invalid date format (expected YYYY-MM-DD)"
        case .dateUnparseable, .dateInFuture: "lastSeenDate cannot be in the future"
        case .dateNotInMonth: "invalid date"
        case .statusValue: "status must be either MISSING or FOUND"
        case .optionalTextBlank: "cannot be empty"
        }
    }

    private func strictRuleMessage(_ field: String, _ rule: CreateRule) -> String {
        switch rule {
        case .agePositive: "\(field) must be an integer of at least 1"
        case .microchipDigits: "\(field) must contain only the digits 0-9 (at least one)"
        case .microchipTooLong: "\(field) must be at most 15 digits"
        case .latitudeRange: "\(field) must be between -90 and 90"
        case .longitudeRange: "\(field) must be between -180 and 180"
        case .emailFormat: "\(field) must be a valid email address"
        case .phoneFormat: "\(field) must contain at least one digit"
        case .dateFormat: "\(field) must be a date in YYYY-MM-DD format"
        case .dateUnparseable: "\(field) is not a calendar date (month 01-12, day 01-31)"
        case .dateInFuture: "\(field) must not be in the future"
        case .dateNotInMonth: "\(field) is past the end of its month"
        case .statusValue(let received): "\(field) must be MISSING or FOUND, not '\(received)'"
        case .optionalTextBlank: "\(field) must not be empty or blank (leave the field out instead)"
        }
    }

    /// What zod says when the schema keeps its default messages (a planted defect).
    private static func zodDefaultMessage(_ problem: MockProblem) -> String? {
        switch problem {
        case .fieldBlank: return "String must contain at least 1 character(s)"
        case .fieldRule(_, let rule):
            switch rule {
            case .agePositive: return "Number must be greater than 0"
            case .latitudeRange(let below): return below ? "Number must be greater than or equal to -90" : "Number must be less than or equal to 90"
            case .longitudeRange(let below): return below ? "Number must be greater than or equal to -180" : "Number must be less than or equal to 180"
            case .emailFormat: return "Invalid email"
            case .statusValue(let received): return "Invalid enum value. Expected 'MISSING' | 'FOUND', received '\(received)'"
            case .microchipDigits, .microchipTooLong, .phoneFormat, .dateFormat, .dateUnparseable, .dateInFuture, .dateNotInMonth,
                 .optionalTextBlank:
                return "Invalid"
            }
        case .unknownKey(let key): return "Unrecognized key(s) in object: '\(key)'"
        case .missingContact: return "Invalid input"
        default: return nil
        }
    }

    /// A generic message per status (a planted defect).
    private static func genericMessage(status: Int) -> String {
        switch status {
        case 400: "Validation failed"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not found"
        case 409: "Conflict"
        case 413: "Payload too large"
        default: "Something went wrong"
        }
    }
}
