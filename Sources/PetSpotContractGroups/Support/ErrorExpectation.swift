import Foundation
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// An error answer a contract expects: status, envelope code, `field`, and production's message.
package struct ErrorExpectation: Sendable, CustomStringConvertible {
    /// What the envelope's `field` must be.
    package enum Field: Sendable {
        /// Not checked (the doc does not say).
        case unchecked
        /// Must be absent.
        case absent
        /// Must be this name.
        case named(String)
    }

    /// The HTTP status.
    package var status: Int
    /// The envelope's `code`.
    package var code: String
    /// The envelope's `field`.
    package var field: Field
    /// Production's `message` (compared in the production profile only: the strict mock words
    /// its own), or `nil` when not compared.
    package var message: String?

    /// An expectation.
    package init(_ status: Int, _ code: String, field: Field = .unchecked, message: String? = nil) {
        self.status = status
        self.code = code
        self.field = field
        self.message = message
    }

    /// `404 NOT_FOUND "Resource not found"`.
    package var description: String {
        var text = "\(status) \(code)"
        switch field {
        case .unchecked: break
        case .absent: text += " (no field)"
        case .named(let name): text += " field=\(name)"
        }
        if let message { text += " \"\(message)\" (production's message)" }
        return text
    }

    /// What is wrong with `answer`, or `nil`: status, a JSON error envelope matching the schema,
    /// code, field, and in the production profile the message.
    package func problem(
        _ answer: Result<TransportResponse, TransportError>, profile: BackendProfile, schemas: ContractSchemas
    ) -> String? {
        let response: TransportResponse
        switch answer {
        case .failure(let error): return "no answer: \(error.description)"
        case .success(let value): response = value
        }
        guard response.status == status else { return "expected \(status) \(code), got status \(response.status)" }
        guard let body = try? JSONValue.parse(response.body), let error = body["error"]?.objectValue else {
            return "expected the JSON error envelope, got \(response.body.isEmpty ? "an empty body" : "a body that is not one")"
        }
        let violations = schemas.violations(of: body, against: .errorEnvelope)
        if !violations.isEmpty { return "error body does not match error-envelope.schema.json: " + violations.prefix(3).joined(separator: "; ") }
        let actualCode = error["code"]?.stringValue ?? "(none)"
        if actualCode != code { return "expected code \(code), got \(actualCode)" }
        switch field {
        case .unchecked: break
        case .absent:
            if let present = error["field"] { return "expected no field, got field \(present.serialized())" }
        case .named(let name):
            if error["field"]?.stringValue != name { return "expected field \(name), got \(error["field"]?.serialized() ?? "none")" }
        }
        if profile == .production, let message {
            let actual = error["message"]?.stringValue ?? ""
            if actual != message { return "expected production's message \"\(message)\", got \"\(actual)\"" }
        }
        return nil
    }
}

extension ContractSession {
    /// The profile the backend should answer as (strict when there is no backend).
    package var profile: BackendProfile { backend?.profile ?? .strict }

    /// What is wrong with `answer` against `expected`, or `nil`.
    package func problem(_ answer: Result<TransportResponse, TransportError>, _ expected: ErrorExpectation) -> String? {
        expected.problem(answer, profile: profile, schemas: schemas)
    }
}
