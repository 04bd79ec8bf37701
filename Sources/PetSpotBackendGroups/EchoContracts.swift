import Foundation
import PetSpotContractGroups
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

/// What create and details echo: text fields petName, species, breed, sex, description and
/// reward HTML-stripped as the `xss` library does (backend-contract.md's examples: tags dropped,
/// `<script>`/`<style>` bodies removed, a stray `>` as `&gt;`), every value otherwise as sent
/// (validated trimmed, stored untrimmed), numbers as the JSON numbers sent.
package struct EchoContracts: BackendContractGroup {
    package let name = "echo"
    package let surfaces: Set<MockDefect.Surface> = [.echo]

    /// The group.
    package init() {}

    // Contract names, as the report shows them.
    package static let stripped = "text fields come back HTML-stripped (create and details)"
    package static let untrimmed = "values come back as sent, untrimmed (create and details)"
    package static let numbers = "numbers come back as the JSON numbers sent (create and details)"
    static let contracts = [stripped, untrimmed, numbers]

    /// One echoed field: what is sent and what must come back.
    struct Field {
        /// The field.
        let name: String
        /// The value sent.
        let sent: JSONValue
        /// The value that must come back.
        let echoed: JSONValue
    }

    /// Text with markup, and what production's sanitiser makes of it.
    static let strippedFields: [Field] = [
        Field(name: "petName", sent: "<b>Rex</b>", echoed: "Rex"),
        Field(name: "breed", sent: "Lab<script>alert(1)</script>rador", echoed: "Labrador"),
        Field(name: "sex", sent: " <i>MALE</i> ", echoed: " MALE "),
        Field(name: "description", sent: "  Likes > treats  ", echoed: "  Likes &gt; treats  "),
        Field(name: "reward", sent: "<style>p{color:red}</style>100 PLN", echoed: "100 PLN"),
    ]

    /// Values with surrounding spaces (no markup), which come back exactly as sent.
    static func untrimmedFields(microchip: String) -> [Field] {
        [
            Field(name: "species", sent: "  DOG  ", echoed: "  DOG  "),
            Field(name: "email", sent: " rex@example.com ", echoed: " rex@example.com "),
            Field(name: "phone", sent: " +48 600 700 800 ", echoed: " +48 600 700 800 "),
            Field(name: "microchipNumber", sent: .string(" \(microchip) "), echoed: .string(" \(microchip) ")),
            Field(name: "lastSeenDate", sent: " 2025-06-01 ", echoed: " 2025-06-01 "),
        ]
    }

    /// Numbers, which come back as the same JSON numbers.
    static let numberFields: [Field] = [
        Field(name: "locationLatitude", sent: -33.8688, echoed: -33.8688),
        Field(name: "locationLongitude", sent: 151.2093, echoed: 151.2093),
        Field(name: "age", sent: 7, echoed: 7),
    ]

    package func contracts(in session: ContractSession) -> [String] { Self.contracts }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        var body = backend.basePayload()
        let microchip = body["microchipNumber"]?.stringValue ?? backend.microchip()
        let groups: [(String, [Field])] = [
            (Self.stripped, Self.strippedFields), (Self.untrimmed, Self.untrimmedFields(microchip: microchip)), (Self.numbers, Self.numberFields),
        ]
        for field in groups.flatMap(\.1) { body[field.name] = field.sent }
        let created: GroupBackend.Created
        switch try await backend.create(body) {
        case .failure(let setup):
            backend.recordSetupFailure(Self.contracts, setup, what: "creating an announcement with markup and spaces")
            return
        case .success(let value): created = value
        }
        let read = try await backend.exchange(BackendTarget.getRequest(created.path.details))
        let details = successObject(read.response, status: 200)
        for (contract, fields) in groups {
            let expected = "{" + fields.map { "\"\($0.name)\": \($0.echoed.serialized())" }.joined(separator: ", ") + "}"
            if let problem = Self.mismatch(fields, in: created.answer, where: "create") {
                backend.record(contract, problem, created.exchange, expected: expected, password: created.password)
                continue
            }
            switch details {
            case .failure(let problem):
                backend.record(contract, "details: \(problem)", read, expected: expected)
            case .success(let object):
                backend.record(contract, Self.mismatch(fields, in: object, where: "details"), read, expected: expected)
            }
        }
    }

    /// The first field of `fields` that `object` does not echo as expected, as a sentence.
    static func mismatch(_ fields: [Field], in object: JSONObject, where place: String) -> String? {
        for field in fields where object[field.name] != field.echoed {
            return "\(place) answered \(field.name) \(object[field.name]?.serialized() ?? "missing") for \(field.sent.serialized()), "
                + "expected \(field.echoed.serialized())"
        }
        return nil
    }
}
