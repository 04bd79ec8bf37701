import PetSpotJSON
import PetSpotContractKit

/// The field rules of `POST /api/v1/announcements`, one entry per field, in the order in which
/// backend-contract.md says problems are reported: petName, species, breed, sex, age,
/// description, microchipNumber, locationLatitude, locationLongitude, email, phone,
/// lastSeenDate, status, reward. After them come the unknown-key check (first unknown key in
/// body order) and the contact rule; see ``CreateRequestValidator``.
enum CreateFieldKind: Equatable {
    /// Optional free text (production accepts ""; strict rejects empty or blank).
    case optionalText
    /// Required text, non-empty after trim (MISSING_VALUE when absent or blank).
    case requiredText
    /// Optional JSON integer ≥ 1.
    case optionalPositiveInteger
    /// Optional string of ASCII digits after trim.
    case optionalDigits
    /// Required JSON number within the closed range.
    case requiredNumber(minimum: Int, maximum: Int)
    /// Optional e-mail address.
    case optionalEmail
    /// Optional phone number: at least one ASCII digit.
    case optionalPhone
    /// Required `YYYY-MM-DD` date that JavaScript accepts, not in the future.
    case requiredPastDate
    /// Required string equal (after trim) to one of the values.
    case requiredEnumeration([String])
}

/// One row of the rule table.
struct CreateFieldRule {
    let name: String
    let kind: CreateFieldKind
    /// Whether the stored value is HTML-sanitised (petName, species, breed, sex, description, reward).
    let sanitized: Bool
}

/// Validates a create body against the rule table, reporting the first problem in the
/// documented order.
struct CreateRequestValidator {
    /// The rule table, in reporting order.
    static let rules: [CreateFieldRule] = [
        CreateFieldRule(name: "petName", kind: .optionalText, sanitized: true),
        CreateFieldRule(name: "species", kind: .requiredText, sanitized: true),
        CreateFieldRule(name: "breed", kind: .optionalText, sanitized: true),
        CreateFieldRule(name: "sex", kind: .requiredText, sanitized: true),
        CreateFieldRule(name: "age", kind: .optionalPositiveInteger, sanitized: false),
        CreateFieldRule(name: "description", kind: .optionalText, sanitized: true),
        CreateFieldRule(name: "microchipNumber", kind: .optionalDigits, sanitized: false),
        CreateFieldRule(name: "locationLatitude", kind: .requiredNumber(minimum: -90, maximum: 90), sanitized: false),
        CreateFieldRule(name: "locationLongitude", kind: .requiredNumber(minimum: -180, maximum: 180), sanitized: false),
        CreateFieldRule(name: "email", kind: .optionalEmail, sanitized: false),
        CreateFieldRule(name: "phone", kind: .optionalPhone, sanitized: false),
        CreateFieldRule(name: "lastSeenDate", kind: .requiredPastDate, sanitized: false),
        CreateFieldRule(name: "status", kind: .requiredEnumeration(["MISSING", "FOUND"]), sanitized: false),
        CreateFieldRule(name: "reward", kind: .optionalText, sanitized: true),
    ]

    /// The names of the accepted keys.
    static let knownKeys: Set<String> = Set(rules.map(\.name))

    let profile: BackendProfile
    /// The server's current instant, in milliseconds since 1970 (for the future-date rule).
    let nowMilliseconds: Int64

    /// The first problem with `body`, or `nil` when it is acceptable.
    func firstProblem(in body: JSONObject) -> MockError? {
        for rule in CreateRequestValidator.rules {
            if let problem = check(rule, body[rule.name]) { return problem }
        }
        for key in body.keys where !CreateRequestValidator.knownKeys.contains(key) {
            return MockError(400, "INVALID_FIELD", "Unknown field '\(key)'", field: key)
        }
        if body["email"] == nil && body["phone"] == nil {
            return MockError(400, "MISSING_CONTACT", "At least one contact method (email or phone) is required",
                             field: "contact")
        }
        return nil
    }

