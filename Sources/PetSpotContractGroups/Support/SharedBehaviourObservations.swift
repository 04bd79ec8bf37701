import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// The behaviour every answer shares, observed on every budgeted answer of the run: CORS is
/// open (`Access-Control-Allow-Origin: *`), and the body is what its Content-Type says (JSON on
/// the API, the image type on `/images`, nothing for `HEAD` and 204).
package struct SharedBehaviourObservations: Sendable {
    /// A failing answer.
    package struct Failure: Sendable {
        /// The request.
        package var request: TransportRequest
        /// Its answer, the body cut after ``AnswerExcerpt/keptBodyBytes``.
        package var response: TransportResponse
        /// The full length of the answer's body.
        package var bodyLength: Int
        /// What is wrong.
        package var problem: String
    }

    /// The counts and first failures of one rule.
    package struct Rule: Sendable {
        /// Answers that kept the rule.
        package var passed = 0
        /// Answers that broke it.
        package var failed = 0
        /// The first few that broke it.
        package var failures: [Failure] = []

        mutating func note(_ problem: String?, _ request: TransportRequest, _ response: TransportResponse) {
            guard let problem else {
                passed += 1
                return
            }
            failed += 1
            if failures.count < ContractRecorder.maxFailuresKept {
                let kept = AnswerExcerpt.kept(response)
                failures.append(Failure(request: request, response: kept.response, bodyLength: kept.bodyLength, problem: problem))
            }
        }
    }

    /// `Access-Control-Allow-Origin: *` on every answer.
    package var cors = Rule()
    /// Content-Type and body agree.
    package var contentType = Rule()

    /// Nothing observed yet.
    package init() {}

    /// Checks one answer.
    package mutating func observe(_ request: TransportRequest, _ response: TransportResponse) {
        cors.note(Self.corsProblem(response), request, response)
        contentType.note(Self.contentTypeProblem(request, response), request, response)
    }

    /// What is wrong with the answer's CORS header, or `nil`.
    static func corsProblem(_ response: TransportResponse) -> String? {
        let value = response.header("Access-Control-Allow-Origin")
        return value == "*" ? nil : "Access-Control-Allow-Origin is \(value.map { "\"\($0)\"" } ?? "missing"), expected *"
    }

    /// The media type of a Content-Type value, lower case, without parameters.
    package static func mediaType(_ value: String?) -> String? {
        value.map { ($0.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// The media type `/images` serves a file extension with.
    static func imageMediaType(extension ext: String) -> String {
        switch ext.lowercased() {
        case "jpg": "image/jpeg"
        case "tif": "image/tiff"
        default: "image/\(ext.lowercased())"
        }
    }

    /// What is wrong with the answer's Content-Type and body, or `nil`.
    static func contentTypeProblem(_ request: TransportRequest, _ response: TransportResponse) -> String? {
        if request.method == "HEAD" || response.status == 204 || response.status == 304 {
            return response.body.isEmpty ? nil : "a \(request.method == "HEAD" ? "HEAD answer" : "\(response.status) answer") has a body of \(response.body.count) bytes"
        }
        let type = mediaType(response.header("Content-Type"))
        let path = String(request.path.prefix { $0 != "?" })
        if path.hasPrefix("/images/"), response.status == 200 {
            let ext = path.split(separator: ".").last.map(String.init) ?? ""
            let expected = imageMediaType(extension: ext)
            return type == expected ? nil : "/images answered Content-Type \(type ?? "none"), expected \(expected)"
        }
        guard type == "application/json" else {
            return "Content-Type is \(type ?? "missing"), expected application/json (status \(response.status))"
        }
        return (try? JSONValue.parse(response.body)) == nil ? "the body is labelled application/json but is not JSON" : nil
    }

    /// The management password a 201 create answer carries, if any.
    static func managementPassword(in request: TransportRequest, _ response: TransportResponse) -> String? {
        guard request.method == "POST", response.status == 201, response.body.count < 64 * 1024,
            let password = (try? JSONValue.parse(response.body))?["managementPassword"]?.stringValue, !password.isEmpty
        else { return nil }
        return password
    }
}
