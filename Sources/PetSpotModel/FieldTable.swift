import Foundation
import PetSpotJSON

/// A field a user fills in: its identity. Everything else about it (the step it is on, its
/// input filter, rule and payload key) is its row in ``FieldTable``.
///
/// Its ``name`` is the input key of the adapter protocol and the name reported when Continue is
/// blocked. Cases are in the field table's order, which is screen order on every step; the raw
/// value is that position (so looking up a field's row or value is indexing an array).
public enum ReportField: Int, Sendable, CaseIterable, Hashable, Comparable {
    case photo, lastSeenDate, chipNumber, petName, species, breed, sex, age
    case latitude, longitude, description, phone, email, reward
    case caregiverPhone, currentAddress

    /// This field's row of the field table.
    public var spec: FieldSpec { FieldTable.spec(self) }

    /// Whether only the Missing flow has this field.
    public var isMissingOnly: Bool { spec.placement.found == nil }

    /// Whether only the Found flow has this field.
    public var isFoundOnly: Bool { spec.placement.missing == nil }

    /// The field's name: its key in the adapter protocol's `inputs` (`chipNumber`, `photo`, ...).
    public var name: String { Self.names[rawValue] }

    /// The field named `name`, if there is one.
    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name) else { return nil }
        self = Self.allCases[index]
    }

    // The case names, as an enum without a custom description prints them.
    private static let names = allCases.map { String(describing: $0) }

    public static func < (lhs: ReportField, rhs: ReportField) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// Every report field, described once: where it is shown, how its value gets in, what makes it
/// valid and what the payload carries.
///
/// The table is the single source the package reads field facts from. The wizard's storage
/// (``FieldValues``), each step's fields and their validation, the payload
/// (``CreateAnnouncementRequest``), the adapter protocol's `inputs`, the flow generators and the
/// boundary catalogue are all driven by it, so adding a field is one case of ``ReportField`` and one row here (plus its tests):
///
/// ```swift
/// FieldSpec(.breed, .freeText(nil), .optional, on: .description, .petDetails, payloadKey: "breed")
/// ```
///
/// Rows are in screen order: on every step, the step's fields appear in table order. The payload
/// sends the required fields in table order, then `status`, then the optional fields present.
public enum FieldTable {
    /// Every row, in screen order: one per ``ReportField``, in case order (checked on first use).
    public static let specs: [FieldSpec] = checked([
        FieldSpec(.photo, .photo(PhotoRule()), .required, on: .photo, .photo, delivery: .upload),
        FieldSpec(.lastSeenDate, .date(ReportDateRule()), .required, on: .description, .petDetails, payloadKey: "lastSeenDate"),
        FieldSpec(.chipNumber, .digits(MicrochipFormatter()), .optional, on: .chipNumber, .petDetails, payloadKey: "microchipNumber"),
        FieldSpec(.petName, .freeText(nil), .optional, on: .description, nil, payloadKey: "petName"),
        FieldSpec(.species, .choice(Species.allCases.map(\.rawValue)), .required, on: .description, .petDetails, payloadKey: "species"),
        FieldSpec(.breed, .freeText(nil), .optional, on: .description, .petDetails, payloadKey: "breed"),
        FieldSpec(.sex, .choice(Sex.allCases.map(\.rawValue)), .required, on: .description, .petDetails, payloadKey: "sex"),
        FieldSpec(.age, .wholeNumber(AgeRule()), .optional, on: .description, nil, payloadKey: "age"),
        FieldSpec(.latitude, .coordinate(.latitude), .required, on: .description, .petDetails, payloadKey: "locationLatitude"),
        FieldSpec(.longitude, .coordinate(.longitude), .required, on: .description, .petDetails, payloadKey: "locationLongitude"),
        FieldSpec(.description, .freeText(.description), .optional, on: .description, .petDetails, payloadKey: "description"),
        FieldSpec(.phone, .phone(PhoneRule()), .required, on: .contactDetails, .contactInfo, payloadKey: "phone"),
        FieldSpec(.email, .email(EmailRule()), .required, on: .contactDetails, .contactInfo, payloadKey: "email"),
        FieldSpec(.reward, .freeText(.reward), .optional, on: .contactDetails, nil, payloadKey: "reward"),
        FieldSpec(.caregiverPhone, .phone(PhoneRule()), .optional, on: nil, .contactInfo, delivery: .notSent),
        FieldSpec(.currentAddress, .freeText(.currentAddress), .optional, on: nil, .contactInfo, delivery: .notSent),
    ])

