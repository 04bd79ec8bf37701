import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// A contract's problem as an error value.
package struct ProblemText: Error, Sendable, CustomStringConvertible {
    /// The sentence.
    package let description: String

    /// A problem.
    package init(_ description: String) { self.description = description }
}

/// The body of a successful answer as a JSON object, or what is wrong.
package func successObject(_ answer: Result<TransportResponse, TransportError>, status: Int) -> Result<JSONObject, ProblemText> {
    switch answer {
    case .failure(let error): return .failure(ProblemText("no answer: \(error.description)"))
    case .success(let response):
        guard response.status == status else { return .failure(ProblemText("expected \(status), got status \(response.status)")) }
        guard let object = (try? JSONValue.parse(response.body))?.objectValue else {
            return .failure(ProblemText("expected a JSON object, got \(response.body.isEmpty ? "an empty body" : "another body")"))
        }
        return .success(object)
    }
}
