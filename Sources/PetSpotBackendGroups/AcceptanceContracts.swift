import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

/// What production accepts must still be accepted: a backend that got stricter is drift too.
/// A 20-digit microchip number (no length cap), a date past the month's end (the JavaScript
/// parser rolls 2025-02-30 over), and an empty optional text (production: 201 with `null`; the
/// strict profile refuses it with 400 `INVALID_FORMAT`, as backend-contract.md says).
package struct AcceptanceContracts: BackendContractGroup {
    package let name = "production acceptance"
    // An empty optional text kept as "" is an echo defect this group sees too.
    package let surfaces: Set<MockDefect.Surface> = [.create, .echo]

    /// The group.
    package init() {}

    // Contract names, as the report shows them.
    package static let longMicrochip = "a 20-digit microchip number is accepted and echoed"
    package static let rolledDate = "lastSeenDate 2025-02-30 (rolled over by the JavaScript parser) is accepted and echoed as sent"
    package static let emptyOptional = "an empty optional text is accepted and comes back null (strict profile: refused)"
    static let contracts = [longMicrochip, rolledDate, emptyOptional]

    package func contracts(in session: ContractSession) -> [String] { Self.contracts }

    package func check(_ backend: GroupBackend) async throws(GroupStop) {
        var long = backend.basePayload()
        let microchip = backend.microchip() + "12345"
        long["microchipNumber"] = .string(microchip)
        try await accepted(Self.longMicrochip, long, echo: ["microchipNumber": .string(microchip)], backend: backend)

        var rolled = backend.basePayload()
        rolled["lastSeenDate"] = "2025-02-30"
        try await accepted(Self.rolledDate, rolled, echo: ["lastSeenDate": "2025-02-30"], backend: backend)

        var empty = backend.basePayload()
        empty["petName"] = ""
        switch backend.profile {
        case .production:
            try await accepted(Self.emptyOptional, empty, echo: ["petName": .null], backend: backend)
        case .strict:
            let expected = ErrorExpectation(400, "INVALID_FORMAT", field: .named("petName"))
            let answer = try await backend.exchange(BackendTarget.createRequest(.object(empty)))
            backend.record(Self.emptyOptional, backend.problem(answer.response, expected), answer, expected: expected.description)
        }
    }

    /// Creates `body`, which must answer 201 echoing `echo`.
    private func accepted(_ contract: String, _ body: JSONObject, echo: [String: JSONValue], backend: GroupBackend) async throws(GroupStop) {
        let expected = "201 with " + echo.map { "\"\($0.key)\": \($0.value.serialized())" }.sorted().joined(separator: ", ")
        switch try await backend.create(body) {
        case .failure(let setup):
            backend.record(
                contract, "production accepts this request; the backend answered \(AdminDeleteContracts.statusText(setup.response))",
                request: setup.request, expected: expected, response: setup.response)
        case .success(let created):
            var problem: String?
            for (key, value) in echo.sorted(by: { $0.key < $1.key }) where created.answer[key] != value {
                problem = "\(key) came back as \(created.answer[key]?.serialized() ?? "missing"), expected \(value.serialized())"
                break
            }
            backend.record(contract, problem, created.exchange, expected: expected, password: created.password)
        }
    }
}
