import Foundation
import PetSpotModel
import PetSpotPropertyEngine

/// The kinds of value at a rule's edge that the boundary catalogue plants.
///
/// Count and length limits get the three values around them; character classes get a member,
/// look-alikes that are not members, and the empty, whitespace-only and invisible-only texts;
/// the date gets the latest allowed date and the day after, around midnight.
public enum BoundaryClass: String, Sendable, CaseIterable, Hashable, Comparable {
    /// One below a limit (a count or length; for a range, one past its lower end).
    case belowLimit = "limit - 1"
    /// Exactly at a limit.
    case atLimit = "limit"
    /// One past a limit.
    case aboveLimit = "limit + 1"
    /// A millionth past a numeric bound.
    case justPastLimit = "just past the limit"
    /// A member of the rule's character class, spelled as people type it.
    case member = "member"
    /// A character that looks like a member and is not one as a whole Swift `Character`.
    case lookAlike = "look-alike"
    /// Text that is not a number as the rule reads numbers.
    case notANumber = "not a number"
    /// Typed but empty.
    case empty = "empty"
    /// Only characters that trimming removes.
    case whitespaceOnly = "whitespace-only"
    /// Only invisible characters that trimming keeps (zero-width space, joiners).
    case invisibleOnly = "invisible-only"
    /// A valid value with spaces or invisible characters around it.
    case padded = "padded"
    /// Characters of several Unicode scalars (emoji families, combining marks).
    case multiScalar = "multi-scalar characters"
    /// A type or option outside the accepted set.
    case nonMember = "not a member"
    /// The latest date the rule allows, at a clock near midnight.
    case latestDate = "latest allowed date"
    /// The day after the latest allowed date, at a clock near midnight.
    case dayAfterLatest = "day after the latest allowed date"

    public static func < (lhs: BoundaryClass, rhs: BoundaryClass) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// One entry of the boundary catalogue: a field, the rule it tests, its class, and what exactly
/// is planted. Its ``label`` is a coverage requirement of `check`.
public struct Boundary: Sendable, Hashable, Comparable {
    /// Position in ``BoundaryCatalogue/entries``.
    public let index: Int
    /// The field the value is typed or picked into.
    public let field: ReportField
    /// The rule, with the values read from the field table (`at most 15 digits kept`).
    public let rule: String
    /// The kind of edge.
    public let boundaryClass: BoundaryClass
    /// What is planted (`16 digits`, `U+212A KELVIN SIGN in the address`).
    public let detail: String

    /// `field: detail`, unique in the catalogue: the coverage label.
    public var label: String { "\(field.name): \(detail)" }

    public static func < (lhs: Boundary, rhs: Boundary) -> Bool { lhs.index < rhs.index }
}

/// Every boundary value `check` must reach, derived from the rules of the field table.
///
/// Every limit is read from the rule values of ``FieldTable/specs`` (``MicrochipFormatter/maxDigits``,
/// ``PhoneRule/digitCount``, ``EmailRule/maxLength``, ``CoordinateRule/Axis/limit``,
/// ``AgeRule/range``, ``TextLimit/maxCharacters``, ``PhotoRule/maxBytes``): a new field of an
/// existing kind, or a changed limit, changes the catalogue with no edit here. For each count or
/// length limit the catalogue holds limit - 1, limit and limit + 1; for each character class a
/// member, look-alikes (``LookAlikes``), the empty, whitespace-only and invisible-only texts; caps
/// on text are counted in Swift `Character`s and get multi-scalar characters at the cap; photos
/// get 0 and 1 bytes, the cap and the cap + 1; the date gets the latest allowed date and the day
/// after at clocks around midnight in the user's zone and in UTC, in UTC+14 and in UTC-12
/// (``FlowGenerators/boundaryContexts``).
///
/// An entry *hits* when a case carries its value and the reference model reaches the field's step
/// (no earlier step blocks): only then has the field's rule seen the value.
public enum BoundaryCatalogue {
    /// Every entry, in field-table order.
    public static var entries: [Boundary] { planted.map(\.boundary) }

    /// The entries of `field`.
    public static func entries(of field: ReportField) -> [Boundary] { byField[field.rawValue].map(\.boundary) }

