// The example adapter's own implementation of report-flows.md: written from the document, as an
// app team writes its flow code, not from the reference model's rule code. Every planted defect
// (Defects.swift) is a switch read here, at the place an app would get that rule wrong.
import Foundation
import PetSpotJSON

/// A question of the adapter protocol, decoded.
struct Question {
    let id: Int
    let flow: String
    let timeZone: TimeZone
    let now: Date
    let inputs: JSONObject
}

/// What the app does with a report: blocked at a step with invalid fields, submitted, or
/// unavailable when the build has no such flow.
enum AppAnswer {
    case submitted(JSONObject)
    case blocked(step: String, fields: [String])
    case unavailable
}

/// A build of the app as it shipped (sut-protocol.md, "Older builds also differ ..."): which flows
/// it offers and what its mapper sends, its defects included.
enum AppRelease: String, CaseIterable {
    /// The first builds (early December 2025), before the pet name field.
    case firstBuilds = "1.0"
    /// After the pet name field, before "status by flow".
    case beforeStatusByFlow = "1.4"
    /// Today's build.
    case current = "2.0"

    /// Whether the Found flow exists (the first builds hid its button).
    var hasFoundFlow: Bool { self != .firstBuilds }

    /// Whether the payload carries petName, breed and age (the first builds had no pet name field
    /// and never sent breed or age, although their screens asked for them and validated the age).
    var sendsNameBreedAndAge: Bool { self != .firstBuilds }

    /// Whether a report with both coordinates left empty passes and sends 0.0 and 0.0.
    var sendsZeroForEmptyLocation: Bool { self == .firstBuilds }

    /// Whether the status follows the flow; before, the mapper sent `MISSING` for both flows.
    var sendsStatusByFlow: Bool { self == .current }

    /// The highest protocol version the build's adapter speaks.
    var protocolVersion: Int { self == .firstBuilds ? 1 : 2 }
}

/// The report flows of `release` as an app would code them, with the defects of `defects` planted.
struct FlowApp {
    let defects: Set<String>
    let release: AppRelease

    func has(_ defect: String) -> Bool { defects.contains(defect) }

    static let tenMegabytes = 10 * 1024 * 1024
    static let species = ["DOG", "CAT", "BIRD", "RABBIT", "OTHER"]
    static let sexes = ["MALE", "FEMALE", "UNKNOWN"]
    static let zeroWidth: Set<UInt32> = [0x200B, 0x200C, 0x200D, 0x2060]
    static let gregorian = Calendar(identifier: .gregorian)

    // MARK: Text basics

