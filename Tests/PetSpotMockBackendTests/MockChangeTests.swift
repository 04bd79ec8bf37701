import Foundation
@testable import PetSpotContractChanges
import PetSpotContractKit
import PetSpotHTTP
import PetSpotJSON
import Testing
@testable import PetSpotMockBackend

/// Every contract change, observed through the HTTP API: what the contract of
/// backend-contract.md answers, what the changed contract answers, and that a change refuses no
/// report of the app's builds beyond the ones it is about.
@Suite("Contract changes")
struct MockChangeTests {
    static func backend(_ profile: BackendProfile, _ changes: Set<MockChange> = [], defects: Set<MockDefect> = []) -> MockBackend {
        MockBackend(profile: profile, defects: defects, changes: changes, clock: { fixedNow })
    }

    /// A microchip number as the app keeps it (at most 15 digits), unique to the test: 13 random
    /// digits after "98".
    static func appMicrochip() -> String { "98" + String(UInt64.random(in: 1_000_000_000_000...9_999_999_999_999)) }

    /// ``createBody(_:removing:)`` with a microchip number the app could send.
    static func body(_ changes: [(String, JSONValue)] = [], removing: [String] = []) -> JSONObject {
        createBody([("microchipNumber", .string(appMicrochip()))] + changes, removing: removing)
    }

    /// Checks that `response` is the change's documented answer in `profile`.
    static func expectAnswer(
        _ response: HTTPResponse, _ answer: MockChange.Answer, _ profile: BackendProfile, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = expectError(response, answer.status, answer.code, field: answer.field, sourceLocation: sourceLocation)
        #expect(error?["message"]?.stringValue == answer.message(in: profile), "message in \(response.bodyText)", sourceLocation: sourceLocation)
    }

    // MARK: Probes

    /// What shows one change.
    struct Probe: CustomTestStringConvertible, Sendable {
        let change: MockChange
        /// Bodies the contract accepts and the change refuses with its answer (a tightening), or
        /// that the contract refuses and the change accepts (a loosening).
        let bodies: [JSONObject]
        /// Bodies both accept: the edge of the changed rule, the new value.
        let alsoAccepted: [JSONObject]
        var testDescription: String { change.name }

        init(_ change: MockChange, _ bodies: [JSONObject], alsoAccepted: [JSONObject] = []) {
            self.change = change
            self.bodies = bodies
            self.alsoAccepted = alsoAccepted
        }
    }

    static let probes: [Probe] = [
        Probe(.statusMissingRenamedLost, [body([("status", "MISSING")])], alsoAccepted: [body([("status", "FOUND")])]),
        Probe(.statusFoundRenamedSighted, [body([("status", "FOUND")])], alsoAccepted: [body([("status", "MISSING")])]),
        Probe(.petNameRequired, [body(removing: ["petName"])], alsoAccepted: [body([("petName", "R")])]),
        Probe(.breedRemoved, [body([("breed", "Beagle")])], alsoAccepted: [body(removing: ["breed"])]),
        Probe(.ageAsText, [body([("age", 3)]), body([("age", 40)])], alsoAccepted: [body(removing: ["age"])]),
        Probe(.ageMax30, [body([("age", 31)]), body([("age", 40)])], alsoAccepted: [body([("age", 30)]), body([("age", 1)])]),
        Probe(.nullIslandRefused, [body([("locationLatitude", 0), ("locationLongitude", 0)]),
                                   body([("locationLatitude", .number(JSONNumber(literal: "-0.0")!)), ("locationLongitude", 0.0)])],
              alsoAccepted: [body([("locationLatitude", 0), ("locationLongitude", 0.0001)]),
                             body([("locationLatitude", 0.0001), ("locationLongitude", 0)])]),
        Probe(.microchipMax15, [body([("microchipNumber", .string("9" + appMicrochip()))])],
              alsoAccepted: [body([("microchipNumber", .string(appMicrochip()))])]),
        Probe(.emailRequired, [body(removing: ["email"])], alsoAccepted: [body(removing: ["phone"])]),
        Probe(.phoneDigits7To15, [body([("phone", "+48 123 4")]), body([("phone", "+1234567890123456")])],
              alsoAccepted: [body([("phone", "1234567")]), body([("phone", "+123456789012345")])]),
        Probe(.unknownKeysIgnored, [body([("caregiverPhone", "+48600700800")]), body([("photoUrl", "/images/x.png")])]),
        Probe(.optionalNullAccepted, [body([("breed", nil)]), body([("age", nil)]), body([("email", nil)]), body([("microchipNumber", nil)])]),
    ]