    /// An entry with the generator of its value.
    struct Planted: Sendable {
        let boundary: Boundary
        /// The value typed or picked (dates relative to the latest allowed date).
        let value: Gen<FieldInput>
        /// The boundary context (an index of ``FlowGenerators/boundaryContexts``) the value needs.
        let context: Int?
    }

    static let planted: [Planted] = {
        var list: [Planted] = []
        for spec in FieldTable.specs {
            for draft in drafts(for: spec) {
                list.append(Planted(
                    boundary: Boundary(
                        index: list.count, field: spec.field, rule: draft.rule, boundaryClass: draft.boundaryClass, detail: draft.detail),
                    value: draft.value, context: draft.context))
            }
        }
        precondition(Set(list.map(\.boundary.label)).count == list.count, "boundary labels must be unique")
        return list
    }()

    /// The entries of each field, indexed by the field's raw value.
    static let byField: [[Planted]] = ReportField.allCases.map { field in planted.filter { $0.boundary.field == field } }

    struct Draft {
        let rule: String
        let boundaryClass: BoundaryClass
        let detail: String
        let value: Gen<FieldInput>
        var context: Int? = nil
    }

    static func drafts(for spec: FieldSpec) -> [Draft] {
        switch spec.kind {
        case .digits(let formatter): return digitsDrafts(formatter)
        case .phone(let rule): return phoneDrafts(rule)
        case .email(let rule): return emailDrafts(rule)
        case .coordinate(let axis): return coordinateDrafts(axis)
        case .wholeNumber(let rule): return wholeNumberDrafts(rule)
        case .freeText(let limit): return freeTextDrafts(limit)
        case .photo(let rule): return photoDrafts(rule)
        case .date: return dateDrafts()
        case .choice(let options): return choiceDrafts(options)
        }
    }

    // MARK: Text helpers

    static func text(_ gen: Gen<String>) -> Gen<FieldInput> { gen.map { .value(.text($0)) } }

    /// The empty, whitespace-only and invisible-only texts.
    static func blankDrafts(_ rule: String) -> [Draft] {
        [
            Draft(rule: rule, boundaryClass: .empty, detail: "empty text", value: .constant(.value(.text("")))),
            Draft(rule: rule, boundaryClass: .whitespaceOnly, detail: "whitespace only",
                  value: text(Gen.string(from: LookAlikes.trimmedSpaces, length: 1...3))),
            Draft(rule: rule, boundaryClass: .invisibleOnly, detail: "invisible characters only",
                  value: text(Gen.string(from: LookAlikes.invisibles, length: 1...2))),
        ]
    }

    /// `base` with one look-alike from `samples` inserted at a drawn position.
    static func inserting(_ samples: [String], into base: Gen<String>) -> Gen<String> {
        let sample = Gen<String>.element(of: samples)
        return Gen { testCase in
            let text = Array(try base.draw(&testCase))
            let position = Int(try testCase.choice(upTo: UInt64(text.count)))
            let inserted = try sample.draw(&testCase)
            return String(text[..<position]) + inserted + String(text[position...])
        }
    }

    static func digits(_ count: Int) -> Gen<String> {
        Gen.string(from: .asciiDigits, length: count...count)
    }

    // MARK: Microchip

    static func digitsDrafts(_ formatter: MicrochipFormatter) -> [Draft] {
        let limit = formatter.maxDigits
        let rule = "ASCII digits only, at most \(limit) kept"
        var drafts = [
            Draft(rule: rule, boundaryClass: .member, detail: "digits grouped as displayed",
                  value: text(digits(limit).map { formatter.displayed($0) })),
        ]
        for (count, boundaryClass) in [(limit - 1, BoundaryClass.belowLimit), (limit, .atLimit), (limit + 1, .aboveLimit)] {
            let plain = digits(count)
            let grouped = plain.map { formatter.displayed($0) }
            drafts.append(Draft(rule: rule, boundaryClass: boundaryClass, detail: "\(count) digits", value: text(.oneOf(plain, grouped))))
        }
        // Look-alikes among limit - 1 ASCII digits: kept by mistake, they make the count visible.
        for lookAlike in LookAlikes.digits {
            drafts.append(Draft(
                rule: rule, boundaryClass: .lookAlike, detail: "\(lookAlike.name) among \(limit - 1) digits",
                value: text(inserting(lookAlike.samples, into: digits(limit - 1)))))
        }
        return drafts + blankDrafts(rule)
    }

