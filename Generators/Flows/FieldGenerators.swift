import Foundation
import PetSpotPropertyEngine
import PetSpotModel

/// Generators of raw typed input for each field of the report flows, in both moods.
///
/// Valid generators produce text the field accepts, spelled the many ways people type it
/// (grouping characters in phone numbers, padding, exponents in coordinates). Hostile
/// generators add what breaks naive code: digits that are not ASCII, invisible spaces, emoji
/// and combining marks, right-to-left text, values at and one past every cap and bound, and
/// number spellings that are not numbers (hexadecimal floats, `inf`, `nan`).
public enum FieldGenerators {
    // MARK: Microchip

    /// Microchip text as typed: up to 15 digits, sometimes grouped with hyphens or spaces.
    public static func chipNumber(_ mood: InputMood) -> Gen<String> {
        let digits = Gen.string(from: .asciiDigits, length: 0...15)
        let grouped = digits.map { MicrochipFormatter().displayed($0) }
        let valid = Gen.frequency((3, digits), (2, grouped))
        guard mood == .hostile else { return valid }
        return Gen.frequency(
            (4, valid),
            (1, Gen.string(from: .asciiDigits, length: 16...20)),
            (1, Gen.string(from: .asciiDigits + HostileCharacters.nonASCIIDigits + HostileCharacters.numberPunctuation, length: 1...20)),
            (1, Gen.sprinkled(.asciiDigits, length: 0...18)))
    }

    // MARK: Phone

    /// Phone text as typed: 7 to 11 digits, with a `+`, spaces, hyphens and brackets as people
    /// write them; hostile adds 6 and 12 digits, non-ASCII digits and letters.
    public static func phone(_ mood: InputMood) -> Gen<String> {
        let valid = phoneWithDigits(7...11)
        guard mood == .hostile else { return valid }
        return Gen.frequency(
            (4, valid),
            (1, phoneWithDigits(0...6)),
            (1, phoneWithDigits(12...16)),
            (1, Gen.string(from: HostileCharacters.nonASCIIDigits + .asciiDigits + HostileCharacters.numberPunctuation, length: 0...16)),
            (1, Gen.padded(valid, with: HostileCharacters.invisibles)))
    }