    @Test("every change has a probe")
    func everyChangeHasAProbe() {
        #expect(Set(Self.probes.map(\.change)) == Set(MockChange.allCases))
    }

    @Test("the contract answers a probe one way and the changed contract the other, in both profiles", arguments: probes)
    func probe(_ probe: Probe) {
        for profile in BackendProfile.allCases {
            let contract = Self.backend(profile), changed = Self.backend(profile, [probe.change])
            for body in probe.bodies {
                let before = contract.answer(createRequest(body)), after = changed.answer(createRequest(body))
                switch probe.change.answer {
                case let answer?:
                    #expect(before.status == 201, "\(profile): the contract refused \(body): \(before.bodyText)")
                    Self.expectAnswer(after, answer, profile)
                case nil:
                    #expect(before.status == 400, "\(profile): the contract accepted \(body)")
                    #expect(after.status == 201, "\(profile): the change refused \(body): \(after.bodyText)")
                }
            }
            for body in probe.alsoAccepted {
                let after = changed.answer(createRequest(body))
                #expect(after.status == 201, "\(profile): the change refused \(body): \(after.bodyText)")
            }
        }
    }

    // MARK: The app's reports

    /// A report as a build of the app sends it (report-flows.md; the older builds as
    /// sut-protocol.md says they differ).
    enum Report: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case missingEveryField = "Missing with every field (1.4, 2.0)"
        case missingRequiredOnly = "Missing with the optional fields left empty (1.4, 2.0)"
        case missingFirstBuilds = "Missing as 1.0 sends it (no petName, breed or age)"
        case missingFirstBuildsNoLocation = "Missing as 1.0 sends it with both coordinates left empty (0.0, 0.0)"
        case foundStatusHardCoded = "Found as 1.4 sends it (status MISSING)"
        case foundStatusByFlow = "Found as 2.0 sends it (status FOUND)"

        var testDescription: String { rawValue }