    // MARK: Phone

    static func phoneDrafts(_ rule: PhoneRule) -> [Draft] {
        let ruleText = "keeps 0-9 and +, \(rule.minDigits) to \(rule.maxDigits) ASCII digits"
        let phone = { (count: Int) in FieldGenerators.phoneWithDigits(count...count) }
        var drafts = [
            Draft(rule: ruleText, boundaryClass: .member, detail: "digits with + and separators",
                  value: text(FieldGenerators.phoneWithDigits(rule.digitCount).map { $0.hasPrefix("+") ? $0 : "+" + $0 })),
        ]
        var edges: [(Int, BoundaryClass, String)] = []
        for (limit, side) in [(rule.minDigits, "fewest"), (rule.maxDigits, "most")] {
            let steps: [(Int, BoundaryClass)] = side == "fewest"
                ? [(limit - 1, .belowLimit), (limit, .atLimit), (limit + 1, .aboveLimit)]
                : [(limit - 1, .belowLimit), (limit, .atLimit), (limit + 1, .aboveLimit)]
            for (count, boundaryClass) in steps where !edges.contains(where: { $0.0 == count }) {
                edges.append((count, boundaryClass, "\(count) digits (\(side) allowed: \(limit))"))
            }
        }
        for (count, boundaryClass, detail) in edges {
            drafts.append(Draft(rule: ruleText, boundaryClass: boundaryClass, detail: detail, value: text(phone(count))))
        }
        // A look-alike digit among the fewest digits minus one (an app counting it accepts a
        // phone the rule refuses) or among the most digits (an app counting it refuses one the
        // rule accepts; one keeping it sends it).
        for lookAlike in LookAlikes.digits {
            let base = Gen.oneOf(phone(rule.minDigits - 1), phone(rule.maxDigits))
            drafts.append(Draft(
                rule: ruleText, boundaryClass: .lookAlike, detail: "\(lookAlike.name) among the digits",
                value: text(inserting(lookAlike.samples, into: base))))
        }
        drafts.append(Draft(
            rule: ruleText, boundaryClass: .lookAlike, detail: "a fullwidth plus sign",
            value: text(phone(rule.minDigits).map { "\u{FF0B}" + $0 })))
        drafts.append(Draft(
            rule: ruleText, boundaryClass: .nonMember, detail: "no digits at all",
            value: text(Gen<String>.element(of: ["n/a", "none", "-", "+"]))))
        return drafts + blankDrafts(ruleText)
    }

    // MARK: Email

    static func emailDrafts(_ rule: EmailRule) -> [Draft] {
        let ruleText = "ASCII address pattern, at most \(rule.maxLength) characters"
        let valid = FieldGenerators.email(.valid)
        var drafts = [
            Draft(rule: ruleText, boundaryClass: .member, detail: "letters of both cases, digits and ._%+-",
                  value: text(PetSpotPropertyEngine.zip(
                    Gen.string(from: .asciiUppercase, length: 1...3), Gen.string(from: .asciiLowercase + "._%+-", length: 1...6)
                  ).map { "\($0)\($1)x@Example-Mail.ORG" })),
        ]
        for (length, boundaryClass) in [(rule.maxLength - 1, BoundaryClass.belowLimit), (rule.maxLength, .atLimit), (rule.maxLength + 1, .aboveLimit)] {
            drafts.append(Draft(
                rule: ruleText, boundaryClass: boundaryClass, detail: "\(length) characters",
                value: text(FieldGenerators.lengthEmail(length))))
        }
        drafts.append(Draft(
            rule: ruleText, boundaryClass: .padded, detail: "\(rule.maxLength) characters with spaces around",
            value: text(PetSpotPropertyEngine.zip(Gen.string(from: LookAlikes.trimmedSpaces, length: 1...2), FieldGenerators.lengthEmail(rule.maxLength))
                .map { $0 + $1 + $0 })))
        let tld = rule.minTopLevelLetters
        for (letters, boundaryClass) in [(tld - 1, BoundaryClass.belowLimit), (tld, .atLimit), (tld + 1, .aboveLimit)] {
            drafts.append(Draft(
                rule: ruleText, boundaryClass: boundaryClass, detail: "a top-level domain of \(letters) letter\(letters == 1 ? "" : "s")",
                value: text(PetSpotPropertyEngine.zip(Gen.string(from: .asciiLowercase, length: 1...8), Gen.string(from: .asciiLetters, length: letters...letters))
                    .map { "\($0)@example.\($1)" })))
        }
        for lookAlike in LookAlikes.letters {
            // In the local part, the domain or the top-level domain.
            let placed = PetSpotPropertyEngine.zip(Gen<Int>.int(in: 0...2), Gen<String>.element(of: lookAlike.samples)).map { part, sample in
                switch part {
                case 0: "jo\(sample)n@example.com"
                case 1: "john@exa\(sample)ple.com"
                default: "john@example.co\(sample)"
                }
            }
            drafts.append(Draft(rule: ruleText, boundaryClass: .lookAlike, detail: lookAlike.name, value: text(placed)))
        }
        drafts.append(Draft(
            rule: ruleText, boundaryClass: .padded, detail: "an address with invisible characters around",
            value: text(PetSpotPropertyEngine.zip(Gen.string(from: LookAlikes.invisibles, length: 1...1), valid).map { $0 + $1 })))
        return drafts + blankDrafts(ruleText)
    }

