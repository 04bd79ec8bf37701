import Foundation
import PetSpotJSON
import PetSpotModel
import Testing

@testable import PetSpotReleases

@Suite("Payload classes")
struct PayloadClassTests {
    let clock = Date(timeIntervalSince1970: 1_795_348_800)  // 2026-11-22T12:00:00Z

    func valueClass(_ value: JSONValue, _ key: String) -> String { PayloadClass.valueClass(value, key: key, clock: clock) }

    @Test("each bound of a rule is a class of its own, and each interval between bounds")
    func bounds() {
        #expect(["<1", "1", "1-40", "40", ">40"] == [0, 1, 3, 40, 41].map { PayloadClass.bucket($0, bounds: [1, 40]) })
        #expect(valueClass(40, "age") == "int:40")
        #expect(valueClass(39, "age") == valueClass(2, "age"))
        #expect(valueClass(0, "locationLatitude") == "int:0")
        #expect(valueClass(0.0, "locationLatitude") == "fraction:0" || valueClass(0.0, "locationLatitude") == "int:0")
        #expect(valueClass(-90, "locationLatitude") == "int:-90")
        #expect(valueClass(45.5, "locationLatitude") == "fraction:0-90")
        #expect(valueClass(1.5, "age") == "fraction:1-40")
    }

    @Test("texts: empty, blank, padded, non-ASCII, multi-scalar, and length against the field's limits")
    func texts() {
        #expect(valueClass("", "breed") == "empty")
        #expect(valueClass(" \u{00A0}", "breed") == "blank")
        #expect(valueClass(" Beagle", "breed") == "padded/ascii/length:1-9")
        #expect(valueClass(.string(String(repeating: "x", count: 500)), "description") == "ascii/length:500")
        #expect(valueClass(.string(String(repeating: "x", count: 499)), "description") == "ascii/length:<500")
        #expect(valueClass(.string(String(repeating: "👨‍👩‍👧", count: 500)), "description") == "unicode/multi-scalar/length:500")
        #expect(valueClass("123456789012345", "microchipNumber") == "ascii/length:15")
        #expect(valueClass("1234567890123456", "microchipNumber") == "ascii/length:>15")
        #expect(valueClass("+48600700800", "phone") == "ascii/length:10-99/digits:11/plus")
        #expect(valueClass("a@b.c", "email") == "ascii/length:<254/pattern")
        #expect(valueClass("a@b", "email") == "ascii/length:<254/not-pattern")
        #expect(valueClass("MISSING", "status") == "'MISSING'")
        #expect(valueClass("DOG", "species") == "'DOG'")
        #expect(valueClass(.null, "breed") == "null")
        #expect(valueClass(3, "breed") == "int:>0")
    }

    @Test("the date against the UTC day of the report's own clock")
    func dates() {
        #expect(valueClass("2026-11-22", "lastSeenDate") == "utc-today")
        #expect(valueClass("2026-11-21", "lastSeenDate") == "utc-yesterday")
        #expect(valueClass("2025-01-01", "lastSeenDate") == "earlier")
        #expect(valueClass("2026-11-23", "lastSeenDate") == "after-utc-today")
        #expect(valueClass("2025-02-30", "lastSeenDate") == "not-a-date")
        #expect(valueClass("22/11/2026", "lastSeenDate") == "not-a-date")
        #expect(valueClass("2026-1-2", "lastSeenDate") == "not-yyyy-mm-dd")
    }

    @Test("a payload's traits are its flow with its keys, and each key with its value's class")
    func payloads() throws {
        let one = try #require((["status": "MISSING", "age": 3, "species": "DOG"] as JSONValue).objectValue)
        let two = try #require((["species": "DOG", "age": 7, "status": "MISSING"] as JSONValue).objectValue)
        #expect(PayloadClass.traits(of: one, flow: .missing, clock: clock)
            == ["missing keys=age,species,status", "missing age=int:1-40", "missing species='DOG'", "missing status='MISSING'"])
        #expect(PayloadClass.traits(of: one, flow: .missing, clock: clock) == PayloadClass.traits(of: two, flow: .missing, clock: clock))
        #expect(PayloadClass.traits(of: one, flow: .missing, clock: clock).isDisjoint(with: PayloadClass.traits(of: one, flow: .found, clock: clock)))
        var without = one
        without["age"] = nil
        #expect(!PayloadClass.traits(of: without, flow: .missing, clock: clock).isSubset(of: PayloadClass.traits(of: one, flow: .missing, clock: clock)))
        // 0,0 is a location of its own even when 0 was seen in each coordinate apart.
        let origin = try #require((["locationLatitude": 0, "locationLongitude": 0] as JSONValue).objectValue)
        let seen = [(0, 74), (47.5, 0)].map { lat, lng in
            PayloadClass.traits(of: (["locationLatitude": .number(JSONNumber(lat)), "locationLongitude": .number(JSONNumber(lng))] as JSONValue).objectValue!, flow: .missing, clock: clock)
        }.reduce(into: Set<String>()) { $0.formUnion($1) }
        #expect(!PayloadClass.traits(of: origin, flow: .missing, clock: clock).isSubset(of: seen))
    }

    @Test("the email class follows the backend's pattern, not the app's")
    func backendEmail() {
        #expect(PayloadClass.backendEmailMatches("a@b.c"))
        #expect(PayloadClass.backendEmailMatches("a@b.c."))
        #expect(PayloadClass.backendEmailMatches("ü@b.c"))
        #expect(!PayloadClass.backendEmailMatches("a@.c"))
        #expect(!PayloadClass.backendEmailMatches("a@b."))
        #expect(!PayloadClass.backendEmailMatches("a b@c.d"))
        #expect(!PayloadClass.backendEmailMatches("a@b@c.d"))
        #expect(!PayloadClass.backendEmailMatches(String(repeating: "a", count: 250) + "@b.cd"))
    }
}

