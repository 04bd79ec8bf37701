import Foundation
import PetSpotJSON

/// The body of `POST /api/v1/announcements`: the payload a report submits.
///
/// Built from the flow state at the moment of submission with ``init(flow:form:context:)``,
/// which validates every step first. The members come from the field table: every field whose
/// row sends it (``FieldSpec/payloadValue(_:)``), plus the flow's `status`; optional values are
/// omitted when absent or blank, never `null`, never an empty string; caregiver phone and
/// current address are never part of it. ``jsonObject`` holds the keys in one fixed order
/// (``FieldTable/payloadKeys``), so equal payloads serialise to equal bytes.
///
/// ```swift
/// let payload = try CreateAnnouncementRequest(flow: .found, form: form, context: context)
/// payload.status            // .found, sent as "FOUND"
/// payload[.chipNumber]      // "123456789012345", or nil when no microchip was typed
/// ```
public struct CreateAnnouncementRequest: Sendable, Hashable {
    /// The JSON object sent, keys in ``FieldTable/payloadKeys`` order.
    public private(set) var jsonObject: JSONObject
    /// The status sent: `.active` (`MISSING`) or `.found` (`FOUND`) when built from a flow.
    public private(set) var status: AnnouncementStatus

    /// The payload of a report in `flow` with `form`'s values.
    ///
    /// - Throws: ``ReportValidationError`` with the first step that blocks and its invalid
    ///   fields, when any step of the flow would refuse Continue.
    public init(flow: ReportFlowKind, form: ReportForm, context: ReportContext) throws(ReportValidationError) {
        for step in flow.steps {
            let invalid = form.invalidFields(on: step, context: context)
            if !invalid.isEmpty { throw ReportValidationError(step: step, fields: invalid) }
        }
        try self.init(validatedFlow: flow, form: form)
    }

    /// The payload of a form whose every step has been validated (the wizard's submission).
    ///
    /// - Throws: ``ReportValidationError`` naming the first step and its required fields that
    ///   turn out to have nothing to send after all (a form that was not validated); never crashes.
    init(validatedFlow flow: ReportFlowKind, form: ReportForm) throws(ReportValidationError) {
        var members: [JSONObject.Element] = []
        members.reserveCapacity(FieldTable.payloadRows.count)
        var unsent: [ReportField] = []
        for (key, row) in zip(FieldTable.payloadKeys, FieldTable.payloadRows) {
            guard let row else {
                members.append((key, .string(flow.status.wireValue)))
                continue
            }
            guard row.placement.step(in: flow) != nil else { continue }
            if let value = row.payloadValue(form[row.field]) {
                members.append((key, value))
            } else if row.presence == .required {
                unsent.append(row.field)
            }
        }
        if let first = unsent.first, let step = first.spec.placement.step(in: flow) {
            throw ReportValidationError(step: step, fields: unsent.filter { $0.spec.placement.step(in: flow) == step })
        }
        self.status = flow.status
        self.jsonObject = JSONObject(uniqueMembers: members)
    }

    /// The member sent for `field` (`nil` when it is not sent); setting it replaces the member
    /// (for example a run's own unique microchip number) or removes it.
    public subscript(field: ReportField) -> JSONValue? {
        get { field.spec.payloadKey.flatMap { jsonObject[$0] } }
        set {
            guard let key = field.spec.payloadKey else { return }
            var updated = jsonObject
            updated[key] = newValue
            jsonObject = JSONObject(uniqueMembers: FieldTable.payloadKeys.compactMap { key in updated[key].map { (key, $0) } })
        }
    }

    /// The payload as a JSON value.
    public var json: JSONValue { .object(jsonObject) }

    /// Decodes a payload strictly through the field table: unknown keys, `null`, a missing
    /// required member, a member of the wrong JSON type and a status other than
    /// `MISSING`/`FOUND`/`CLOSED` are refused with the key named.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json, path: "")
        try reader.rejectUnknownKeys(allowed: FieldTable.payloadKeys)
        status = try reader.status(FieldTable.statusKey)
        for spec in FieldTable.specs {
            guard let key = spec.payloadKey else { continue }
            guard reader.object[key] != nil else {
                if spec.presence == .required { throw WireDecodingError(keyPath: key, reason: "missing") }
                continue
            }
            switch spec.kind {
            case .coordinate: _ = try reader.double(key)
            case .wholeNumber: _ = try reader.optionalInt(key, allowNull: false)
            case .digits, .freeText, .phone, .email, .date, .choice: _ = try reader.string(key)
            case .photo: throw WireDecodingError(keyPath: key, reason: "a photo is uploaded, never a payload member")
            }
        }
        jsonObject = JSONObject(uniqueMembers: FieldTable.payloadKeys.compactMap { key in reader.object[key].map { (key, $0) } })
    }
}

/// Continue would be refused: the first blocking step and its invalid fields.
public struct ReportValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The first step whose Continue is refused.
    public let step: ReportStep
    /// Every field shown invalid on that step, in screen order.
    public let fields: [ReportField]

    /// Creates the error for `step` and its invalid `fields`.
    public init(step: ReportStep, fields: [ReportField]) {
        self.step = step
        self.fields = fields
    }

    /// The step and fields, as a sentence.
    public var description: String {
        "step \(step.name) blocks Continue: invalid \(fields.map(\.name).joined(separator: ", "))"
    }
}