    // MARK: Coordinates

    static func coordinateDrafts(_ axis: CoordinateRule.Axis) -> [Draft] {
        let limit = Int(axis.limit)
        let ruleText = "plain decimal number, -\(limit) to \(limit)"
        let sign = Gen<String>.element(of: ["", "-", "+"])
        func signed(_ magnitude: String) -> Gen<String> { sign.map { $0 + magnitude } }
        func spelled(_ value: Int) -> Gen<String> {
            PetSpotPropertyEngine.zip(sign, Gen<String>.element(of: ["\(value)", "\(value).0", "\(value).000", "\(Double(value) / 10)e1"]))
                .map { $0 + $1 }
        }
        var drafts = [
            Draft(rule: ruleText, boundaryClass: .member, detail: "a decimal with an exponent or a bare fraction",
                  value: text(Gen<String>.element(of: [".5", "-.25", "+5", "1e1", "2E-3", "5.", "-0.0"]))),
            Draft(rule: ruleText, boundaryClass: .belowLimit, detail: "\(limit - 1)", value: text(spelled(limit - 1))),
            Draft(rule: ruleText, boundaryClass: .atLimit, detail: "\(limit)", value: text(spelled(limit))),
            Draft(rule: ruleText, boundaryClass: .aboveLimit, detail: "\(limit + 1)", value: text(spelled(limit + 1))),
            Draft(rule: ruleText, boundaryClass: .justPastLimit, detail: "\(limit).000001",
                  value: text(signed("\(limit).000001"))),
            Draft(rule: ruleText, boundaryClass: .notANumber, detail: "a hexadecimal float",
                  value: text(Gen<String>.element(of: ["0x1p3", "0x10", "-0x1.8p1"]))),
            Draft(rule: ruleText, boundaryClass: .notANumber, detail: "inf or nan",
                  value: text(Gen<String>.element(of: ["inf", "nan", "Infinity", "-inf"]))),
            Draft(rule: ruleText, boundaryClass: .notANumber, detail: "a decimal comma",
                  value: text(Gen<String>.element(of: ["52,5", "1,25", "-0,5"]))),
        ]
        for lookAlike in LookAlikes.digits where lookAlike.name != "a keycap digit" {
            drafts.append(Draft(
                rule: ruleText, boundaryClass: .lookAlike, detail: lookAlike.name,
                value: text(inserting(lookAlike.samples, into: Gen<String>.element(of: ["1", "2.5", "-4"])))))
        }
        drafts.append(Draft(
            rule: ruleText, boundaryClass: .padded, detail: "a number with spaces around",
            value: text(PetSpotPropertyEngine.zip(Gen.string(from: LookAlikes.trimmedSpaces, length: 1...2), spelled(limit - 1)).map { $0 + $1 + $0 })))
        drafts.append(Draft(
            rule: ruleText, boundaryClass: .padded, detail: "a number with invisible characters around",
            value: text(PetSpotPropertyEngine.zip(Gen.string(from: LookAlikes.invisibles, length: 1...1), spelled(1)).map { $0 + $1 })))
        return drafts + blankDrafts(ruleText)
    }