    private func invalid(_ field: String, _ message: String) -> MockError {
        MockError(400, "INVALID_FORMAT", message, field: field)
    }

    /// Checks one field; `value` is `nil` when the key is absent.
    func check(_ rule: CreateFieldRule, _ value: JSONValue?) -> MockError? {
        let name = rule.name
        guard let value else {
            switch rule.kind {
            case .requiredText, .requiredNumber, .requiredPastDate, .requiredEnumeration:
                return MockError(400, "MISSING_VALUE", "\(name) is required", field: name)
            default:
                return nil
            }
        }
        switch rule.kind {
        case .optionalText:
            guard case .string(let text) = value else { return invalid(name, "\(name) must be a string") }
            if profile == .strict && JavaScript.trim(text).isEmpty {
                return invalid(name, "\(name) must not be empty or blank")
            }
            return nil
        case .requiredText:
            guard case .string(let text) = value else { return invalid(name, "\(name) must be a string") }
            if JavaScript.trim(text).isEmpty { return MockError(400, "MISSING_VALUE", "\(name) is required", field: name) }
            return nil
        case .optionalPositiveInteger:
            // JavaScript sees the nearest double (1.0 and 1e0 are the integer 1).
            guard case .number(let number) = value, number.doubleValue.isFinite,
                  number.doubleValue == number.doubleValue.rounded(), number.doubleValue >= 1
            else { return invalid(name, "\(name) must be an integer of at least 1") }
            return nil
        case .optionalDigits:
            guard case .string(let text) = value else { return invalid(name, "\(name) must be a string") }
            let trimmed = JavaScript.trim(text)
            guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return invalid(name, "\(name) must contain only digits")
            }
            return nil
        case .requiredNumber(let minimum, let maximum):
            guard case .number(let number) = value else { return invalid(name, "\(name) must be a number") }
            guard number.doubleValue >= Double(minimum), number.doubleValue <= Double(maximum) else {
                return invalid(name, "\(name) must be between \(minimum) and \(maximum)")
            }
            return nil
        case .optionalEmail:
            guard case .string(let text) = value else { return invalid(name, "\(name) must be a string") }
            guard CreateRequestValidator.isEmail(JavaScript.trim(text)) else {
                return invalid(name, "\(name) must be a valid email address")
            }
            return nil
        case .optionalPhone:
            guard case .string(let text) = value else { return invalid(name, "\(name) must be a string") }
            guard text.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else {
                return invalid(name, "\(name) must contain at least one digit")
            }
            return nil
        case .requiredPastDate:
            guard case .string(let text) = value else { return invalid(name, "\(name) must be a string") }
            guard let milliseconds = JavaScript.dateOnlyMilliseconds(JavaScript.trim(text)) else {
                return invalid(name, "\(name) must be a valid date in YYYY-MM-DD format")
            }
            guard milliseconds <= nowMilliseconds else { return invalid(name, "\(name) must not be in the future") }
            return nil
        case .requiredEnumeration(let allowed):
            guard case .string(let text) = value else { return invalid(name, "\(name) must be a string") }
            guard allowed.contains(JavaScript.trim(text)) else {
                return invalid(name, "\(name) must be one of \(allowed.joined(separator: ", "))")
            }
            return nil
        }
    }

    /// `^(?=.{1,254}$)[^\s@]+@[^\s@]+\.[^\s@]+$` with JavaScript's `\s` and UTF-16 length.
    static func isEmail(_ text: String) -> Bool {
        let units = Array(text.utf16)
        guard (1...254).contains(units.count) else { return false }
        guard !units.contains(where: JavaScript.isWhitespace) else { return false }
        let at: UInt16 = 0x40, dot: UInt16 = 0x2E
        guard let atIndex = units.firstIndex(of: at), units.lastIndex(of: at) == atIndex, atIndex > 0 else { return false }
        let domain = units[(atIndex + 1)...]
        // The domain needs a dot with at least one character on each side.
        guard domain.count >= 3 else { return false }
        return domain.dropFirst().dropLast().contains(dot)
    }
}
