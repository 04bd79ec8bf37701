import Foundation
import PetSpotModel

/// The check `run` makes of its admin token before anything is created: one delete of an
/// unknown id with the token, which changes nothing on the target.
///
/// backend-contract.md documents two answers to it: 404 (the token is the server's, the id
/// unknown) and 401 (the token is not the server's; the token is checked before the id). Any
/// other answer, or none, means the deletes of the run (its contracts' and its cleanup's) cannot
/// be trusted to work: a setup error, told before anything is created rather than as leftovers.
package enum AdminTokenCheck {
    /// What the answer to the check says.
    package enum Outcome: Sendable, Equatable {
        /// 404: the token is accepted.
        case accepted
        /// 401: the token is not the server's.
        case refused
        /// Any other answer, or none: what it means for the run.
        case unexpected(String)
    }

    /// `DELETE /api/admin/v1/announcements/{a fresh random id}` with `token`.
    package static func request(token: String) -> TransportRequest {
        BackendTarget.adminDeleteRequest(AnnouncementPath(uuid: UUID()), authorization: token)
    }

    /// What `answer` says about a token of `tokenBytes` bytes.
    package static func outcome(of answer: Result<TransportResponse, TransportError>, tokenBytes: Int) -> Outcome {
        switch answer {
        case .success(let response) where response.status == 404: return .accepted
        case .success(let response) where response.status == 401: return .refused
        case .success(let response): return .unexpected(meaning(ofStatus: response.status, tokenBytes: tokenBytes))
        case .failure(.timedOut):
            return .unexpected("it timed out (--timeout): the server does not answer a delete with this token, so the run could not delete what it creates")
        case .failure(let error):
            return .unexpected(
                "\(error.description); the server answered the run's first request but not this one: a server that drops the "
                    + "connection on a header it cannot take does this (the token is \(tokenBytes) bytes)")
        }
    }

    /// What a `status` other than 404 and 401 means as the answer to the check.
    package static func meaning(ofStatus status: Int, tokenBytes: Int) -> String {
        switch status {
        case 431:
            return "Request Header Fields Too Large: the token (\(tokenBytes) bytes) is too long for the server's headers"
        case 413:
            return "Payload Too Large: the server refuses the request's size (the token is \(tokenBytes) bytes)"
        case 400:
            return "Bad Request before the token was judged: the server could not read the request (a token it cannot take in a header?)"
        case 403:
            return "Forbidden: the server, or a proxy in front of it, refuses this delete; backend-contract.md answers 401 to a wrong token"
        case 405:
            return "Method Not Allowed: DELETE does not reach the admin route (a proxy in front of the API?)"
        case 429:
            return "Too Many Requests: the server limits the run's rate; run again later or with a lower --concurrency"
        case 200..<300:
            return "a delete of an unknown id must answer 404: a success means the server does not tell unknown ids apart, so no delete "
                + "of the run (its contracts' or its cleanup's) could be trusted"
        case 300..<400:
            return "a redirect, not followed for a DELETE: the admin route is elsewhere or behind a login, so the run's deletes would not reach it"
        case 500..<600:
            return "the server failed on a delete with this token, so the run's deletes would fail too"
        default:
            return "not an answer backend-contract.md documents for a delete of an unknown id (404 with the server's token, 401 with another)"
        }
    }
}