    private static func checked(_ rows: [FieldSpec]) -> [FieldSpec] {
        precondition(rows.map(\.field) == ReportField.allCases, "the field table must list every ReportField once, in case order")
        return rows
    }

    /// The row of `field`.
    public static func spec(_ field: ReportField) -> FieldSpec {
        specs[field.rawValue]
    }

    /// The payload's keys in the order they are sent: required fields, `status`, optional fields.
    public static let payloadKeys: [String] = {
        let sent = specs.compactMap { spec in spec.payloadKey.map { (key: $0, required: spec.presence == .required) } }
        return sent.filter(\.required).map(\.key) + [statusKey] + sent.filter { !$0.required }.map(\.key)
    }()

    /// The payload key of the flow's status (not a field: each flow has its own).
    public static let statusKey = "status"

    /// The payload's members in sending order, as the rows that send them; `nil` stands for
    /// the status.
    static let payloadRows: [FieldSpec?] = payloadKeys.map { key in specs.first { $0.payloadKey == key } }

    /// The keys of fields the app keeps but never sends (iOS-only).
    public static let notSentKeys: [String] = specs.filter { $0.delivery == .notSent }.map(\.field.name)
}

/// One row of the ``FieldTable``: immutable, shared by reference (reading a row costs one
/// retain, not a copy of its rule values).
public final class FieldSpec: Sendable {
    /// Whether a field must be filled in.
    public enum Presence: Sendable, Hashable {
        /// Empty (nothing picked, or blank text after trimming) blocks Continue.
        case required
        /// Empty is fine; a value that is not blank after trimming is checked by the field's rule.
        case optional
    }

    /// Where the field appears: its step in each flow (`nil`: not in that flow).
    public struct Placement: Sendable, Hashable {
        /// The step in the Missing flow.
        public let missing: ReportStep?
        /// The step in the Found flow.
        public let found: ReportStep?

        /// The step in `flow`, if the flow has the field.
        public func step(in flow: ReportFlowKind) -> ReportStep? {
            flow == .missing ? missing : found
        }
    }

    /// How the value leaves the app.
    public enum Delivery: Sendable, Hashable {
        /// A member of the create payload under this key.
        case payload(key: String)
        /// Uploaded after the create (the photo).
        case upload
        /// Kept in the flow state, never sent (iOS-only).
        case notSent
    }

    /// The field.
    public let field: ReportField
    /// How a value gets in and what makes it valid.
    public let kind: FieldKind
    /// Whether the field must be filled in.
    public let presence: Presence
    /// Its step in each flow.
    public let placement: Placement
    /// How its value is sent.
    public let delivery: Delivery

    /// A row: `field` of `kind`, on `missing` and `found` steps, delivered as `delivery`.
    public init(
        _ field: ReportField, _ kind: FieldKind, _ presence: Presence, on missing: ReportStep?, _ found: ReportStep?,
        delivery: Delivery
    ) {
        self.field = field
        self.kind = kind
        self.presence = presence
        self.placement = Placement(missing: missing, found: found)
        self.delivery = delivery
    }

    /// A row whose value is sent in the payload under `payloadKey`.
    public convenience init(
        _ field: ReportField, _ kind: FieldKind, _ presence: Presence, on missing: ReportStep?, _ found: ReportStep?,
        payloadKey: String
    ) {
        self.init(field, kind, presence, on: missing, found, delivery: .payload(key: payloadKey))
    }

    /// The payload key, when the value is sent in the payload.
    public var payloadKey: String? {
        if case .payload(let key) = delivery { return key }
        return nil
    }

    /// Whether the value is typed text (rather than picked).
    public var isText: Bool { kind.valueKind == .text }

