import PetSpotContractKit

/// A deliberate change of the create contract the mock can be told to serve, so that a release
/// gate can be measured: replay what each app release sends against `petspot-contracts mock
/// --change NAME` and it must say which releases the new contract breaks.
///
/// A change is not a defect (``MockDefect``): it is the backend team shipping a new contract on
/// purpose, so the mock answers it with production's care, in production's style, in both
/// profiles. It either tightens a rule (``Kind/tightens``: some request the contract accepted is
/// refused with ``answer``) or loosens one (``Kind/loosens``: some request it refused is
/// accepted). Each is applied where the mock implements the rule it changes, in
/// backend-contract.md's error order (the fields in table order, then an unknown key, then the
/// contact rule), and combines with other changes and with planted defects.
///
/// ```swift
/// let candidate = MockBackend(profile: .production, changes: [.statusMissingRenamedLost, .breedRemoved])
/// let changes = try MockChange.parseList("status-missing-renamed-lost, breed-removed")
/// ```
public enum MockChange: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    // MARK: Tightening a rule

    /// `status` must be `LOST` or `FOUND`; `MISSING` is refused.
    ///
    /// Realistic: a status value renamed in an API version, e.g. to share the web site's
    /// "Lost pets" vocabulary or a shelter partner's feed, with the old value dropped at once
    /// instead of aliased.
    case statusMissingRenamedLost = "status-missing-renamed-lost"
    /// `status` must be `MISSING` or `SIGHTED`; `FOUND` is refused.
    ///
    /// Realistic: product decides that a finder reports a sighting (the finder may not hold the
    /// animal) and the enum value is renamed without keeping `FOUND`.
    case statusFoundRenamedSighted = "status-found-renamed-sighted"
    /// `petName` is required and must not be blank.
    ///
    /// Realistic: the list and the push notifications start showing the pet's name, and the
    /// schema's `.optional()` is dropped so that every new announcement has one.
    case petNameRequired = "pet-name-required"
    /// `breed` is no longer a field: a body with it is refused like any unknown key.
    ///
    /// Realistic: the free-text breed column is dropped after a data-quality review and the
    /// strict schema (`.strict()`) then refuses the key.
    case breedRemoved = "breed-removed"
    /// `age` must be a string of digits (`"3"`); a JSON number is refused.
    ///
    /// Realistic: the age column becomes text (to take months later) and the validator follows
    /// with `z.string().regex(...)`, so clients that send a number break.
    case ageAsText = "age-as-text"
    /// `age` must be at most 30.
    ///
    /// Realistic: a sanity cap added after typos such as 300 reached the listings; 30 is a
    /// plausible limit for cats and dogs chosen without asking what the apps allow.
    case ageMax30 = "age-max-30"
    /// A location of exactly latitude 0 and longitude 0 is refused.
    ///
    /// Realistic: "Null Island" is where unset coordinates land; geodata pipelines commonly refuse
    /// it as a placeholder rather than a position.
    case nullIslandRefused = "null-island-refused"
    /// `microchipNumber` must have at most 15 digits.
    ///
    /// Realistic: ISO 11784 microchips have 15 digits, and the column is narrowed to
    /// `VARCHAR(15)` with a matching rule.
    case microchipMax15 = "microchip-max-15"
    /// `email` is required; a phone alone is no longer a contact.
    ///
    /// Realistic: the management link and the match notifications move to e-mail only.
    case emailRequired = "email-required"
    /// `phone` must contain 7 to 15 digits.
    ///
    /// Realistic: a phone check brought in line with E.164 (at most 15 digits) and a minimum
    /// that rules out extensions and short codes.
    case phoneDigits7To15 = "phone-digits-7-15"

    // MARK: Loosening a rule

    /// Keys outside the schema are ignored (and not stored) instead of refused.
    ///
    /// Realistic: the strict object (`.strict()`) becomes `.strip()` so that newer clients can
    /// add fields without an older backend refusing their reports.
    case unknownKeysIgnored = "unknown-keys-ignored"
    /// `null` for an optional field is accepted as the field left out.
    ///
    /// Realistic: the web client sends `null` for a cleared input, and the schema's
    /// `.optional()` becomes `.nullish()` for it.
    case optionalNullAccepted = "optional-null-accepted"

    /// Whether a change refuses more or accepts more.
    public enum Kind: String, Sendable, CaseIterable {
        /// Some request the contract accepted is refused (with the change's ``MockChange/answer``).
        case tightens
        /// Some request the contract refused is accepted.
        case loosens
    }

    /// The refusal a tightening change answers, as an error envelope has it.
    public struct Answer: Sendable, Hashable, CustomStringConvertible {
        /// The HTTP status (400).
        public let status: Int
        /// The envelope's `code`.
        public let code: String
        /// The envelope's `field`.
        public let field: String
        /// The message in the production profile, in production's style.
        public let message: String
        /// The message in the strict profile, which names the field as the strict mock's do.
        public let strictMessage: String

        init(_ status: Int, _ code: String, field: String, message: String, strictMessage: String) {
            self.status = status
            self.code = code
            self.field = field
            self.message = message
            self.strictMessage = strictMessage
        }

        /// The message the mock answers in `profile`.
        public func message(in profile: BackendProfile) -> String {
            profile == .production ? message : strictMessage
        }

        /// `400 CODE field: message` (production's message).
        public var description: String { "\(status) \(code) \(field): \(message)" }

        /// `status` outside `allowed` (the values in the changed contract's order).
        package static func status(allowing allowed: [String]) -> Answer {
            let values = allowed.joined(separator: " or ")
            return Answer(400, "INVALID_FORMAT", field: "status", message: "status must be either \(values)",
                          strictMessage: "status must be \(values)")
        }

        /// `age` over 30.
        package static let ageAtMost30 = Answer(400, "INVALID_FORMAT", field: "age", message: "age must be at most 30",
                                        strictMessage: "age must be a whole number from 1 to 30")
        /// Latitude 0 and longitude 0 together.
        package static let nullIsland = Answer(400, "INVALID_FORMAT", field: "locationLatitude", message: "location 0,0 is not a real location",
                                       strictMessage: "locationLatitude and locationLongitude 0,0 is not a real location")
        /// A phone with fewer than 7 or more than 15 digits.
        package static let phoneDigits = Answer(400, "INVALID_FORMAT", field: "phone", message: "phone must contain 7 to 15 digits",
                                        strictMessage: "phone must contain 7 to 15 digits (0-9)")
    }

    /// The change's name on the command line (`--change NAME`).
    public var name: String { rawValue }

    /// `name: summary`.
    public var description: String { "\(rawValue): \(summary)" }

    /// Whether the change tightens or loosens the contract.
    public var kind: Kind { answer == nil ? .loosens : .tightens }

    /// One line saying what the new contract does.
    public var summary: String {
        switch self {
        case .statusMissingRenamedLost: "status must be LOST or FOUND; MISSING is refused"
        case .statusFoundRenamedSighted: "status must be MISSING or SIGHTED; FOUND is refused"
        case .petNameRequired: "petName is required and must not be blank"
        case .breedRemoved: "breed is no longer a field; a body with it is refused as an unknown key"
        case .ageAsText: "age must be a string of digits such as \"3\"; a JSON number is refused"
        case .ageMax30: "age must be at most 30"
        case .nullIslandRefused: "a location of exactly latitude 0 and longitude 0 is refused"
        case .microchipMax15: "microchipNumber must have at most 15 digits"
        case .emailRequired: "email is required; a phone alone is no longer a contact"
        case .phoneDigits7To15: "phone must contain 7 to 15 digits"
        case .unknownKeysIgnored: "keys outside the schema are ignored, and not stored, instead of refused"
        case .optionalNullAccepted: "null for an optional field is accepted as the field left out"
        }
    }

    /// What a request the change refuses is answered (in the order backend-contract.md gives, at
    /// the place of the field it is about); `nil` for a change that loosens. The answer to a
    /// request that breaks the changed rule in another way (a wrong JSON type, a blank name)
    /// stays the contract's own.
    public var answer: Answer? {
        switch self {
        case .statusMissingRenamedLost: .status(allowing: ["LOST", "FOUND"])
        case .statusFoundRenamedSighted: .status(allowing: ["MISSING", "SIGHTED"])
        case .petNameRequired:
            Answer(400, "MISSING_VALUE", field: "petName", message: "Required", strictMessage: "petName is required")
        case .breedRemoved:
            Answer(400, "INVALID_FIELD", field: "breed", message: "breed is not a valid field", strictMessage: "Unknown field 'breed'")
        case .ageAsText:
            Answer(400, "INVALID_FORMAT", field: "age", message: "Expected string, received number",
                   strictMessage: "age must be a string, not a number")
        case .ageMax30: .ageAtMost30
        case .nullIslandRefused: .nullIsland
        case .microchipMax15:
            Answer(400, "INVALID_FORMAT", field: "microchipNumber", message: "microchipNumber must be at most 15 digits",
                   strictMessage: "microchipNumber must be at most 15 digits")
        case .emailRequired: Answer(400, "MISSING_VALUE", field: "email", message: "Required", strictMessage: "email is required")
        case .phoneDigits7To15: .phoneDigits
        case .unknownKeysIgnored, .optionalNullAccepted: nil
        }
    }

    /// The changes named in a comma-separated list (`a,b`; spaces around names are ignored).
    /// - Throws: ``MockChangeParseError`` naming the first unknown or empty name.
    public static func parseList(_ text: String) throws(MockChangeParseError) -> Set<MockChange> {
        var changes: Set<MockChange> = []
        for rawName in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = rawName.trimmingASCIIWhitespace()
            guard let change = MockChange(rawValue: name) else { throw MockChangeParseError(name: name) }
            changes.insert(change)
        }
        return changes
    }
}

/// A change name that is not one of ``MockChange``'s.
public struct MockChangeParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name as written (trimmed; empty for an empty list item).
    public let name: String

    /// `unknown change 'NAME' (see --change list)`, or the empty-name sentence.
    public var description: String {
        name.isEmpty ? "empty change name in the list" : "unknown change '\(name)' (see --change list)"
    }
}
