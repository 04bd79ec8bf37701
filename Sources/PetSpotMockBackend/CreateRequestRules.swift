import PetSpotContractKit
import PetSpotJSON

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

/// A check of the create body. ``reportingOrder`` lists them in the order the mock's validator
/// runs them, which is the order in which it reports problems: the first check that finds one
/// names it.
package enum CreateRequestCheck: Sendable, Hashable {
    /// The rule of one field (its presence, type and value).
    case field(String)
    /// No key outside the fields (the first unknown key, in body order, is reported).
    case unknownKey
    /// At least one of email and phone.
    case contact

    /// The checks in the order the validator runs them: the fields of the rule table in its
    /// order (backend-contract.md's), then the unknown key, then the contact rule. Planted
    /// defects may move a check before the others; served contract changes do not reorder them.
    package static let reportingOrder: [CreateRequestCheck] =
        CreateRequestValidator.rules.map { .field($0.name) } + [.unknownKey, .contact]
}

/// One row of the rule table.
struct CreateFieldRule {
    let name: String
    let kind: CreateFieldKind
    /// Whether the stored value is HTML-sanitised (petName, species, breed, sex, description, reward).
    let sanitized: Bool
}

/// Validates a create body against the rule table, reporting the first problem in the
/// documented order, ``CreateRequestCheck/reportingOrder``: the fields in table order, then the
/// first unknown key in body order, then the contact rule (planted defects may change the order
/// or skip a rule). Served contract changes (``MockChange``) change rules in place: a field's
/// own rule where it is checked, the null-island rule right after the longitude's (both
/// coordinates are known then).
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

    /// ``CreateRequestCheck/reportingOrder`` with each field's rule looked up once, not per request.
    private static let checksInOrder: [(check: CreateRequestCheck, rule: CreateFieldRule?)] = {
        let rulesByName = Dictionary(uniqueKeysWithValues: rules.map { ($0.name, $0) })
        return CreateRequestCheck.reportingOrder.map { check in
            guard case .field(let name) = check else { return (check, nil) }
            return (check, rulesByName[name])
        }
    }()

    /// The rules of the contact rule: email and phone.
    private static let contactRules = rules.filter { $0.name == "email" || $0.name == "phone" }

    let behaviour: MockBehaviour
    /// The contract changes served (none: the contract of backend-contract.md).
    let changes: Set<MockChange>
    /// The server's current instant, in milliseconds since 1970 (for the future-date rule).
    let nowMilliseconds: Int64

    private var profile: BackendProfile { behaviour.profile }

    /// The first problem with `body`, or `nil` when it is acceptable.
    func firstProblem(in body: JSONObject) -> MockProblem? {
        if behaviour.has(.createContactBeforeFields), let problem = contactProblem(body) { return problem }
        if behaviour.has(.createUnknownKeyFirst), let problem = unknownKeyProblem(body) { return problem }
        for (step, rule) in CreateRequestValidator.checksInOrder {
            switch step {
            case .field(let name):
                guard let rule, !isRemoved(name) else { continue }
                if let problem = check(rule, value(of: rule, in: body)) { return problem }
                if name == "locationLongitude" && changes.contains(.nullIslandRefused) && CreateRequestValidator.isNullIsland(body) {
                    return .changedContract(.nullIsland)
                }
            case .unknownKey:
                if let problem = unknownKeyProblem(body) { return problem }
            case .contact:
                if let problem = contactProblem(body) { return problem }
            }
        }
        return nil
    }

    /// Whether `name` is a field of the served contract (`breed-removed` takes breed out).
    private func isField(_ name: String) -> Bool {
        CreateRequestValidator.knownKeys.contains(name) && !isRemoved(name)
    }

    /// Whether a served change took the field `name` out of the contract.
    private func isRemoved(_ name: String) -> Bool { name == "breed" && changes.contains(.breedRemoved) }

    /// Whether the field must be present: its kind says so, or a served change made it required.
    private func isRequired(_ rule: CreateFieldRule) -> Bool {
        switch rule.kind {
        case .requiredText, .requiredNumber, .requiredPastDate, .requiredEnumeration: return true
        case .optionalText where rule.name == "petName": return changes.contains(.petNameRequired)
        case .optionalEmail: return changes.contains(.emailRequired)
        default: return false
        }
    }

    /// The field's value as its rule reads it: `nil` when absent, and also when `null` is sent
    /// for an optional field under `optional-null-accepted`.
    private func value(of rule: CreateFieldRule, in body: JSONObject) -> JSONValue? {
        guard let value = body[rule.name] else { return nil }
        if value.isNull && changes.contains(.optionalNullAccepted) && !isRequired(rule) { return nil }
        return value
    }

    private func unknownKeyProblem(_ body: JSONObject) -> MockProblem? {
        guard !changes.contains(.unknownKeysIgnored) else { return nil }
        for key in body.keys where !isField(key) { return .unknownKey(key) }
        return nil
    }

    private func contactProblem(_ body: JSONObject) -> MockProblem? {
        guard !behaviour.has(.createContactUnchecked) else { return nil }
        return CreateRequestValidator.contactRules.allSatisfy({ value(of: $0, in: body) == nil }) ? .missingContact : nil
    }

    /// Whether both coordinates are numbers equal to 0 (`-0` included).
    static func isNullIsland(_ body: JSONObject) -> Bool {
        body["locationLatitude"]?.numberValue?.doubleValue == 0 && body["locationLongitude"]?.numberValue?.doubleValue == 0
    }

    /// Checks one field; `value` is `nil` when the key is absent.
    func check(_ rule: CreateFieldRule, _ value: JSONValue?) -> MockProblem? {
        let name = rule.name
        guard let value else {
            guard isRequired(rule) else { return nil }
            return .fieldAbsent(name)
        }
        func wrongType(_ expected: String) -> MockProblem {
            .fieldWrongType(name, expected: expected, received: JavaScript.zodTypeName(value))
        }
        switch rule.kind {
        case .optionalText where isRequired(rule):
            guard case .string(let text) = value else { return wrongType("string") }
            return JavaScript.trim(text).isEmpty ? .fieldBlank(name) : nil
        case .optionalPositiveInteger where changes.contains(.ageAsText):
            guard case .string(let text) = value else { return wrongType("string") }
            let digits = JavaScript.trim(text)
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let years = Double(digits), years >= 1 else {
                return .fieldRule(name, .agePositive)
            }
            return ageCapProblem(years)
        case .optionalText:
            guard case .string(let text) = value else { return wrongType("string") }
            if profile == .strict && JavaScript.trim(text).isEmpty { return .fieldRule(name, .optionalTextBlank) }
            if behaviour.has(.createEmptyOptionalRefused) && text.isEmpty { return .fieldRule(name, .optionalTextBlank) }
            return nil
        case .requiredText:
            guard case .string(let text) = value else { return wrongType("string") }
            return JavaScript.trim(text).isEmpty ? .fieldBlank(name) : nil
        case .optionalPositiveInteger:
            // JavaScript sees the nearest double (1.0 and 1e0 are the integer 1); zod checks
            // the integer rule before the positive one.
            guard case .number(let number) = value else { return wrongType("number") }
            let double = number.doubleValue
            guard double.isFinite, double == double.rounded() else {
                return .fieldWrongType(name, expected: "integer", received: "float")
            }
            return double >= 1 ? ageCapProblem(double) : .fieldRule(name, .agePositive)
        case .optionalDigits:
            guard case .string(let text) = value else { return wrongType("string") }
            let trimmed = JavaScript.trim(text)
            guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return .fieldRule(name, .microchipDigits)
            }
            if behaviour.has(.createMicrochipMax15) || changes.contains(.microchipMax15), trimmed.utf8.count > 15 {
                return .fieldRule(name, .microchipTooLong)
            }
            return nil
        case .requiredNumber(let minimum, let maximum):
            guard case .number(let number) = value else { return wrongType("number") }
            let double = number.doubleValue
            let isLatitude = name == "locationLatitude"
            if double < Double(minimum) {
                return .fieldRule(name, isLatitude ? .latitudeRange(belowMinimum: true) : .longitudeRange(belowMinimum: true))
            }
            if double > Double(maximum) {
                return .fieldRule(name, isLatitude ? .latitudeRange(belowMinimum: false) : .longitudeRange(belowMinimum: false))
            }
            return nil
        case .optionalEmail:
            guard case .string(let text) = value else { return wrongType("string") }
            return CreateRequestValidator.isEmail(JavaScript.trim(text)) ? nil : .fieldRule(name, .emailFormat)
        case .optionalPhone:
            guard case .string(let text) = value else { return wrongType("string") }
            let digitCount = text.utf8.count(where: { $0 >= 0x30 && $0 <= 0x39 })
            guard digitCount > 0 else { return .fieldRule(name, .phoneFormat) }
            return changes.contains(.phoneDigits7To15) && !(7...15).contains(digitCount) ? .changedContract(.phoneDigits) : nil
        case .requiredPastDate:
            guard case .string(let text) = value else { return wrongType("string") }
            let trimmed = JavaScript.trim(text)
            guard JavaScript.isDateOnlyPattern(trimmed) else { return .fieldRule(name, .dateFormat) }
            guard let milliseconds = JavaScript.dateOnlyMilliseconds(trimmed) else { return .fieldRule(name, .dateUnparseable) }
            if behaviour.has(.createDateNoRollover), !JavaScript.isDayWithinMonth(trimmed) { return .fieldRule(name, .dateNotInMonth) }
            return milliseconds <= nowMilliseconds ? nil : .fieldRule(name, .dateInFuture)
        case .requiredEnumeration(let contracted):
            guard case .string(let text) = value else { return wrongType("string") }
            let trimmed = JavaScript.trim(text)
            let allowed = statusValues(contracted)
            let accepted = behaviour.has(.createStatusCaseInsensitive)
                ? allowed.contains(trimmed.uppercased()) : allowed.contains(trimmed)
            if accepted { return nil }
            return allowed == contracted ? .fieldRule(name, .statusValue(received: trimmed)) : .changedContract(.status(allowing: allowed))
        }
    }

    /// The status values of the served contract: the table's, with the renames of served changes.
    private func statusValues(_ contracted: [String]) -> [String] {
        contracted.map { value in
            switch value {
            case "MISSING" where changes.contains(.statusMissingRenamedLost): "LOST"
            case "FOUND" where changes.contains(.statusFoundRenamedSighted): "SIGHTED"
            default: value
            }
        }
    }

    /// The `age-max-30` rule, checked after the integer and positive rules.
    private func ageCapProblem(_ years: Double) -> MockProblem? {
        changes.contains(.ageMax30) && years > 30 ? .changedContract(.ageAtMost30) : nil
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