    // MARK: Rules

    /// What the screen keeps of `typed`: the field's own input filter and length cap.
    public func filtered(_ typed: String) -> String {
        switch kind {
        case .digits(let formatter): formatter.storedDigits(from: typed)
        case .freeText(let limit): limit.map { $0.capped(typed) } ?? typed
        case .phone, .email, .coordinate, .wholeNumber, .date, .photo, .choice: typed
        }
    }

    /// Whether `value` (what the screen holds; `nil` when empty) blocks Continue at `context`.
    public func isInvalid(_ value: FieldValue?, context: ReportContext) -> Bool {
        guard let value, !value.isBlank else { return presence == .required }
        switch value {
        case .text(let text):
            switch kind {
            case .digits, .freeText: return false
            case .phone(let rule): return !rule.isValid(text)
            case .email(let rule): return !rule.isValid(text)
            case .coordinate(let axis): return CoordinateRule().validValue(text, axis: axis) == nil
            case .wholeNumber(let rule): return !rule.isValid(text)
            case .date, .photo, .choice: return true
            }
        case .date(let date):
            guard case .date(let rule) = kind else { return true }
            return !rule.isAllowed(date, now: context.now, timeZone: context.timeZone)
        case .photo(let photo):
            guard case .photo(let rule) = kind else { return true }
            return !rule.isValid(photo)
        case .choice(let picked):
            guard case .choice(let options) = kind else { return true }
            return !options.contains(picked)
        }
    }

    /// The payload member of a valid `value`, or `nil` when nothing is sent (empty optional text,
    /// or a field that is not in the payload).
    public func payloadValue(_ value: FieldValue?) -> JSONValue? {
        guard payloadKey != nil, let value else { return nil }
        switch value {
        case .text(let text):
            switch kind {
            case .digits: return text.isEmpty ? nil : .string(text)
            case .freeText: return OptionalText.payloadValue(text).map(JSONValue.string)
            case .phone(let rule):
                let kept = rule.sanitized(text)
                return kept.isEmpty ? nil : .string(kept)
            case .email(let rule):
                let address = rule.normalized(text)
                return address.isEmpty ? nil : .string(address)
            case .coordinate(let axis): return CoordinateRule().validValue(text, axis: axis).map { .number(JSONNumber($0)) }
            case .wholeNumber(let rule): return rule.payloadValue(text).map { .number(JSONNumber($0)) }
            case .date, .photo, .choice: return nil
            }
        case .date(let date): return .string(date.isoString)
        case .choice(let picked): return .string(picked)
        case .photo: return nil
        }
    }
}

/// What kind of field a row describes, with the rule values that govern it. The generators and
/// the boundary catalogue read these values; no limit is written anywhere else.
public enum FieldKind: Sendable {
    /// Digits typed; every other character dropped, at most the formatter's digits kept; any
    /// length is valid (the microchip).
    case digits(MicrochipFormatter)
    /// Free text, stopping at the limit when there is one; never invalid; sent trimmed, left out
    /// when blank.
    case freeText(TextLimit?)
    /// A phone number (the kept characters `0`-`9` and `+` are sent).
    case phone(PhoneRule)
    /// An email address (sent trimmed).
    case email(EmailRule)
    /// A coordinate typed as a decimal number (sent as a JSON number).
    case coordinate(CoordinateRule.Axis)
    /// A whole number typed in ASCII digits (sent as a JSON integer).
    case wholeNumber(AgeRule)
    /// A calendar date from the date picker (sent as `YYYY-MM-DD`).
    case date(ReportDateRule)
    /// A photo file (uploaded after the create).
    case photo(PhotoRule)
    /// One of these values, picked (sent as is).
    case choice([String])

    /// Whether validity depends on the clock (``ReportContext``): the date.
    public var readsClock: Bool {
        if case .date = self { return true }
        return false
    }

    /// The kind of value the field holds.
    public var valueKind: FieldValue.Kind {
        switch self {
        case .digits, .freeText, .phone, .email, .coordinate, .wholeNumber: .text
        case .date: .date
        case .photo: .photo
        case .choice: .choice
        }
    }
}