        var body: JSONObject {
            let chip = MockChangeTests.appMicrochip()
            let zero = JSONValue.number(JSONNumber(literal: "0.0")!)
            switch self {
            case .missingEveryField:
                return JSONObject([
                    (key: "species", value: "DOG"), (key: "sex", value: "MALE"), (key: "lastSeenDate", value: "2025-06-01"),
                    (key: "locationLatitude", value: 52.2297), (key: "locationLongitude", value: 21.0122),
                    (key: "email", value: "owner@example.com"), (key: "phone", value: "+48600700800"), (key: "status", value: "MISSING"),
                    (key: "microchipNumber", value: .string(chip)), (key: "petName", value: "Rex"), (key: "breed", value: "Beagle"),
                    (key: "age", value: 40), (key: "description", value: "Red collar"), (key: "reward", value: "$50"),
                ])
            case .missingRequiredOnly:
                return JSONObject([
                    (key: "species", value: "CAT"), (key: "sex", value: "FEMALE"), (key: "lastSeenDate", value: "2025-06-14"),
                    (key: "locationLatitude", value: -90), (key: "locationLongitude", value: 180),
                    (key: "email", value: "a@b.co"), (key: "phone", value: "1234567"), (key: "status", value: "MISSING"),
                ])
            case .missingFirstBuilds, .missingFirstBuildsNoLocation:
                let empty = self == .missingFirstBuildsNoLocation
                return JSONObject([
                    (key: "species", value: "RABBIT"), (key: "sex", value: "UNKNOWN"), (key: "lastSeenDate", value: "2025-05-30"),
                    (key: "locationLatitude", value: empty ? zero : 50.0614), (key: "locationLongitude", value: empty ? zero : 19.9366),
                    (key: "email", value: "owner@example.com"), (key: "phone", value: "+12345678901"), (key: "status", value: "MISSING"),
                    (key: "microchipNumber", value: .string(chip)), (key: "description", value: "White ears"), (key: "reward", value: "100 PLN"),
                ])
            case .foundStatusHardCoded, .foundStatusByFlow:
                return JSONObject([
                    (key: "species", value: "OTHER"), (key: "sex", value: "UNKNOWN"), (key: "lastSeenDate", value: "2025-06-15"),
                    (key: "locationLatitude", value: 52.2297), (key: "locationLongitude", value: -21.0122),
                    (key: "email", value: "finder@example.com"), (key: "phone", value: "+48600700800"),
                    (key: "status", value: self == .foundStatusByFlow ? "FOUND" : "MISSING"),
                    (key: "microchipNumber", value: .string(chip)), (key: "breed", value: "Mixed"), (key: "description", value: "Blue collar"),
                ])
            }
        }
    }

    /// The reports each change refuses: the reports it is about. It must accept every other.
    static func refusedReports(_ change: MockChange) -> Set<Report> {
        switch change {
        case .statusMissingRenamedLost:
            [.missingEveryField, .missingRequiredOnly, .missingFirstBuilds, .missingFirstBuildsNoLocation, .foundStatusHardCoded]
        case .statusFoundRenamedSighted: [.foundStatusByFlow]
        case .petNameRequired: Set(Report.allCases).subtracting([.missingEveryField])
        case .breedRemoved: [.missingEveryField, .foundStatusHardCoded, .foundStatusByFlow]
        case .ageAsText, .ageMax30: [.missingEveryField]
        case .nullIslandRefused: [.missingFirstBuildsNoLocation]
        case .microchipMax15, .emailRequired, .phoneDigits7To15, .unknownKeysIgnored, .optionalNullAccepted: []
        }
    }

    @Test("the contract accepts every report of the app's builds", arguments: Report.allCases)
    func contractAcceptsTheReports(_ report: Report) {
        for profile in BackendProfile.allCases {
            let response = Self.backend(profile).answer(createRequest(report.body))
            #expect(response.status == 201, "\(profile): \(response.bodyText)")
        }
    }

    @Test("a change refuses the reports it is about with its answer and accepts every other, in both profiles",
          arguments: MockChange.allCases)
    func changeRefusesOnlyItsReports(_ change: MockChange) {
        let refused = Self.refusedReports(change)
        for profile in BackendProfile.allCases {
            let backend = Self.backend(profile, [change])
            for report in Report.allCases {
                let response = backend.answer(createRequest(report.body))
                if let answer = change.answer, refused.contains(report) {
                    Self.expectAnswer(response, answer, profile)
                } else {
                    #expect(response.status == 201, "\(profile), \(report.rawValue): \(response.bodyText)")
                }
            }
        }
    }

    /// Reports at the edges of report-flows.md's rules, as the current build sends them: what a
    /// change that tightens an unused part of a rule, or loosens one, must still accept.
    static let edgeReports: [JSONObject] = [
        body([("microchipNumber", "000000000000000"), ("phone", "+1234567"), ("age", 1)]),
        body([("phone", "+++12345678901"), ("age", 40), ("locationLatitude", 90), ("locationLongitude", -180)]),
        body([("email", .string(String(repeating: "a", count: 240) + "@example.co")), ("phone", "12345678901")]),
        body([("description", .string(String(repeating: "é", count: 500))), ("reward", .string(String(repeating: "9", count: 120)))]),
        body([("locationLatitude", 0), ("locationLongitude", 0.5), ("status", "FOUND")], removing: ["petName", "age", "reward"]),
    ]

    @Test("a change that tightens what no build sends, or loosens, accepts the current build's edge reports",
          arguments: [MockChange.microchipMax15, .emailRequired, .phoneDigits7To15, .unknownKeysIgnored, .optionalNullAccepted])
    func edgeReportsAccepted(_ change: MockChange) {
        for profile in BackendProfile.allCases {
            let contract = Self.backend(profile), changed = Self.backend(profile, [change])
            for body in Self.edgeReports {
                #expect(contract.answer(createRequest(body)).status == 201, "\(profile): the contract refused \(body)")
                let response = changed.answer(createRequest(body))
                #expect(response.status == 201, "\(profile): \(response.bodyText)")
            }
        }
    }

    // MARK: Error order

    /// The fields in backend-contract.md's reporting order; an unknown key comes after them.
    static let fieldOrder = CreateRequestValidator.rules.map(\.name)

    /// Where a change's answer comes in the reporting order.
    static func position(of answer: MockChange.Answer) -> Int {
        answer.code == "INVALID_FIELD" ? fieldOrder.count : fieldOrder.firstIndex(of: answer.field) ?? -1
    }

    @Test("a change's refusal comes at its field's place in the documented order", arguments: MockChange.allCases.filter { $0.answer != nil })
    func refusalInOrder(_ change: MockChange) throws {
        let answer = try #require(change.answer)
        let probe = try #require(Self.probes.first { $0.change == change }?.bodies.first)
        let position = Self.position(of: answer)
        #expect(position >= 0, "\(answer.field) is not a field")
        for profile in BackendProfile.allCases {
            let backend = Self.backend(profile, [change])
            var earlier = probe
            earlier["species"] = nil
            let first = backend.answer(createRequest(earlier))
            if position < Self.fieldOrder.firstIndex(of: "species")! {
                Self.expectAnswer(first, answer, profile)
            } else {
                expectError(first, 400, "MISSING_VALUE", field: "species")
            }
            var later = probe
            later["reward"] = 5
            let second = backend.answer(createRequest(later))
            if position < Self.fieldOrder.firstIndex(of: "reward")! {
                Self.expectAnswer(second, answer, profile)
            } else {
                expectError(second, 400, "INVALID_FORMAT", field: "reward")
            }
        }
    }

    @Test("a changed rule broken another way answers as the contract does for that break")
    func otherBreaksKeepTheirAnswers() {
        let production = Self.backend(.production, Set(MockChange.allCases).subtracting([.optionalNullAccepted]))
        let blankName = production.answer(createRequest(Self.body([("petName", "  ")])))
        expectError(blankName, 400, "MISSING_VALUE", field: "petName")
        #expect(message(blankName) == "cannot be empty")
        let booleanAge = production.answer(createRequest(Self.body([("petName", "Rex"), ("age", true)], removing: ["breed"])))
        expectError(booleanAge, 400, "INVALID_FORMAT", field: "age")
        #expect(message(booleanAge) == "Expected string, received boolean")
        let noStatus = production.answer(createRequest(Self.body([("age", "3")], removing: ["breed", "status"])))
        expectError(noStatus, 400, "MISSING_VALUE", field: "status")
        #expect(message(noStatus) == "Required")
        let lettersPhone = production.answer(createRequest(Self.body([("age", "3"), ("phone", "n/a")], removing: ["breed"])))
        expectError(lettersPhone, 400, "INVALID_FORMAT", field: "phone")
        #expect(message(lettersPhone) == "invalid phone format")
    }

    // MARK: What the changed contract stores

    @Test("age-as-text stores and answers age as the text sent")
    func ageAsTextEcho() {
        let backend = Self.backend(.production, [.ageAsText])
        let created = backend.answer(createRequest(Self.body([("age", "7")])))
        #expect(created.status == 201, "\(created.bodyText)")
        #expect(json(created)["age"] == "7")
        let id = json(created)["id"]?.stringValue ?? ""
        #expect(backend.storedAnnouncement(id: id)?["age"] == "7")
        let refused = backend.answer(createRequest(Self.body([("age", "0")])))
        expectError(refused, 400, "INVALID_FORMAT", field: "age")
        #expect(message(refused) == "age must be a positive integer")
    }

    @Test("unknown-keys-ignored stores none of the ignored keys; optional-null-accepted stores null")
    func loosenedEcho() {
        let ignoring = Self.backend(.strict, [.unknownKeysIgnored])
        let withExtra = json(ignoring.answer(createRequest(Self.body([("caregiverPhone", "+48600700800"), ("id", "mine")]))))
        #expect(withExtra["caregiverPhone"] == nil)
        #expect(withExtra["id"] != "mine")
        let nulls = Self.backend(.strict, [.optionalNullAccepted])
        let withNulls = json(nulls.answer(createRequest(Self.body([("breed", nil), ("age", nil)]))))
        #expect(withNulls["breed"] == .null && withNulls["age"] == .null)
        #expect(withNulls["species"] == "DOG")
    }

    // MARK: Combinations

    @Test("both status renames: the answer names the values of the contract served")
    func bothStatusRenames() {
        for profile in BackendProfile.allCases {
            let backend = Self.backend(profile, [.statusMissingRenamedLost, .statusFoundRenamedSighted])
            for status: JSONValue in ["MISSING", "FOUND", "lost"] {
                let response = backend.answer(createRequest(Self.body([("status", status)])))
                Self.expectAnswer(response, .status(allowing: ["LOST", "SIGHTED"]), profile)
            }
            for status: JSONValue in ["LOST", "SIGHTED", " LOST "] {
                #expect(backend.answer(createRequest(Self.body([("status", status)]))).status == 201, "\(profile) \(status)")
            }
        }
    }

    @Test("changes combine: a text age is capped, a removed and ignored breed is not stored, a null required email is refused")
    func changesCombine() throws {
        let textAge = Self.backend(.production, [.ageAsText, .ageMax30])
        Self.expectAnswer(textAge.answer(createRequest(Self.body([("age", "31")]))), MockChange.Answer.ageAtMost30, .production)
        #expect(textAge.answer(createRequest(Self.body([("age", "30")]))).status == 201)

        let ignoredBreed = Self.backend(.strict, [.breedRemoved, .unknownKeysIgnored])
        let created = ignoredBreed.answer(createRequest(Self.body([("breed", "Beagle")])))
        #expect(created.status == 201)
        #expect(json(created)["breed"] == .null)

        let nullEmail = Self.backend(.production, [.emailRequired, .optionalNullAccepted])
        let refused = nullEmail.answer(createRequest(Self.body([("email", nil)])))
        expectError(refused, 400, "INVALID_FORMAT", field: "email")
        #expect(message(refused) == "Expected string, received null")
        let noContact = nullEmail.answer(createRequest(Self.body([("phone", nil)], removing: ["email"])))
        Self.expectAnswer(noContact, try #require(MockChange.emailRequired.answer), .production)
    }

    @Test("a change and a planted defect combine")
    func changeWithDefect() {
        let generic = Self.backend(.production, [.statusMissingRenamedLost], defects: [.messagesGeneric])
        let refused = generic.answer(createRequest(Self.body([("status", "MISSING")])))
        expectError(refused, 400, "INVALID_FORMAT", field: "status")
        #expect(message(refused) == "Validation failed")

        let anyCase = Self.backend(.strict, [.statusMissingRenamedLost], defects: [.createStatusCaseInsensitive])
        #expect(anyCase.answer(createRequest(Self.body([("status", "lost")]))).status == 201)
        #expect(anyCase.answer(createRequest(Self.body([("status", "missing")]))).status == 400)

        let nullContact = Self.backend(.production, [.optionalNullAccepted])
        let bothNull = nullContact.answer(createRequest(Self.body([("email", nil), ("phone", nil)])))
        expectError(bothNull, 400, "MISSING_CONTACT", field: "contact")
        let unchecked = Self.backend(.production, [.optionalNullAccepted], defects: [.createContactUnchecked])
        #expect(unchecked.answer(createRequest(Self.body([("email", nil), ("phone", nil)]))).status == 201)
    }

    // MARK: Names and the server

    @Test("parseList reads a comma list and names an unknown or empty name")
    func parseList() throws {
        #expect(try MockChange.parseList("breed-removed, age-max-30") == [.breedRemoved, .ageMax30])
        #expect(throws: MockChangeParseError(name: "breed-remove")) { try MockChange.parseList("age-max-30,breed-remove") }
        #expect(MockChangeParseError(name: "breed-remove").description == "unknown change 'breed-remove' (see --change list)")
        #expect(throws: MockChangeParseError(name: "")) { try MockChange.parseList("age-max-30,,breed-removed") }
        #expect(Set(MockChange.allCases.map(\.name)).count == MockChange.allCases.count)
        for change in MockChange.allCases {
            #expect(change.description == "\(change.name): \(change.summary)")
            #expect(!change.summary.isEmpty)
        }
    }

    @Test("the HTTP server's backend serves the changes of its options")
    func serverPassesChanges() {
        var options = MockServerOptions()
        options.changes = [.nullIslandRefused, .emailRequired]
        #expect(MockHTTPServer(options: options).backend.changes == [.nullIslandRefused, .emailRequired])
    }
}
