import Foundation
import PetSpotJSON

/// The body of `POST /api/v1/announcements`: the payload a report submits.
///
/// Built from the flow state at the moment of submission with ``init(flow:form:context:)``,
/// which validates every step first. The payload holds only the keys of report-flows.md;
/// optional values are omitted when absent or blank, never `null`, never an empty string;
/// caregiver phone and current address are never part of it. ``json`` encodes the keys in one
/// fixed order (the order of report-flows.md), so equal payloads serialise to equal bytes.
public struct CreateAnnouncementRequest: Sendable, Hashable {
    /// The species' wire spelling (`DOG`, `CAT`, `BIRD`, `RABBIT`, `OTHER`).
    public var species: String
    /// The sex's wire spelling (`MALE`, `FEMALE`, `UNKNOWN`).
    public var sex: String
    /// `YYYY-MM-DD`.
    public var lastSeenDate: String
    /// Latitude, -90...90: the typed number.
    public var locationLatitude: Double
    /// Longitude, -180...180: the typed number.
    public var locationLongitude: Double
    /// The trimmed email (always present in a payload the app builds).
    public var email: String?
    /// The phone's kept text: its ASCII digits and `+` (always present in a payload the app builds).
    public var phone: String?
    /// Always `.active` (sent as `MISSING`) or `.found` (`FOUND`) when built from a flow.
    public var status: AnnouncementStatus
    /// The microchip digits, when any were typed.
    public var microchipNumber: String?
    /// The trimmed pet name (Missing only), when not blank.
    public var petName: String?
    /// The trimmed breed, when not blank.
    public var breed: String?
    /// The age (Missing only), when given.
    public var age: Int?
    /// The trimmed description (at most 500 characters), when not blank.
    public var description: String?
    /// The trimmed reward (Missing only, at most 120 characters), when not blank.
    public var reward: String?

    /// Every key the payload may carry, in encoding order.
    public static let keys = [
        "species", "sex", "lastSeenDate", "locationLatitude", "locationLongitude", "email", "phone",
        "status", "microchipNumber", "petName", "breed", "age", "description", "reward",
    ]

    /// A payload from explicit values (for tests and decoding).
    public init(
        species: String, sex: String, lastSeenDate: String, locationLatitude: Double,
        locationLongitude: Double, email: String?, phone: String?, status: AnnouncementStatus,
        microchipNumber: String? = nil, petName: String? = nil, breed: String? = nil, age: Int? = nil,
        description: String? = nil, reward: String? = nil
    ) {
        self.species = species
        self.sex = sex
        self.lastSeenDate = lastSeenDate
        self.locationLatitude = locationLatitude
        self.locationLongitude = locationLongitude
        self.email = email
        self.phone = phone
        self.status = status
        self.microchipNumber = microchipNumber
        self.petName = petName
        self.breed = breed
        self.age = age
        self.description = description
        self.reward = reward
    }

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
    /// - Throws: ``ReportValidationError`` naming the first step and field that turn out invalid
    ///   after all (a form that was not validated); never crashes.
    init(validatedFlow flow: ReportFlowKind, form: ReportForm) throws(ReportValidationError) {
        let coordinates = CoordinateRule()
        guard let species = form.species, let sex = form.sex, let date = form.lastSeenDate,
            let latitude = coordinates.validValue(form.latitude, axis: .latitude),
            let longitude = coordinates.validValue(form.longitude, axis: .longitude)
        else {
            let step = flow.steps.first { $0.fields.contains(.latitude) } ?? flow.steps[0]
            let missing = [ReportField.lastSeenDate, .species, .sex, .latitude, .longitude].filter { field in
                switch field {
                case .lastSeenDate: form.lastSeenDate == nil
                case .species: form.species == nil
                case .sex: form.sex == nil
                case .latitude: coordinates.validValue(form.latitude, axis: .latitude) == nil
                default: coordinates.validValue(form.longitude, axis: .longitude) == nil
                }
            }
            throw ReportValidationError(step: step, fields: missing)
        }
        self.species = species.rawValue
        self.sex = sex.rawValue
        self.lastSeenDate = date.isoString
        self.locationLatitude = latitude
        self.locationLongitude = longitude
        self.email = EmailRule().normalized(form.email)
        self.phone = PhoneRule().sanitized(form.phone)
        self.status = flow.status
        self.microchipNumber = form.chipNumber.isEmpty ? nil : form.chipNumber
        self.breed = OptionalText.payloadValue(form.breed)
        self.description = OptionalText.payloadValue(form.description)
        switch flow {
        case .missing:
            self.petName = OptionalText.payloadValue(form.petName)
            self.age = AgeRule().payloadValue(form.age)
            self.reward = OptionalText.payloadValue(form.reward)
        case .found:
            self.petName = nil
            self.age = nil
            self.reward = nil
        }
    }

    /// The JSON object sent: present keys only, in ``keys`` order.
    public var jsonObject: JSONObject {
        var members: [JSONObject.Element] = [
            ("species", .string(species)),
            ("sex", .string(sex)),
            ("lastSeenDate", .string(lastSeenDate)),
            ("locationLatitude", .number(JSONNumber(locationLatitude))),
            ("locationLongitude", .number(JSONNumber(locationLongitude))),
        ]
        members.reserveCapacity(14)
        if let email { members.append(("email", .string(email))) }
        if let phone { members.append(("phone", .string(phone))) }
        members.append(("status", .string(status.wireValue)))
        if let microchipNumber { members.append(("microchipNumber", .string(microchipNumber))) }
        if let petName { members.append(("petName", .string(petName))) }
        if let breed { members.append(("breed", .string(breed))) }
        if let age { members.append(("age", .number(JSONNumber(age)))) }
        if let description { members.append(("description", .string(description))) }
        if let reward { members.append(("reward", .string(reward))) }
        return JSONObject(uniqueMembers: members)
    }

    /// The payload as a JSON value.
    public var json: JSONValue { .object(jsonObject) }

    /// Decodes a payload, strictly: unknown keys, `null`, wrong types and a status other than
    /// `MISSING`/`FOUND`/`CLOSED` are refused with the key named.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json, path: "")
        try reader.rejectUnknownKeys(allowed: Self.keys)
        species = try reader.string("species")
        sex = try reader.string("sex")
        lastSeenDate = try reader.string("lastSeenDate")
        locationLatitude = try reader.double("locationLatitude")
        locationLongitude = try reader.double("locationLongitude")
        email = try reader.optionalString("email", allowNull: false)
        phone = try reader.optionalString("phone", allowNull: false)
        status = try reader.status("status")
        microchipNumber = try reader.optionalString("microchipNumber", allowNull: false)
        petName = try reader.optionalString("petName", allowNull: false)
        breed = try reader.optionalString("breed", allowNull: false)
        age = try reader.optionalInt("age", allowNull: false)
        description = try reader.optionalString("description", allowNull: false)
        reward = try reader.optionalString("reward", allowNull: false)
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
        "step \(step.rawValue) blocks Continue: invalid \(fields.map(\.rawValue).joined(separator: ", "))"
    }
}
