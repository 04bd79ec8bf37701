import Foundation

/// The moment and place a report is made: the user's time zone and the current instant.
public struct ReportContext: Sendable, Hashable {
    /// The user's time zone (the device's).
    public var timeZone: TimeZone
    /// The instant of the check or submission.
    public var now: Date

    /// A context for a user in `timeZone` at the instant `now`.
    public init(timeZone: TimeZone, now: Date) {
        self.timeZone = timeZone
        self.now = now
    }

    /// The calendar date in the user's time zone at `now`.
    public var today: CalendarDate { CalendarDate.today(in: timeZone, now: now) }

    /// The latest date a report may carry now (see ``ReportDateRule``): the user's today, or
    /// yesterday in the hours east of UTC when their today is still tomorrow in UTC.
    public var latestReportDate: CalendarDate { ReportDateRule.latestAllowedDate(now: now, timeZone: timeZone) }
}

/// Everything a user has entered in a report wizard, as the screens hold it.
///
/// Text fields hold what the screen shows after the field's own input filter and length cap
/// (``type(_:into:)`` applies them); validation and trimming happen later, on Continue and at
/// submission. Caregiver phone and current address live here but are never sent.
public struct ReportForm: Sendable, Hashable {
    /// Microchip / collar data, digits only (at most 15).
    public var chipNumber = ""
    /// The attached photo, if any.
    public var photo: PhotoAttachment?
    /// The date picked (Missing: last seen; Found: date found), if any.
    public var lastSeenDate: CalendarDate?
    /// The species picked, if any.
    public var species: Species?
    /// The sex picked, if any.
    public var sex: Sex?
    /// Pet name as typed (Missing only).
    public var petName = ""
    /// Breed as typed.
    public var breed = ""
    /// Age as typed (Missing only).
    public var age = ""
    /// Latitude as typed (or filled by "Use current location").
    public var latitude = ""
    /// Longitude as typed (or filled by "Use current location").
    public var longitude = ""
    /// Description as typed, at most 500 characters.
    public var description = ""
    /// The reporter's phone as typed.
    public var phone = ""
    /// The reporter's email as typed.
    public var email = ""
    /// Reward as typed, at most 120 characters (Missing only).
    public var reward = ""
    /// Caregiver phone as typed (Found only, iOS-only: never sent).
    public var caregiverPhone = ""
    /// Current physical address as typed, at most 500 characters (Found only, iOS-only: never sent).
    public var currentAddress = ""

    /// An empty form: what a fresh start of either wizard shows.
    public init() {}

    /// Replaces a text field's content with `typed`, as the screen would accept it: microchip
    /// keeps ASCII digits (15 at most), description and reward and address stop at their limits,
    /// everything else is kept as typed. Non-text fields (photo, date, species, sex) are ignored:
    /// use their properties.
    public mutating func type(_ typed: String, into field: ReportField) {
        switch field {
        case .chipNumber: chipNumber = MicrochipFormatter().storedDigits(from: typed)
        case .petName: petName = typed
        case .breed: breed = typed
        case .age: age = typed
        case .latitude: latitude = typed
        case .longitude: longitude = typed
        case .description: description = TextLimit.description.capped(typed)
        case .phone: phone = typed
        case .email: email = typed
        case .reward: reward = TextLimit.reward.capped(typed)
        case .caregiverPhone: caregiverPhone = typed
        case .currentAddress: currentAddress = TextLimit.currentAddress.capped(typed)
        case .photo, .lastSeenDate, .species, .sex: break
        }
    }

    /// The text a text field holds; `nil` for photo, date, species and sex.
    public func text(of field: ReportField) -> String? {
        switch field {
        case .chipNumber: chipNumber
        case .petName: petName
        case .breed: breed
        case .age: age
        case .latitude: latitude
        case .longitude: longitude
        case .description: description
        case .phone: phone
        case .email: email
        case .reward: reward
        case .caregiverPhone: caregiverPhone
        case .currentAddress: currentAddress
        case .photo, .lastSeenDate, .species, .sex: nil
        }
    }

    /// Whether `field` currently fails its rule (fields without a rule never do).
    public func isInvalid(_ field: ReportField, context: ReportContext) -> Bool {
        switch field {
        case .photo: !PhotoRule().isValid(photo)
        case .lastSeenDate:
            lastSeenDate.map { !ReportDateRule().isAllowed($0, now: context.now, timeZone: context.timeZone) } ?? true
        case .species: species == nil
        case .sex: sex == nil
        case .age: !AgeRule().isValid(age)
        case .latitude: CoordinateRule().validValue(latitude, axis: .latitude) == nil
        case .longitude: CoordinateRule().validValue(longitude, axis: .longitude) == nil
        case .phone: !PhoneRule().isValid(phone)
        case .email: !EmailRule().isValid(email)
        case .caregiverPhone:
            !Trimming.trim(caregiverPhone).isEmpty && !PhoneRule().isValid(caregiverPhone)
        case .chipNumber, .petName, .breed, .description, .reward, .currentAddress: false
        }
    }

    /// The fields of `step` that block Continue, in screen order; empty when the step is valid.
    public func invalidFields(on step: ReportStep, context: ReportContext) -> [ReportField] {
        let fields = step.fields
        // Most steps are valid: find the first invalid field before allocating a result.
        guard let first = fields.firstIndex(where: { isInvalid($0, context: context) }) else { return [] }
        return [fields[first]] + fields[(first + 1)...].filter { isInvalid($0, context: context) }
    }
}
