import Foundation
import PetSpotJSON

/// The value of one field: typed text, a photo, a date or a picked option.
///
/// Photos are boxed (`indirect`) so that a value is as small as a string: a report holds one
/// slot per field, copied with every generated case.
public enum FieldValue: Sendable, Hashable, CustomStringConvertible {
    /// Text typed into a text field.
    case text(String)
    /// A photo file, by its metadata (and bytes, when at hand).
    indirect case photo(PhotoAttachment)
    /// A calendar date from the date picker.
    case date(CalendarDate)
    /// An option picked from a fixed list (its wire spelling: `DOG`, `MALE`).
    case choice(String)

    /// The kinds of value, one per case.
    public enum Kind: Sendable, Hashable {
        /// ``FieldValue/text(_:)``.
        case text
        /// ``FieldValue/photo(_:)``.
        case photo
        /// ``FieldValue/date(_:)``.
        case date
        /// ``FieldValue/choice(_:)``.
        case choice
    }

    /// Which kind of value this is.
    public var kind: Kind {
        switch self {
        case .text: .text
        case .photo: .photo
        case .date: .date
        case .choice: .choice
        }
    }

    /// The text, when this is text.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// Whether this is text that is empty after trimming (picked values are never blank).
    public var isBlank: Bool {
        guard case .text(let text) = self else { return false }
        return Trimming.isBlank(text)
    }

    /// The value as its JSON member of the adapter protocol's `inputs`.
    public var json: JSONValue {
        switch self {
        case .text(let text), .choice(let text): .string(text)
        case .date(let date): .string(date.isoString)
        case .photo(let photo):
            [
                "fileName": .string(photo.fileName), "mimeType": .string(photo.mimeType),
                "byteCount": .number(JSONNumber(photo.byteCount)),
            ]
        }
    }

    /// Swift-literal text for text and options, `YYYY-MM-DD` for dates, type and size for photos.
    public var description: String {
        switch self {
        case .text(let text), .choice(let text): String(reflecting: text)
        case .date(let date): date.isoString
        case .photo(let photo): "\(photo.mimeType) \(photo.byteCount) B"
        }
    }
}

/// The stage a report's values are at: as the user typed them, or as the screens hold them.
public protocol FieldStage {}

/// Values as typed and picked, raw, before any field's input filter: the adapter protocol's
/// `inputs` (``ReportInputs``).
public enum AsTyped: FieldStage {}

/// Values as the wizard's screens hold them, after each field's input filter and length cap
/// (``ReportForm``).
public enum OnScreen: FieldStage {}

/// What the user typed or picked, raw: the `inputs` of the adapter protocol (sut-protocol.md).
public typealias ReportInputs = FieldValues<AsTyped>

/// Everything entered in a report wizard, as the screens hold it: each text field after its own
/// input filter and cap (``FieldValues/type(_:into:)``); validation and trimming happen on Continue
/// and at submission. Caregiver phone and current address live here but are never sent.
public typealias ReportForm = FieldValues<OnScreen>

/// The values of a report's fields, one optional value per ``ReportField``, at one `Stage`.
///
/// One struct serves both the raw inputs of a question (``ReportInputs``) and the wizard's form
/// (``ReportForm``); the stage parameter keeps the two apart at compile time, so raw keystrokes
/// are never sent as if the screen had filtered them. ``ReportForm/init(entering:in:)`` is the
/// one way from the first to the second. Every field is read and written the same way, through
/// the field table, so a new field needs no accessor here:
///
/// ```swift
/// var inputs = ReportInputs()
/// inputs[text: .phone] = "+48 600-700-800"
/// inputs.species = .dog
/// let form = ReportForm(entering: inputs, in: .missing)
/// form[text: .phone]   // "+48 600-700-800": the phone has no input filter
/// ```
///
/// A field left empty has no value (`nil`); on the form, typing an empty text clears the field.
public struct FieldValues<Stage: FieldStage>: Sendable, Hashable {
    /// One slot per field, indexed by the field's position in the table.
    private var values = [FieldValue?](repeating: nil, count: ReportField.allCases.count)

    /// Values with every field empty: a fresh wizard's form.
    public init() {}

    /// The value of `field`, `nil` when empty.
    public subscript(field: ReportField) -> FieldValue? {
        get { values[field.rawValue] }
        set { values[field.rawValue] = newValue }
    }

    /// The text of a text field (`nil` when empty, or for a picked field).
    public subscript(text field: ReportField) -> String? {
        get { values[field.rawValue]?.text }
        set { values[field.rawValue] = newValue.map(FieldValue.text) }
    }