    // MARK: Age

    static func wholeNumberDrafts(_ rule: AgeRule) -> [Draft] {
        let (low, high) = (rule.range.lowerBound, rule.range.upperBound)
        let ruleText = "ASCII digits, a whole number \(low) to \(high)"
        var drafts = [
            Draft(rule: ruleText, boundaryClass: .member, detail: "leading zeros",
                  value: text(Gen<Int>.int(in: rule.range).map { "0\($0)" })),
        ]
        var seen: Set<Int> = []
        for (limit, side) in [(low, "lowest"), (high, "highest")] {
            for (value, boundaryClass) in [(limit - 1, BoundaryClass.belowLimit), (limit, .atLimit), (limit + 1, .aboveLimit)] where seen.insert(value).inserted {
                drafts.append(Draft(
                    rule: ruleText, boundaryClass: boundaryClass, detail: "\(value) (\(side) allowed: \(limit))",
                    value: .constant(.value(.text("\(value)")))))
            }
        }
        for lookAlike in LookAlikes.digits where lookAlike.name != "a keycap digit" {
            drafts.append(Draft(
                rule: ruleText, boundaryClass: .lookAlike, detail: lookAlike.name,
                value: text(Gen<String>.element(of: lookAlike.samples))))
        }
        drafts.append(Draft(
            rule: ruleText, boundaryClass: .padded, detail: "a number with spaces around",
            value: text(PetSpotPropertyEngine.zip(Gen.string(from: LookAlikes.trimmedSpaces, length: 1...2), Gen<Int>.int(in: rule.range))
                .map { "\($0)\($1)\($0)" })))
        return drafts + blankDrafts(ruleText)
    }

    // MARK: Free text

    /// Text of exactly `count` characters: a drawn word repeated, with single spaces inside and
    /// none at either end; a one-letter word is repeated without spaces, so that the simplest
    /// such text (what shrinking ends at) is `aaa…a`.
    static func textOfLength(_ count: Int) -> Gen<String> {
        Gen.string(from: .asciiLowercase, length: 1...6).map { word in
            var characters: [Character] = []
            characters.reserveCapacity(count)
            let pattern = Array(word.count == 1 ? word : word + " ")
            while characters.count < count { characters.append(pattern[characters.count % pattern.count]) }
            if count > 1, characters[count - 1] == " " { characters[count - 1] = "x" }
            return String(characters)
        }
    }

    static func freeTextDrafts(_ limit: TextLimit?) -> [Draft] {
        guard let limit else {
            let ruleText = "optional, trimmed, left out when blank"
            return [
                Draft(rule: ruleText, boundaryClass: .member, detail: "letters of other scripts",
                      value: text(Gen.string(from: HostileCharacters.internationalLetters, length: 1...8))),
                Draft(rule: ruleText, boundaryClass: .padded, detail: "text with spaces around",
                      value: text(PetSpotPropertyEngine.zip(Gen.string(from: LookAlikes.trimmedSpaces, length: 1...2), textOfLength(3)).map { $0 + $1 + $0 })),
                Draft(rule: ruleText, boundaryClass: .multiScalar, detail: "multi-scalar characters",
                      value: text(Gen.string(from: LookAlikes.multiScalar, length: 1...3))),
            ] + blankDrafts(ruleText)
        }
        let cap = limit.maxCharacters
        let ruleText = "at most \(cap) characters (Swift Characters) kept"
        var drafts = [
            Draft(rule: ruleText, boundaryClass: .member, detail: "letters of other scripts",
                  value: text(Gen.string(from: HostileCharacters.internationalLetters, length: 1...8))),
        ]
        for (count, boundaryClass) in [(cap - 1, BoundaryClass.belowLimit), (cap, .atLimit), (cap + 1, .aboveLimit)] {
            drafts.append(Draft(rule: ruleText, boundaryClass: boundaryClass, detail: "\(count) characters", value: text(textOfLength(count))))
        }
        // Multi-scalar characters as the cap-th character, with one more character after it:
        // counted in scalars or UTF-16 units, the cap falls inside or before them.
        for (name, samples) in [
            ("an emoji family", ["\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}", "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}"]),
            ("a letter with combining marks", ["e\u{0301}\u{0302}", "a\u{0308}\u{0331}"]),
        ] {
            drafts.append(Draft(
                rule: ruleText, boundaryClass: .multiScalar, detail: "\(name) as character \(cap)",
                value: text(PetSpotPropertyEngine.zip(textOfLength(cap - 1), Gen<String>.element(of: samples)).map { $0 + $1 + "z" })))
        }
        drafts.append(Draft(
            rule: ruleText, boundaryClass: .padded, detail: "\(cap) characters after leading spaces",
            value: text(textOfLength(cap).map { "  " + $0 })))
        return drafts + blankDrafts(ruleText)
    }

