import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel

/// What production accepts must still be accepted: a backend that got stricter is drift too.
/// A 20-digit microchip number (no length cap), a date past the month's end (the JavaScript
/// parser rolls 2025-02-30 over), and an empty optional text (production: 201 with `null`; the
/// strict profile refuses it with 400 `INVALID_FORMAT`, as backend-contract.md says).
struct AcceptanceContracts: ContractGroup {
    let name = "production acceptance"
    // Contract names, as the report shows them.
    static let longMicrochip = "a 20-digit microchip number is accepted and echoed"
    static let rolledDate = "lastSeenDate 2025-02-30 (rolled over by the JavaScript parser) is accepted and echoed as sent"
    static let emptyOptional = "an empty optional text is accepted and comes back null (strict profile: refused)"
    static let contracts = [longMicrochip, rolledDate, emptyOptional]

    /// Applies whenever the session has a backend.
    func applies(to session: ContractSession) -> Bool { session.backend != nil }

    func check(_ session: ContractSession) async throws(RunnerError) {
        guard let backend = session.backend, session.reserve(3, group: name, contracts: Self.contracts) else { return }

        var long = backend.basePayload(session)
        let microchip = backend.microchips.next() + "12345"
        long["microchipNumber"] = .string(microchip)
        await accepted(Self.longMicrochip, long, echo: ["microchipNumber": .string(microchip)], session: session, backend: backend)

        var rolled = backend.basePayload(session)
        rolled["lastSeenDate"] = "2025-02-30"
        await accepted(Self.rolledDate, rolled, echo: ["lastSeenDate": "2025-02-30"], session: session, backend: backend)

        var empty = backend.basePayload(session)
        empty["petName"] = ""
        switch backend.profile {
        case .production:
            await accepted(Self.emptyOptional, empty, echo: ["petName": .null], session: session, backend: backend)
        case .strict:
            let expected = ErrorExpectation(400, "INVALID_FORMAT", field: .named("petName"))
            let request = BackendTarget.createRequest(.object(empty))
            let answer = await backend.exchange(request)
            if case .success(let response) = answer.response, response.status == 201,
                let id = (try? JSONValue.parse(response.body))?["id"]?.stringValue
            {
                backend.remember(id, microchip: empty["microchipNumber"]?.stringValue)
            }
            session.record(name, Self.emptyOptional, session.problem(answer.response, expected), answer, expected: expected.description)
        }
    }

    /// Creates `body`, which must answer 201 echoing `echo`.
    private func accepted(
        _ contract: String, _ body: JSONObject, echo: [String: JSONValue], session: ContractSession, backend: BackendTarget
    ) async {
        let expected = "201 with " + echo.map { "\"\($0.key)\": \($0.value.serialized())" }.sorted().joined(separator: ", ")
        switch await backend.create(body) {
        case .failure(let setup):
            session.record(
                name, contract, "production accepts this request; the backend answered \(AdminDeleteContracts.statusText(setup.response))",
                request: setup.request, expected: expected, response: setup.response)
        case .success(let created):
            var problem: String?
            for (key, value) in echo.sorted(by: { $0.key < $1.key }) where created.answer[key] != value {
                problem = "\(key) came back as \(created.answer[key]?.serialized() ?? "missing"), expected \(value.serialized())"
                break
            }
            session.record(name, contract, problem, created.exchange, expected: expected, password: created.password)
        }
    }
}