    /// Removes Unicode White_Space and U+FEFF from both ends; `wide` also removes zero-width
    /// characters (a defect: the document's trimming keeps them).
    func trim(_ text: String, wide: Bool = false) -> String {
        let scalars = Array(text.unicodeScalars)
        func removed(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isWhitespace || scalar == "\u{FEFF}" || (wide && Self.zeroWidth.contains(scalar.value))
        }
        var start = 0, end = scalars.count
        while start < end && removed(scalars[start]) { start += 1 }
        while end > start && removed(scalars[end - 1]) { end -= 1 }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<end])
        return String(view)
    }

    /// Whether the character is, as a whole, one ASCII digit.
    static func isASCIIDigit(_ character: Character) -> Bool {
        character.unicodeScalars.count == 1 && (0x30...0x39).contains(character.unicodeScalars.first!.value)
    }

    /// Whether the character is any single decimal digit (a defect where ASCII is meant).
    static func isAnyDigit(_ character: Character) -> Bool {
        character.unicodeScalars.count == 1 && character.unicodeScalars.first!.properties.numericType == .decimal
    }

    func text(_ question: Question, _ key: String) -> String? { question.inputs[key]?.stringValue }

    // MARK: Microchip

    func chipDigits(_ typed: String) -> String {
        let limit = has("chip-keeps-16") ? 16 : has("chip-keeps-14") ? 14 : 15
        var kept = ""
        var count = 0
        if has("chip-scalar-filter") {
            for scalar in typed.unicodeScalars where count < limit && (0x30...0x39).contains(scalar.value) {
                kept.unicodeScalars.append(scalar)
                count += 1
            }
            return kept
        }
        for character in typed where count < limit {
            if Self.isASCIIDigit(character) || (has("chip-unicode-digits") && Self.isAnyDigit(character))
                || (has("chip-any-number") && character.isNumber)
            {
                kept.append(character)
                count += 1
            }
        }
        return kept
    }

    // MARK: Phone

    /// The characters of a phone kept by its filter: digits and `+`.
    func phoneKept(_ typed: String, caregiver: Bool) -> String {
        let mine = !caregiver
        var text = typed
        if mine && has("phone-nfkc") { text = text.precomposedStringWithCompatibilityMapping }
        if mine && has("phone-scalar-filter") {
            var kept = ""
            for scalar in text.unicodeScalars where (0x30...0x39).contains(scalar.value) || scalar == "+" { kept.unicodeScalars.append(scalar) }
            return kept
        }
        return String(text.filter { $0 == "+" || Self.isASCIIDigit($0) || (mine && has("phone-unicode-digits") && Self.isAnyDigit($0)) })
    }

    func phoneValid(_ typed: String, caregiver: Bool) -> Bool {
        let digits = phoneKept(typed, caregiver: caregiver).filter { $0 != "+" }.count
        var low = 7, high = 11
        if !caregiver {
            if has("phone-min-6") { low = 6 }
            if has("phone-min-8") { low = 8 }
            if has("phone-max-12") { high = 12 }
            if has("phone-max-10") { high = 10 }
        } else if has("caregiver-max-12") {
            high = 12
        }
        return (low...high).contains(digits)
    }

    // MARK: Email

    func emailValid(_ typed: String) -> Bool {
        let trimmed = trim(typed, wide: has("email-wide-trim"))
        let limit = has("email-max-255") ? 255 : has("email-max-253") ? 253 : 254
        guard (has("email-length-before-trim") ? typed : trimmed).count <= limit else { return false }
        let candidate = has("email-case-folding") ? trimmed.lowercased().uppercased() : trimmed
        return matchesAddressPattern(candidate)
    }

    /// `^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$`, one Character at a time.
    func matchesAddressPattern(_ address: String) -> Bool {
        let loose = has("email-unicode-letters")
        func letter(_ c: Character) -> Bool {
            (c.isASCII && c.isLetter && c.unicodeScalars.count == 1) || (loose && c.isLetter)
        }
        func alphanumeric(_ c: Character) -> Bool { letter(c) || Self.isASCIIDigit(c) || (loose && c.isNumber) }
        let characters = Array(address)
        guard let at = characters.firstIndex(of: "@") else { return false }
        let local = characters[..<at], domain = characters[(at + 1)...]
        guard !local.isEmpty, local.allSatisfy({ alphanumeric($0) || "._%+-".contains($0) }) else { return false }
        guard domain.allSatisfy({ alphanumeric($0) || $0 == "." || $0 == "-" }), let dot = domain.lastIndex(of: ".") else { return false }
        let topLevel = domain[(dot + 1)...]
        return dot > domain.startIndex && topLevel.count >= (has("email-tld-1") ? 1 : 2) && topLevel.allSatisfy(letter)
    }

    func emailSent(_ typed: String) -> String {
        has("untrimmed-email") ? typed : trim(typed, wide: has("email-wide-trim"))
    }

    // MARK: Coordinates

    func coordinate(_ typed: String, latitude: Bool) -> Double? {
        var text = !latitude && has("longitude-untrimmed") ? typed : trim(typed)
        if latitude && has("latitude-nfkc") { text = text.precomposedStringWithCompatibilityMapping }
        if !latitude && has("longitude-comma") { text = text.replacingOccurrences(of: ",", with: ".") }
        guard Self.isPlainDecimal(text) || (latitude && has("latitude-any-double")), let value = Double(text), value.isFinite else { return nil }
        let bound: Double = latitude ? 90 : (has("longitude-limit-90") ? 90 : 180)
        let checked = latitude && has("latitude-rounded") ? (value * 100_000).rounded() / 100_000 : value
        if latitude && has("latitude-exclusive") { return abs(checked) < bound ? value : nil }
        return abs(checked) <= bound ? value : nil
    }

    /// Optional sign, digits with an optional fraction (or a fraction alone), optional exponent.
    static func isPlainDecimal(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var i = 0
        func digits() -> Int {
            let start = i
            while i < bytes.count && (0x30...0x39).contains(bytes[i]) { i += 1 }
            return i - start
        }
        if i < bytes.count && (bytes[i] == 0x2B || bytes[i] == 0x2D) { i += 1 }
        var mantissa = digits()
        if i < bytes.count && bytes[i] == 0x2E {
            i += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if i < bytes.count && (bytes[i] == 0x65 || bytes[i] == 0x45) {
            i += 1
            if i < bytes.count && (bytes[i] == 0x2B || bytes[i] == 0x2D) { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == bytes.count
    }

    // MARK: Age

    /// Whether the age is acceptable, and its value when one is given.
    func age(_ typed: String) -> (valid: Bool, value: Int?) {
        let text = has("age-untrimmed-blank") ? typed : trim(typed, wide: has("age-wide-trim"))
        if text.isEmpty { return (true, nil) }
        var value = 0
        for character in text {
            let digit: Int?
            if Self.isASCIIDigit(character) {
                digit = character.wholeNumberValue
            } else if has("age-unicode-digits") && Self.isAnyDigit(character) {
                digit = character.wholeNumberValue
            } else {
                digit = nil
            }
            guard let digit else { return (false, nil) }
            value = min(value * 10 + digit, 1_000)
        }
        let low = has("age-min-0") ? 0 : 1
        let high = has("age-max-41") ? 41 : has("age-max-39") ? 39 : 40
        return (low...high).contains(value) ? (true, value) : (false, nil)
    }

    // MARK: Free texts

    func capped(_ text: String, cap: Int, scalars: Bool = false, utf16: Bool = false) -> String {
        if scalars {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: text.unicodeScalars.prefix(cap))
            return String(view)
        }
        if utf16 { return String(decoding: Array(text.utf16.prefix(cap)), as: UTF16.self) }
        return String(text.prefix(cap))
    }

    /// The value sent for an optional text field, `nil` when nothing is sent.
    func optionalText(_ typed: String?, field: String) -> String? {
        guard let typed else { return nil }
        var shown = typed
        switch field {
        case "description":
            if has("description-trim-before-cap") { shown = trim(shown) }
            shown = capped(shown, cap: has("description-cap-501") ? 501 : 500, scalars: has("description-cap-scalars"))
        case "reward":
            shown = capped(shown, cap: has("reward-cap-119") ? 119 : 120, utf16: has("reward-cap-utf16"))
        default:
            break
        }
        let trimmed = trim(shown, wide: field == "breed" && has("breed-wide-trim"))
        if trimmed.isEmpty {
            return field == "breed" && has("breed-blank-sent") && !shown.isEmpty ? shown : nil
        }
        if field == "petName" && has("petname-untrimmed") { return shown }
        return trimmed
    }

    // MARK: Photo and date

    func photoValid(_ photo: JSONObject?) -> Bool {
        guard let photo, let type = photo["mimeType"]?.stringValue, let size = photo["byteCount"]?.numberValue?.intValue else { return false }
        let typeOK: Bool
        if has("photo-any-image") {
            typeOK = type.lowercased().hasPrefix("image/")
        } else if has("photo-type-case-sensitive") {
            typeOK = type == "image/png" || type == "image/jpeg"
        } else {
            typeOK = ["image/png", "image/jpeg"].contains(type.lowercased())
        }
        let low = has("photo-empty-accepted") ? 0 : 1
        let high = has("photo-cap-plus-one") ? Self.tenMegabytes + 1 : has("photo-cap-exclusive") ? Self.tenMegabytes - 1 : Self.tenMegabytes
        return typeOK && (low...high).contains(size)
    }

    static func day(_ instant: Date, in zone: TimeZone) -> String {
        let parts = gregorian.dateComponents(in: zone, from: instant)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    func dateValid(_ picked: String?, _ question: Question) -> Bool {
        guard let picked, picked.utf8.count == 10 else { return false }
        let local = Self.day(question.now, in: question.timeZone)
        let utc = Self.day(question.now, in: TimeZone(identifier: "UTC")!)
        let latest = has("date-local-today") ? local : has("date-utc-today") ? utc : min(local, utc)
        return has("date-before-today") ? picked < latest : picked <= latest
    }

    // MARK: The flow

    func answer(_ question: Question) -> AppAnswer {
        let missing = question.flow == "missing"
        if !missing && !release.hasFoundFlow { return .unavailable }
        let inputs = question.inputs
        var invalid: [String: [String]] = [:]
        func refuse(_ step: String, _ field: String) { invalid[step, default: []].append(field) }

        let photoStep = "photo"
        let detailsStep = missing ? "description" : "petDetails"
        let contactStep = missing ? "contactDetails" : "contactInfo"

        if !photoValid(inputs["photo"]?.objectValue) { refuse(photoStep, "photo") }
        let date = text(question, "lastSeenDate")
        if !dateValid(date, question) { refuse(detailsStep, "lastSeenDate") }
        let species = text(question, "species"), sex = text(question, "sex")
        if !(species.map(Self.species.contains) ?? has("species-optional")) { refuse(detailsStep, "species") }
        if !(sex.map(Self.sexes.contains) ?? has("sex-optional")) { refuse(detailsStep, "sex") }
        var ageValue: Int?
        if missing, let typed = text(question, "age") {
            let result = age(typed)
            if result.valid { ageValue = result.value } else { refuse(detailsStep, "age") }
        }
        let typedLatitude = text(question, "latitude") ?? "", typedLongitude = text(question, "longitude") ?? ""
        let latitude: Double?, longitude: Double?
        if release.sendsZeroForEmptyLocation && trim(typedLatitude).isEmpty && trim(typedLongitude).isEmpty {
            (latitude, longitude) = (0, 0)
        } else {
            latitude = coordinate(typedLatitude, latitude: true)
            longitude = coordinate(typedLongitude, latitude: false)
        }
        if latitude == nil { refuse(detailsStep, "latitude") }
        if longitude == nil { refuse(detailsStep, "longitude") }

        let phone = text(question, "phone") ?? ""
        if !phoneValid(phone, caregiver: false) && !(has("phone-optional") && phone.isEmpty) { refuse(contactStep, "phone") }
        let email = text(question, "email") ?? ""
        if !emailValid(email) && !(has("email-optional") && email.isEmpty) { refuse(contactStep, "email") }
        if !missing, let caregiver = text(question, "caregiverPhone"), !has("caregiver-unchecked") {
            let checked = has("caregiver-untrimmed") ? caregiver : trim(caregiver, wide: has("caregiver-wide-trim"))
            if !checked.isEmpty && !phoneValid(caregiver, caregiver: true) { refuse(contactStep, "caregiverPhone") }
        }

        let steps = missing ? ["chipNumber", photoStep, detailsStep, contactStep] : [photoStep, detailsStep, contactStep]
        for step in steps {
            if let fields = invalid[step] { return .blocked(step: step, fields: fields) }
        }

        var payload: [(String, JSONValue)] = []
        if let species { payload.append(("species", .string(species))) }
        if let sex { payload.append(("sex", .string(sex))) }
        if let date { payload.append(("lastSeenDate", .string(date))) }
        if let latitude { payload.append(("locationLatitude", .number(JSONNumber(latitude)))) }
        if let longitude { payload.append(("locationLongitude", .number(JSONNumber(longitude)))) }
        if !email.isEmpty && !has("drop-email") { payload.append(("email", .string(emailSent(email)))) }
        let phoneSent = phoneKept(phone, caregiver: false)
        if !phoneSent.isEmpty { payload.append(("phone", .string(phoneSent))) }
        let status = missing || !release.sendsStatusByFlow ? "MISSING" : "FOUND"
        payload.append(("status", .string(has("status-lowercase") ? status.lowercased() : status)))
        if let chip = text(question, "chipNumber") {
            let digits = chipDigits(chip)
            if !digits.isEmpty || has("chip-blank-sent") { payload.append(("microchipNumber", .string(digits))) }
        }
        if release.sendsNameBreedAndAge {
            if missing, let name = optionalText(text(question, "petName"), field: "petName") { payload.append(("petName", .string(name))) }
            if let breed = optionalText(text(question, "breed"), field: "breed") {
                payload.append(("breed", .string(breed)))
            } else if has("empty-breed") {
                payload.append(("breed", .string("")))
            }
            if missing, let ageValue { payload.append(("age", .number(JSONNumber(ageValue)))) }
        }
        if let description = optionalText(text(question, "description"), field: "description") {
            payload.append(("description", .string(description)))
        }
        if missing, let reward = optionalText(text(question, "reward"), field: "reward") { payload.append(("reward", .string(reward))) }
        if !missing, has("leak-caregiver-phone"), let caregiver = text(question, "caregiverPhone") {
            payload.append(("caregiverPhone", .string(caregiver)))
        }
        if !missing, has("leak-current-address"), let address = text(question, "currentAddress") {
            payload.append(("currentAddress", .string(capped(address, cap: 500))))
        }
        return .submitted(JSONObject(payload))
    }
}