@Suite("Pact export")
struct PactExportTests {
    @Test("one interaction per create, matching rules for what varies, the refusal as recorded")
    func document() throws {
        let pact = PactExport.document(of: sampleRelease(), consumer: "PetSpot iOS")
        #expect(pact["consumer"]?["name"] == "PetSpot iOS")
        #expect(pact["provider"]?["name"] == "PetSpot backend")
        #expect(pact["metadata"]?["pactSpecification"]?["version"] == "4.0")
        #expect(pact["metadata"]?["petspot"]?["release"] == "1.4")
        let interactions = try #require(pact["interactions"]?.arrayValue)
        #expect(interactions.count == 3)  // two reports, one submission's create; the upload is left out
        #expect(interactions.compactMap { $0["key"]?.stringValue } == ["missing-1", "missing-2", "submission-1"])
        let accepted = interactions[0]
        #expect(accepted["type"] == "Synchronous/HTTP")
        #expect(accepted["request"]?["path"] == "/api/v1/announcements")
        #expect(accepted["response"]?["status"] == 201)
        #expect(accepted["response"]?["body"]?["content"]?["status"] == "MISSING")
        #expect(accepted["response"]?["matchingRules"]?["body"]?["$.managementPassword"]?["matchers"]?[0]?["regex"] == "^[0-9]{6}$")
        let refused = interactions[1]
        #expect(refused["response"]?["status"] == 400)
        #expect(refused["response"]?["body"]?["content"] == ["error": ["code": "INVALID_FORMAT", "field": "age"]])
    }

    @Test("a date is sent at its distance from the day the report was made: seen from the recording day, generated from the verifying day")
    func dates() throws {
        let accepted = try #require(PactExport.document(of: sampleRelease())["interactions"]?[0])
        // Made on 2026-11-21 with a date of 2026-11-20; recorded on 2026-11-28.
        #expect(accepted["request"]?["body"]?["content"]?["lastSeenDate"] == "2026-11-27")
        #expect(accepted["request"]?["generators"]?["body"]?["$.lastSeenDate"] == ["type": "Date", "format": "yyyy-MM-dd", "expression": "- 1 day"])
        #expect([0, 1, -1, -30].map(PactExport.dateExpression(days:)) == ["today", "+ 1 day", "- 1 day", "- 30 days"])
    }

    @Test("microchip numbers are unique within the file and keep their length")
    func microchips() throws {
        let pact = PactExport.document(of: sampleRelease())
        let chips = try #require(pact["interactions"]?.arrayValue).compactMap { $0["request"]?["body"]?["content"]?["microchipNumber"]?.stringValue }
        #expect(chips.count == 3)
        #expect(Set(chips).count == 3)
        #expect(chips.allSatisfy { $0.count == 15 && $0.allSatisfy(\.isNumber) })
        var unique = UniqueMicrochips()
        #expect((0..<5).map { _ in unique.next(length: 4) } == ["9001", "9002", "9003", "9004", "9005"])
    }
}

@Suite("Replayed payloads")
struct ReplayedPayloadTests {
    @Test("the date keeps its distance from the report's UTC today; a digit microchip is fresh and as long; the rest is as recorded")
    func replayed() throws {
        let clock = Date(timeIntervalSince1970: 1_795_348_800)  // 2026-11-22T12:00:00Z
        let payload = try #require((["status": "MISSING", "lastSeenDate": "2026-11-21", "microchipNumber": " 0123456789 ", "age": .number(JSONNumber(literal: "1E+1")!)] as JSONValue).objectValue)
        let today = try #require(CalendarDate(iso: "2027-03-01"))
        let microchips = ReplayMicrochips()
        let sent = ReplayedPayload.make(payload, recordedAt: clock, today: today, microchips: microchips)
        #expect(sent.keys == payload.keys)
        #expect(sent["lastSeenDate"] == "2027-02-28")
        let chip = try #require(sent["microchipNumber"]?.stringValue)
        #expect(chip.hasPrefix(" ") && chip.hasSuffix(" ") && chip.count == 12 && chip != " 0123456789 ")
        #expect(sent["age"]?.numberValue?.literal == "1E+1")
        #expect(sent["status"] == "MISSING")
        var odd = payload
        odd["lastSeenDate"] = "2025-02-30"
        odd["microchipNumber"] = "12-34"
        let kept = ReplayedPayload.make(odd, recordedAt: clock, today: today, microchips: microchips)
        #expect(kept["lastSeenDate"] == "2025-02-30" && kept["microchipNumber"] == "12-34")
    }

    @Test("fresh microchip numbers never repeat within a replay, at any length")
    func unique() {
        let microchips = ReplayMicrochips()
        for length in [1, 2, 6, 7, 10, 15, 20] {
            let count = min(200, (0..<min(length, 3)).reduce(1) { value, _ in value * 10 })
            let numbers = (0..<count).map { _ in microchips.next(length: length) }
            #expect(Set(numbers).count == count, "length \(length)")
            #expect(numbers.allSatisfy { $0.count == length && $0.allSatisfy(\.isNumber) })
        }
    }
}
