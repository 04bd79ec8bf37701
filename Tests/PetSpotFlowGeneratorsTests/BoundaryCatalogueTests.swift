import Foundation
import PetSpotModel
import PetSpotPropertyEngine
import Testing
@testable import PetSpotFlowGenerators

@Suite("Boundary catalogue")
struct BoundaryCatalogueTests {
    /// Samples of the value `boundary` plants, typed text only.
    static func texts(_ boundary: Boundary, count: Int = 20) -> [String] {
        let planted = BoundaryCatalogue.planted[boundary.index]
        return planted.value.samples(count: count, seed: UInt64(boundary.index)).compactMap { input in
            if case .value(.text(let text)?) = input { return text }
            return nil
        }
    }

    static func entry(_ field: ReportField, _ detail: String) throws -> Boundary {
        try #require(BoundaryCatalogue.entries(of: field).first { $0.detail == detail }, "no entry \(field.name): \(detail)")
    }

    /// The limits are report-flows.md's, written here as literals (not read from the rules the
    /// catalogue is built from, which would make a wrong rule agree with itself): microchip at
    /// most 15 digits; phone 7 to 11 ASCII digits; email at most 254 characters; description
    /// 500, reward 120, current address 500 Characters; age 1-40; photo 1 byte to 10 MB
    /// (10 × 1024 × 1024 bytes).
    @Test("the catalogue plants report-flows.md's limits: limit - 1, limit and limit + 1")
    func limitsFromDocument() throws {
        for count in [14, 15, 16] {
            for text in Self.texts(try Self.entry(.chipNumber, "\(count) digits")) {
                #expect(text.filter { $0.isASCII && $0.isNumber }.count == count)
            }
        }
        for length in [253, 254, 255] {
            for text in Self.texts(try Self.entry(.email, "\(length) characters")) { #expect(text.count == length) }
        }
        for count in [6, 7, 11, 12] {
            let entry = try #require(BoundaryCatalogue.entries(of: .phone).first { $0.detail.hasPrefix("\(count) digits") })
            for text in Self.texts(entry) { #expect(text.filter { $0.isASCII && $0.isNumber }.count == count) }
        }
        for (field, cap) in [(ReportField.description, 500), (.reward, 120), (.currentAddress, 500)] {
            for count in [cap - 1, cap, cap + 1] {
                for text in Self.texts(try Self.entry(field, "\(count) characters")) { #expect(text.count == count) }
            }
            for text in Self.texts(try Self.entry(field, "an emoji family as character \(cap)")) {
                let characters = Array(text)
                #expect(characters.count == cap + 1 && characters[cap - 1].unicodeScalars.count > 1)
            }
        }
        for value in [0, 1, 2, 39, 40, 41] {
            #expect(BoundaryCatalogue.entries(of: .age).contains { $0.detail.hasPrefix("\(value) (") }, "no age \(value)")
        }
        for detail in ["0 bytes", "1 byte", "10485760 bytes", "10485761 bytes"] { _ = try Self.entry(.photo, detail) }
    }

    @Test("blank classes: empty, whitespace-only that trimming removes, invisible-only that it keeps")
    func blankClasses() {
        for boundary in BoundaryCatalogue.entries {
            let texts = Self.texts(boundary)
            switch boundary.boundaryClass {
            case .whitespaceOnly:
                #expect(texts.allSatisfy { !$0.isEmpty && Trimming.isBlank($0) }, "\(boundary.label)")
            case .invisibleOnly:
                #expect(texts.allSatisfy { !$0.isEmpty && !Trimming.isBlank($0) && $0.unicodeScalars.allSatisfy { $0.properties.generalCategory == .format } }, "\(boundary.label)")
            case .empty where boundary.field.spec.isText:
                #expect(texts.allSatisfy { $0.isEmpty }, "\(boundary.label)")
            default:
                break
            }
        }
    }

    @Test("look-alike digits are single Characters that are not ASCII digits, and the rules drop them")
    func lookAlikes() {
        for kind in LookAlikes.digits {
            for sample in kind.samples {
                #expect(sample.count == 1, "\(kind.name): \(sample.unicodeScalars.map { String($0.value, radix: 16) })")
                #expect(MicrochipFormatter().storedDigits(from: sample).isEmpty, "\(kind.name) kept")
                #expect(PhoneRule().sanitized(sample).isEmpty, "\(kind.name) kept in a phone")
            }
        }
        for kind in LookAlikes.letters {
            for sample in kind.samples { #expect(!EmailRule().isValid("jo\(sample)n@example.com"), "\(kind.name) accepted") }
        }
    }

    /// Digits a filter keeping `Character.isNumber` or a `wholeNumberValue` keeps and
    /// report-flows.md's microchip and phone rules drop, written here as literals: decimal digits
    /// of other scripts (Arabic-Indic, Extended Arabic-Indic, Devanagari, Bengali, Thai,
    /// fullwidth, mathematical bold) and numbers that are not decimal digits (a superscript, a
    /// circled number, a vulgar fraction, a Roman numeral).
    static let numberLookAlikes: [Character] = ["\u{0663}", "\u{06F7}", "\u{0969}", "\u{09EB}", "\u{0E53}", "\u{FF13}", "\u{1D7CF}", "\u{00B2}", "\u{2460}", "\u{00BD}", "\u{216B}"]

    @Test("every digit kind an isNumber filter keeps and the rules drop is a microchip and a phone entry of its own")
    func numberLookAlikesAreEntries() throws {
        var kinds: [String] = []
        for character in Self.numberLookAlikes {
            let sample = String(character)
            #expect(character.isNumber && !character.isASCII, "\(sample)")
            #expect(MicrochipFormatter().storedDigits(from: sample).isEmpty && PhoneRule().sanitized(sample).isEmpty, "\(sample) kept by a rule")
            let kind = try #require(LookAlikes.digits.first { $0.samples.contains(sample) }, "\(sample) is no look-alike digit")
            kinds.append(kind.name)
            for entry in [try Self.entry(.chipNumber, "\(kind.name) among 14 digits"), try Self.entry(.phone, "\(kind.name) among the digits")] {
                let texts = Self.texts(entry)
                #expect(!texts.isEmpty && texts.allSatisfy { text in kind.samples.contains { text.contains($0) } }, "\(entry.label): \(texts)")
            }
        }
        #expect(Set(kinds).count == Self.numberLookAlikes.count, "kinds shared by several of them: \(kinds)")
    }

    @Test("boundary clocks: east of UTC after midnight the latest date is yesterday; west, UTC's today is tomorrow")
    func boundaryClocks() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        for context in FlowGenerators.boundaryContext(0).samples(count: 50, seed: 1) {
            #expect(context.timeZone.secondsFromGMT(for: context.now) == 14 * 3600)
            #expect(context.latestReportDate == context.today.adding(days: -1))
        }
        for context in FlowGenerators.boundaryContext(1).samples(count: 50, seed: 2) {
            #expect(context.timeZone.secondsFromGMT(for: context.now) == -12 * 3600)
            #expect(CalendarDate.today(in: utc, now: context.now) == context.latestReportDate.adding(days: 1))
        }
        for context in FlowGenerators.boundaryContext(2).samples(count: 50, seed: 3) {
            #expect(CalendarDate.today(in: context.timeZone, now: context.now.addingTimeInterval(1)) == context.today.adding(days: 1))
        }
    }

    @Test("the check generator plants every entry, one or two faults at a time, and reaches the rule")
    func plantsEveryEntry() {
        let cases = FlowGenerators.boundaryCases().samples(count: 2_000, seed: 5)
        var planted = Array(repeating: 0, count: BoundaryCatalogue.entries.count)
        var reached = 0, withBoundary = 0
        for flowCase in cases {
            for index in flowCase.boundaries { planted[index] += 1 }
            if !flowCase.boundaries.isEmpty {
                withBoundary += 1
                if !flowCase.reachedBoundaries(outcome: flowCase.referenceOutcome).isEmpty { reached += 1 }
            }
        }
        let missing = BoundaryCatalogue.entries.filter { planted[$0.index] == 0 }.map(\.label)
        #expect(missing.isEmpty, "never planted: \(missing)")
        // Every look-alike digit reaches the microchip and phone rules: the field's step is reached.
        var reachedEntries = Set<Int>()
        for flowCase in cases { reachedEntries.formUnion(flowCase.reachedBoundaries(outcome: flowCase.referenceOutcome).map(\.index)) }
        let digitEntries = (BoundaryCatalogue.entries(of: .chipNumber) + BoundaryCatalogue.entries(of: .phone)).filter { $0.boundaryClass == .lookAlike }
        #expect(digitEntries.count >= 2 * LookAlikes.digits.count)
        let unreached = digitEntries.filter { !reachedEntries.contains($0.index) }.map(\.label)
        #expect(unreached.isEmpty, "never reached their rule: \(unreached)")
        #expect(withBoundary > 1_300)
        #expect(Double(reached) > 0.85 * Double(withBoundary), "\(reached) of \(withBoundary) planted cases reach the field's step")
    }

    @Test("a fresh generator gives the same cases from the same seed")
    func deterministic() {
        #expect(FlowGenerators.boundaryCases().samples(count: 300, seed: 8) == FlowGenerators.boundaryCases().samples(count: 300, seed: 8))
    }
}