    // MARK: Photo

    static func photoDrafts(_ rule: PhotoRule) -> [Draft] {
        let ruleText = "PNG or JPEG, 1 byte to \(rule.maxBytes) bytes"
        let types = Array(rule.acceptedTypes).sorted()
        func photo(_ type: Gen<String>, _ size: Gen<Int>) -> Gen<FieldInput> {
            PetSpotPropertyEngine.zip(type, size).map { type, size in
                .value(.photo(PhotoAttachment(fileName: type.lowercased().hasSuffix("png") ? "pet.png" : "pet.jpg", mimeType: type, byteCount: size)))
            }
        }
        let accepted = Gen<String>.element(of: types)
        return [
            Draft(rule: ruleText, boundaryClass: .member, detail: "an accepted type in capitals",
                  value: photo(Gen<String>.element(of: types.map { $0.uppercased() }), Gen.int(in: FieldGenerators.smallestImageBytes...4096))),
            Draft(rule: ruleText, boundaryClass: .belowLimit, detail: "0 bytes", value: photo(accepted, .constant(0))),
            Draft(rule: ruleText, boundaryClass: .atLimit, detail: "1 byte", value: photo(accepted, .constant(1))),
            Draft(rule: ruleText, boundaryClass: .atLimit, detail: "\(rule.maxBytes) bytes", value: photo(accepted, .constant(rule.maxBytes))),
            Draft(rule: ruleText, boundaryClass: .aboveLimit, detail: "\(rule.maxBytes + 1) bytes", value: photo(accepted, .constant(rule.maxBytes + 1))),
            Draft(rule: ruleText, boundaryClass: .nonMember, detail: "another image type",
                  value: photo(Gen<String>.element(of: ["image/gif", "image/heic", "image/webp"]), Gen.int(in: FieldGenerators.smallestImageBytes...4096))),
            Draft(rule: ruleText, boundaryClass: .lookAlike, detail: "image/jpg or a padded type",
                  value: photo(Gen<String>.element(of: ["image/jpg", "image/png ", " image/jpeg"]), Gen.int(in: FieldGenerators.smallestImageBytes...4096))),
            Draft(rule: ruleText, boundaryClass: .empty, detail: "no photo attached", value: .constant(.value(nil))),
        ]
    }

    // MARK: Date

    static func dateDrafts() -> [Draft] {
        let ruleText = "not after the earlier of today in the user's zone and today in UTC"
        var drafts: [Draft] = []
        for (index, context) in FlowGenerators.boundaryContextNames.enumerated() {
            drafts.append(Draft(
                rule: ruleText, boundaryClass: .latestDate, detail: "latest allowed date, \(context)",
                value: .constant(.date(daysAfterToday: 0)), context: index))
            drafts.append(Draft(
                rule: ruleText, boundaryClass: .dayAfterLatest, detail: "the day after the latest allowed date, \(context)",
                value: .constant(.date(daysAfterToday: 1)), context: index))
        }
        drafts.append(Draft(rule: ruleText, boundaryClass: .empty, detail: "no date picked", value: .constant(.date(daysAfterToday: nil))))
        return drafts
    }

    // MARK: Picked values

    static func choiceDrafts(_ options: [String]) -> [Draft] {
        [Draft(rule: "one of \(options.joined(separator: ", "))", boundaryClass: .empty, detail: "nothing picked", value: .constant(.value(nil)))]
    }
}

/// Characters that look like members of a rule's character class and are not, as whole Swift
/// `Character`s; and the blank and invisible characters trimming does and does not remove.
public enum LookAlikes {
    /// A named kind of look-alike with samples of it.
    public struct Kind: Sendable {
        /// What it is, as reports name it.
        public let name: String
        /// Characters of the kind (each one Swift `Character`).
        public let samples: [String]
    }