    /// A phone of `digitCount` ASCII digits, formatted with separators people type: an
    /// optional leading `+`, and now and then a space, hyphen, dot or bracket between digits.
    static func phoneWithDigits(_ digitCount: ClosedRange<Int>) -> Gen<String> {
        let count = Gen.int(in: digitCount)
        let separators: [String] = [" ", "-", ".", "(", ")", ") "]
        let separatorBytes = separators.map { Array($0.utf8) }
        return Gen { testCase in
            var text: [UInt8] = try testCase.weighted(0.3) ? [UInt8(ascii: "+")] : []
            let digits = try count.draw(&testCase)
            text.reserveCapacity(digits * 2 + 1)
            for position in 0..<digits {
                if position > 0, try testCase.weighted(0.25) {
                    text += separatorBytes[Int(try testCase.choice(upTo: UInt64(separators.count - 1)))]
                }
                text.append(UInt8(ascii: "0") + UInt8(try testCase.choice(upTo: 9)))
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    // MARK: Email

    /// Email text: addresses matching the app's pattern; hostile adds missing parts, non-ASCII
    /// letters, one-letter top-level domains and addresses of 254 and 255 characters.
    public static func email(_ mood: InputMood) -> Gen<String> {
        let localClass: CharacterClass = .asciiAlphanumerics + "._%+-"
        let labelClass: CharacterClass = .asciiAlphanumerics + "-"
        let local = Gen.string(from: localClass, length: 1...20)
        let domain = Gen.string(from: labelClass, length: 1...12).array(count: 1...3).map { $0.joined(separator: ".") }
        let topLevel = Gen.string(from: .asciiLetters, length: 2...6)
        let valid = PetSpotPropertyEngine.zip(local, domain, topLevel).map { "\($0)@\($1).\($2)" }
        guard mood == .hostile else { return Gen.frequency((5, valid), (1, Gen.padded(valid))) }
        return Gen.frequency(
            (4, valid),
            (1, Gen.padded(valid, with: HostileCharacters.invisibles)),
            (1, lengthEmail(254)),
            (1, lengthEmail(255)),
            (1, PetSpotPropertyEngine.zip(local, domain).map { "\($0)@\($1)" }),
            (1, PetSpotPropertyEngine.zip(local, domain, Gen.string(from: .asciiLetters, length: 1...1)).map { "\($0)@\($1).\($2)" }),
            (1, PetSpotPropertyEngine.zip(Gen.sprinkled(.asciiLetters + HostileCharacters.internationalLetters, length: 1...10), domain, topLevel)
                .map { "\($0)@\($1).\($2)" }),
            (1, Gen.sprinkled(.asciiPrintable, length: 0...30)))
    }

    /// An otherwise valid address of exactly `length` characters.
    static func lengthEmail(_ length: Int) -> Gen<String> {
        Gen.string(from: .asciiLowercase, length: 1...1).map { first in
            let suffix = "@example.com"
            return first + String(repeating: "a", count: length - suffix.count - 1) + suffix
        }
    }

    // MARK: Coordinates

    /// Coordinate text for `axis`: plain decimals in range in several spellings; hostile adds
    /// the bounds, one millionth past them, hexadecimal floats, `inf`/`nan`, commas and
    /// non-ASCII digits.
    public static func coordinate(_ axis: CoordinateRule.Axis, _ mood: InputMood) -> Gen<String> {
        let limit = axis.limit
        let value = Gen.double(in: -limit...limit)
        // Fixed-point spellings from whole millionths, formatted without Foundation.
        let micros = Gen.int(in: -Int(limit) * 1_000_000...Int(limit) * 1_000_000)
        let fixed = PetSpotPropertyEngine.zip(micros, Gen.int(in: 0...6)).map { micros, places in
            fixedPoint(micros, places: places)
        }
        let shortest = value.map { "\($0)" }
        let exponent = Gen.int(in: -Int(limit)...Int(limit)).map { "\(Double($0) / 10)e1" }
        let valid = Gen.frequency((4, fixed), (2, shortest), (1, exponent), (1, Gen.padded(fixed)))
        guard mood == .hostile else { return valid }
        let bounds = Gen<String>.element(of: [
            "\(Int(limit))", "-\(Int(limit))", "\(Int(limit)).000001", "-\(Int(limit)).000001",
            "\(Int(limit)).0", "+\(Int(limit))", "\(Int(limit) + 1)", ".5", "-.5", "5.", "1e1", "1E-3",
        ])
        let notNumbers = Gen<String>.element(of: [
            "0x1p3", "0x10", "inf", "-inf", "nan", "Infinity", "1,5", "52,2297", "", " ", "--5", "1e", "e5", "+-1",
            "١٢.٥", "５２.２", "1e400", "½",
        ])
        return Gen.frequency((5, valid), (1, Gen.padded(fixed, with: HostileCharacters.invisibles)), (2, bounds), (2, notNumbers), (1, Gen.sprinkled(.asciiDigits + ".-e", length: 0...10)))
    }

    /// `micros` millionths written with `places` decimals (truncated), e.g. `52.229700`.
    static func fixedPoint(_ micros: Int, places: Int) -> String {
        let magnitude = micros.magnitude
        let whole = magnitude / 1_000_000
        let sign = micros < 0 ? "-" : ""
        guard places > 0 else { return sign + String(whole) }
        var fraction = String(magnitude % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        return sign + String(whole) + "." + fraction.prefix(places)
    }

    // MARK: Age

    /// Age text (Missing only): empty or 1-40; hostile adds 0, 41, fractions, signs, non-ASCII
    /// digits and leading zeros.
    public static func age(_ mood: InputMood) -> Gen<String?> {
        let valid = Gen.int(in: 1...40).map { "\($0)" }
        let empty = Gen<String>.element(of: ["", " "])
        // Left empty first, so a shrunk report carries no age.
        let validOptional = Gen.frequency((1, .constant(nil)), (1, empty.map(Optional.some)), (3, valid.map(Optional.some)))
        guard mood == .hostile else { return validOptional }
        let hostile = Gen<String>.element(of: ["0", "41", "00", "007", "1.5", "-3", "+3", "3 years", "٣", "３", "1e1", "99999999999999999999"])
        return Gen.frequency((4, validOptional), (2, hostile.map(Optional.some)), (1, Gen.padded(valid, with: HostileCharacters.invisibles).map(Optional.some)))
    }

    // MARK: Free texts

    /// Optional free text with a cap (`nil` for no cap): realistic text, sometimes exactly at
    /// the cap; hostile adds blank text, emoji and combining marks, right-to-left text, HTML,
    /// and lengths at and past the cap.
    public static func freeText(_ mood: InputMood, cap: Int?) -> Gen<String?> {
        let words: CharacterClass = .asciiLetters + " " + HostileCharacters.internationalLetters
        let realistic = Gen.string(from: words, length: 0...24)
        // Valid text includes, now and then, text exactly at the cap: still valid, and where
        // off-by-one bugs live.
        // Left empty first, so a shrunk report carries no text; texts at the cap are drawn from a
        // few choices (a word repeated), so that shrinking drops them in one step.
        var validAlternatives: [(weight: Int, gen: Gen<String?>)] = [(6, .constant(nil)), (24, realistic.map(Optional.some))]
        if let cap { validAlternatives.append((1, BoundaryCatalogue.textOfLength(cap).map(Optional.some))) }
        let valid = Gen.frequency(validAlternatives)
        guard mood == .hostile else { return valid }
        var alternatives: [(weight: Int, gen: Gen<String?>)] = [
            (4, valid),
            (2, Gen.sprinkled(words, length: 0...30).map(Optional.some)),
            (1, Gen.string(from: HostileCharacters.invisibles + " ", length: 1...5).map(Optional.some)),
            (1, Gen<String>.element(of: ["<b>Rex</b>", "<script>alert(1)</script>", "a > b", "x < y", "&amp;"]).map(Optional.some)),
        ]
        if let cap {
            alternatives.append((1, BoundaryCatalogue.textOfLength(cap).map(Optional.some)))
            alternatives.append((1, BoundaryCatalogue.textOfLength(cap + 1).map(Optional.some)))
            alternatives.append((1, Gen.exactly(cap + 1, from: HostileCharacters.emoji).map(Optional.some)))
            alternatives.append((1, Gen.string(from: .asciiLowercase, length: (cap - 2)...cap).map { "  " + $0 + "  " }.map(Optional.some)))
        }
        return Gen.frequency(alternatives)
    }

    // MARK: Photo

    /// The smallest complete PNG file (a 1×1 image), in bytes: valid photos are at least this
    /// big, so that their contents can be a real image (see ``PhotoContents``).
    public static let smallestImageBytes = 67

    /// A photo attachment (metadata only; see ``PhotoContents``): PNG or JPEG from the smallest
    /// real image to 10 MB; hostile adds none, empty files, 10 MB + 1 and 20 MB, other types
    /// and odd spellings of the MIME type.
    ///
    /// A declared PNG or JPEG is never smaller than a real image: the app checks the declared
    /// type and size only (report-flows.md), while the backend reads the file's magic bytes, so
    /// "a 2-byte PNG" would be a file the photo picker cannot produce, not a report the app
    /// gets wrong.
    public static func photo(_ mood: InputMood) -> Gen<PhotoAttachment?> {
        let maxBytes = PhotoRule().maxBytes
        let size = Gen.frequency(
            (6, Gen.int(in: smallestImageBytes...4096)),
            (2, Gen.int(in: smallestImageBytes...maxBytes)),
            (1, Gen<Int>.element(of: [smallestImageBytes, maxBytes - 1, maxBytes])))
        let validType = Gen<String>.element(of: ["image/jpeg", "image/png", "IMAGE/PNG", "image/JPEG"])
        let valid = PetSpotPropertyEngine.zip(validType, size).map { type, size in
            PhotoAttachment(fileName: type.lowercased().hasSuffix("png") ? "pet.png" : "pet.jpg", mimeType: type, byteCount: size)
        }
        guard mood == .hostile else { return valid.map(Optional.some) }
        let badSize = Gen<Int>.element(of: [0, maxBytes + 1, 20 * 1024 * 1024])
        let anyType = Gen<String>.element(of: [
            "image/jpeg", "image/png", "image/gif", "image/heic", "image/webp", "application/pdf", "", "image/jpg", "image/png ",
        ])
        return Gen.frequency(
            (5, valid.map(Optional.some)),
            (1, .constant(nil)),
            (1, PetSpotPropertyEngine.zip(validType, badSize).map { PhotoAttachment(fileName: "pet", mimeType: $0, byteCount: $1) }),
            (1, PetSpotPropertyEngine.zip(anyType, size).map { PhotoAttachment(fileName: "pet", mimeType: $0, byteCount: $1) }))
    }

    // MARK: Picked values

    /// One of `options`, picked; hostile leaves it unpicked sometimes.
    public static func choice(_ options: [String], _ mood: InputMood) -> Gen<String?> {
        let picked = Gen<String>.element(of: options).map(Optional.some)
        return mood == .valid ? picked : Gen.frequency((6, picked), (1, .constant(nil)))
    }

    /// The date picked, relative to `today`, the latest date allowed (the user's today, or the
    /// day before east of UTC after local midnight): that day or earlier (often that day or
    /// the one before); hostile adds the days after it, far futures and no date.
    public static func date(_ mood: InputMood, today: CalendarDate) -> Gen<CalendarDate?> {
        daysAfterToday(mood).map { $0.map(today.adding(days:)) }
    }

    /// The picked date as days after the user's today (0 today, negative in the past); `nil`
    /// when none is picked. Drawing offsets rather than dates lets one generator serve every
    /// context.
    public static func daysAfterToday(_ mood: InputMood) -> Gen<Int?> {
        let past = Gen.frequency(
            (3, Gen<Int>.element(of: [0, 1])),
            (2, Gen.int(in: 0...30)),
            (1, Gen.int(in: 0...3650)))
            .map { -$0 }
        guard mood == .hostile else { return past.map(Optional.some) }
        let future = Gen<Int>.element(of: [1, 2, 365])
        return Gen.frequency((5, past.map(Optional.some)), (2, future.map(Optional.some)), (1, .constant(nil)))
    }

    // MARK: Any field, from its row of the field table

    /// Raw input for the field `spec` describes, in `mood`: the generator of its kind, with the
    /// rule values of its row (caps, digit counts, ranges). Optional fields are left empty now
    /// and then. This is the only place that maps a kind of field to its generator (the values
    /// at its rule's edges are ``BoundaryCatalogue``'s): a new row of an existing kind needs
    /// nothing here.
    public static func input(_ spec: FieldSpec, _ mood: InputMood) -> Gen<FieldInput> {
        func typed(_ gen: Gen<String?>) -> Gen<FieldInput> {
            let draw = gen.draw
            return Gen { testCase in .value(try draw(&testCase).map(FieldValue.text)) }
        }
        func typedSometimesEmpty(_ gen: Gen<String>) -> Gen<FieldInput> {
            let draw = gen.draw, optional = spec.presence == .optional
            // Left empty first (a choice of 0), so a shrunk report carries no optional value.
            return Gen { testCase in
                if optional, try !testCase.weighted(0.7) { return .value(nil) }
                return .value(.text(try draw(&testCase)))
            }
        }
        switch spec.kind {
        case .digits: return typedSometimesEmpty(chipNumber(mood))
        case .phone: return typedSometimesEmpty(phone(mood))
        case .email: return typedSometimesEmpty(email(mood))
        case .coordinate(let axis): return typedSometimesEmpty(coordinate(axis, mood))
        case .wholeNumber: return typed(age(mood))
        case .freeText(let limit): return typed(freeText(mood, cap: limit?.maxCharacters))
        case .photo: return photo(mood).map { .value($0.map(FieldValue.photo)) }
        case .choice(let options): return choice(options, mood).map { .value($0.map(FieldValue.choice)) }
        case .date: return daysAfterToday(mood).map(FieldInput.date(daysAfterToday:))
        }
    }
}

/// One field's raw input as drawn: a value, or a date relative to the latest date the user may
/// pick, resolved once the case's clock is known.
public enum FieldInput: Sendable, Hashable {
    /// A value (`nil`: left empty).
    case value(FieldValue?)
    /// A date this many days after the latest allowed date (`nil`: none picked).
    case date(daysAfterToday: Int?)

    /// The value, with a relative date resolved against `today`.
    public func resolved(today: CalendarDate) -> FieldValue? {
        switch self {
        case .value(let value): value
        case .date(let days): days.map { .date(today.adding(days: $0)) }
        }
    }
}