    /// The attached photo.
    public var photo: PhotoAttachment? {
        get {
            if case .photo(let photo)? = self[.photo] { return photo }
            return nil
        }
        set { self[.photo] = newValue.map(FieldValue.photo) }
    }

    /// The date picked (Missing: last seen; Found: date found).
    public var lastSeenDate: CalendarDate? {
        get {
            if case .date(let date)? = self[.lastSeenDate] { return date }
            return nil
        }
        set { self[.lastSeenDate] = newValue.map(FieldValue.date) }
    }

    /// The species picked.
    public var species: Species? {
        get { self[.species].flatMap { if case .choice(let raw) = $0 { Species(rawValue: raw) } else { nil } } }
        set { self[.species] = newValue.map { .choice($0.rawValue) } }
    }

    /// The sex picked.
    public var sex: Sex? {
        get { self[.sex].flatMap { if case .choice(let raw) = $0 { Sex(rawValue: raw) } else { nil } } }
        set { self[.sex] = newValue.map { .choice($0.rawValue) } }
    }

    /// The fields that have a value, in table order.
    public var filledFields: [ReportField] {
        ReportField.allCases.filter { values[$0.rawValue] != nil }
    }
}

extension FieldValues where Stage == AsTyped {
    /// Decodes the adapter protocol's `inputs` object through the field table. Unknown keys,
    /// wrong types and values outside a field's options are refused with the key named; `null`
    /// means not set.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json, path: "inputs")
        try reader.rejectUnknownKeys(allowed: ReportField.allCases.map(\.name))
        for spec in FieldTable.specs {
            let key = spec.field.name
            guard let member = reader.object[key], !member.isNull else { continue }
            switch spec.kind {
            case .photo:
                let photoReader = try WireObjectReader(member, path: "inputs.photo")
                try photoReader.rejectUnknownKeys(allowed: ["fileName", "mimeType", "byteCount"])
                guard let byteCount = try photoReader.optionalInt("byteCount", allowNull: false) else {
                    throw WireDecodingError(keyPath: "inputs.photo.byteCount", reason: "missing")
                }
                photo = PhotoAttachment(
                    fileName: try photoReader.string("fileName"), mimeType: try photoReader.string("mimeType"),
                    byteCount: byteCount)
            case .date:
                let text = try reader.string(key)
                guard let date = CalendarDate(iso: text) else {
                    throw WireDecodingError(keyPath: "inputs.\(key)", reason: "not a YYYY-MM-DD date: \"\(text)\"")
                }
                self[spec.field] = .date(date)
            case .choice(let options):
                let text = try reader.string(key)
                guard options.contains(text) else {
                    throw WireDecodingError(
                        keyPath: "inputs.\(key)", reason: "\"\(text)\" is not one of \(options.joined(separator: ", "))")
                }
                self[spec.field] = .choice(text)
            case .digits, .freeText, .phone, .email, .coordinate, .wholeNumber:
                self[spec.field] = .text(try reader.string(key))
            }
        }
    }

    /// The `inputs` object of a question: set fields only, in table order.
    public var json: JSONValue {
        .object(JSONObject(uniqueMembers: filledFields.map { field in (field.name, self[field]!.json) }))
    }
}

extension FieldValues where Stage == OnScreen {
    /// The form a user ends up with after entering `inputs` into a fresh wizard of `flow`:
    /// each of the flow's text fields through its input filter and cap; fields of the other flow
    /// are ignored.
    public init(entering inputs: ReportInputs, in flow: ReportFlowKind) {
        self.init()
        for field in flow.fields {
            guard let value = inputs[field] else { continue }
            if case .text(let typed) = value {
                type(typed, into: field)
            } else {
                self[field] = value
            }
        }
    }

    /// Replaces a text field's content with `typed`, as the screen accepts it (its input filter
    /// and length cap); an empty result clears the field. Picked fields are ignored: set them.
    public mutating func type(_ typed: String, into field: ReportField) {
        let spec = field.spec
        guard spec.isText else { return }
        let kept = spec.filtered(typed)
        self[field] = kept.isEmpty ? nil : .text(kept)
    }

    /// Whether `field` currently blocks Continue (see ``FieldSpec/isInvalid(_:context:)``).
    public func isInvalid(_ field: ReportField, context: ReportContext) -> Bool {
        field.spec.isInvalid(self[field], context: context)
    }

    /// The fields of `step` that block Continue, in screen order; empty when the step is valid.
    public func invalidFields(on step: ReportStep, context: ReportContext) -> [ReportField] {
        let fields = step.fields
        // Most steps are valid: find the first invalid field before allocating a result.
        guard let first = fields.firstIndex(where: { isInvalid($0, context: context) }) else { return [] }
        return [fields[first]] + fields[(first + 1)...].filter { isInvalid($0, context: context) }
    }
}