    /// Look-alikes of the ASCII digits, a kind each so that every one reaches its rule at
    /// default: the digit kinds a filter keeping `Character.isNumber` or a `wholeNumberValue`
    /// keeps and report-flows.md's rules drop (decimal digits of other scripts, fullwidth and
    /// mathematical digits; numbers that are not decimal digits: superscripts, circled numbers,
    /// vulgar fractions, Roman numerals), a digit carrying a combining mark or a zero-width
    /// joiner, a keycap (report-flows.md: dropped whole).
    public static let digits: [Kind] = [
        Kind(name: "an Arabic-Indic digit", samples: ["\u{0663}", "\u{0667}"]),
        Kind(name: "an Extended Arabic-Indic digit", samples: ["\u{06F7}", "\u{06F4}"]),
        Kind(name: "a Devanagari digit", samples: ["\u{0969}", "\u{0967}"]),
        Kind(name: "a Bengali digit", samples: ["\u{09EB}", "\u{09E8}"]),
        Kind(name: "a Thai digit", samples: ["\u{0E53}", "\u{0E57}"]),
        Kind(name: "a fullwidth digit", samples: ["\u{FF13}", "\u{FF17}", "\u{FF10}"]),
        Kind(name: "a mathematical bold digit", samples: ["\u{1D7CF}", "\u{1D7D5}"]),
        Kind(name: "a superscript digit", samples: ["\u{00B2}", "\u{00B3}", "\u{2077}"]),
        Kind(name: "a circled number", samples: ["\u{2460}", "\u{2466}"]),
        Kind(name: "a vulgar fraction", samples: ["\u{00BD}", "\u{00BE}"]),
        Kind(name: "a Roman numeral", samples: ["\u{216B}", "\u{2167}"]),
        Kind(name: "a digit with a combining mark", samples: ["7\u{0301}", "3\u{0308}", "0\u{20DD}"]),
        Kind(name: "a digit joined to a ZWJ", samples: ["7\u{200D}", "1\u{200D}"]),
        Kind(name: "a keycap digit", samples: ["1\u{FE0F}\u{20E3}", "7\u{FE0F}\u{20E3}"]),
    ]

    /// Look-alikes of the ASCII letters an address pattern accepts: letters whose case mapping
    /// lands in ASCII (U+017F, U+212A, U+0130), ß, fullwidth letters, letters with combining
    /// marks or a joiner, and a non-ASCII digit.
    public static let letters: [Kind] = [
        Kind(name: "U+017F LATIN SMALL LETTER LONG S", samples: ["\u{017F}"]),
        Kind(name: "U+212A KELVIN SIGN", samples: ["\u{212A}"]),
        Kind(name: "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE", samples: ["\u{0130}"]),
        Kind(name: "U+00DF LATIN SMALL LETTER SHARP S", samples: ["\u{00DF}"]),
        Kind(name: "a fullwidth letter", samples: ["\u{FF41}", "\u{FF25}"]),
        Kind(name: "a letter with a combining mark", samples: ["e\u{0301}", "a\u{0308}"]),
        Kind(name: "a letter joined to a ZWJ", samples: ["a\u{200D}"]),
        Kind(name: "a non-ASCII digit in an address", samples: ["\u{0663}", "\u{FF13}"]),
    ]

    /// Characters trimming removes (Unicode White_Space and U+FEFF).
    public static var trimmedSpaces: CharacterClass { HostileCharacters.trimmedSpaces }

    /// Invisible characters trimming keeps: zero-width space, word joiner, zero-width
    /// non-joiner and joiner.
    public static let invisibles: CharacterClass = "\u{200B}\u{2060}\u{200C}\u{200D}"

    /// Characters of several scalars: emoji families, flags, skin tones, combining marks.
    public static let multiScalar = CharacterClass([
        "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}", "\u{1F1F5}\u{1F1F1}", "\u{1F44D}\u{1F3FD}",
        "e\u{0301}", "n\u{0303}\u{0323}",
    ])
}
