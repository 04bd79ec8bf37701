// PetSpotApp's submission, for the snippet check: the names docs/ADAPTERS.md's version 2 adapter
// calls (AnnouncementService(baseURL:session:), ReportSubmission(service:body:photo:),
// submitTapped(), tryAgainTapped(), cancelTapped(), SubmissionState, PhotoAttachment), with the
// behaviour of report-flows.md ("Submission"): the create, then the photo upload with Basic auth;
// on a failure the no-connection or something-went-wrong alert; Try Again repeats both requests.
// An app's real module has its own code behind names of its own.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PetSpotJSON

/// The photo the user attached: its name, type and bytes.
public struct PhotoAttachment: Sendable {
    public let fileName: String
    public let mimeType: String
    public let data: Data

    public init(fileName: String, mimeType: String, data: Data) {
        self.fileName = fileName
        self.mimeType = mimeType
        self.data = data
    }
}

/// An announcement the backend created.
public struct CreatedAnnouncement: Sendable {
    public let id: String
    public let managementPassword: String
}

/// Why a request of the submission failed, and the alert the screen shows for it.
public enum SubmissionError: Error, Sendable {
    /// No answer: a transport error or a time-out.
    case noConnection
    /// An answer other than 201, or a create answer without id and password.
    case server(status: Int)

    /// The alert's text (report-flows.md).
    public var alertMessage: String {
        switch self {
        case .noConnection: "No connection. Please check your network and try again."
        case .server: "Something went wrong. Please try again later."
        }
    }
}

/// The app's API client for the create and the photo upload, against `baseURL` through `session`.
public struct AnnouncementService: Sendable {
    let baseURL: URL
    let session: URLSession

    public init(baseURL: URL, session: URLSession) {
        self.baseURL = baseURL
        self.session = session
    }

    /// `POST /api/v1/announcements`: the created announcement.
    public func createAnnouncement(body: Data) async throws(SubmissionError) -> CreatedAnnouncement {
        var request = URLRequest(url: baseURL.appendingPathComponent("api/v1/announcements"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        let (status, answer) = try await send(request)
        guard status == 201 else { throw .server(status: status) }
        guard let created = try? JSONValue.parse(answer), let id = created["id"]?.stringValue,
              let password = created["managementPassword"]?.stringValue
        else { throw .server(status: status) }
        return CreatedAnnouncement(id: id, managementPassword: password)
    }

    /// `POST /api/v1/announcements/{id}/photos` with Basic auth `id:managementPassword`.
    public func uploadPhoto(_ photo: PhotoAttachment, for announcement: CreatedAnnouncement) async throws(SubmissionError) {
        let boundary = "Boundary-\(UUID().uuidString)"
        var request = URLRequest(url: baseURL.appendingPathComponent("api/v1/announcements/\(announcement.id)/photos"))
        request.httpMethod = "POST"
        request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        let credentials = Data("\(announcement.id):\(announcement.managementPassword)".utf8).base64EncodedString()
        request.setValue("Basic \(credentials)", forHTTPHeaderField: "Authorization")
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(photo.fileName)\"\r\n".utf8)
        body.append(Data("Content-Type: \(photo.mimeType)\r\n\r\n".utf8))
        body.append(photo.data)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        request.httpBody = body
        let (status, _) = try await send(request)
        guard status == 201 else { throw .server(status: status) }
    }

    /// Sends `request`, cancelled at the session's request time-out. (URLSession on Linux cuts a
    /// time-out to whole seconds, 0.5 s to none at all: there the request's own time-out is the
    /// session's rounded up, and the cancel keeps the exact deadline.)
    private func send(_ request: URLRequest) async throws(SubmissionError) -> (Int, Data) {
        let session = session
        let deadline = session.configuration.timeoutIntervalForRequest
        #if canImport(FoundationNetworking)
        var request = request
        request.timeoutInterval = deadline.rounded(.up)
        #endif
        let outcome: Result<(Data, URLResponse), any Error> = await withCheckedContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(returning: .failure(error))
                } else if let response {
                    continuation.resume(returning: .success((data ?? Data(), response)))
                } else {
                    continuation.resume(returning: .failure(URLError(.badServerResponse)))
                }
            }
            task.resume()
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { task.cancel() }
        }
        guard case .success(let (data, response)) = outcome, let http = response as? HTTPURLResponse else { throw .noConnection }
        return (http.statusCode, data)
    }
}

/// What the report screen shows after the user tapped submit or Try Again.
public enum SubmissionState: Sendable {
    /// Both requests succeeded: the app leaves the flow (Missing: the summary with the password).
    case submitted(managementPassword: String)
    /// The screen stays with this alert, offering Try Again and Cancel.
    case alert(message: String)
}

/// The submit button's logic on the last step of a report: the report's body, its photo, the
/// two requests, the alert.
@MainActor
public final class ReportSubmission {
    let service: AnnouncementService
    let body: Data
    let photo: () throws -> PhotoAttachment

    /// A report ready to send: `body` as the flow built it, `photo` read when it is sent.
    public init(service: AnnouncementService, body: Data, photo: @escaping () throws -> PhotoAttachment) {
        self.service = service
        self.body = body
        self.photo = photo
    }

    /// The user taps the submit button.
    public func submitTapped() async -> SubmissionState {
        do {
            let attachment = try photo()
            let created = try await service.createAnnouncement(body: body)
            try await service.uploadPhoto(attachment, for: created)
            return .submitted(managementPassword: created.managementPassword)
        } catch let error as SubmissionError {
            return .alert(message: error.alertMessage)
        } catch {
            return .alert(message: SubmissionError.server(status: 0).alertMessage)
        }
    }

    /// The user taps Try Again on the alert: both requests again, from the start.
    public func tryAgainTapped() async -> SubmissionState { await submitTapped() }

    /// The user taps Cancel on the alert: the screen stays, every input kept.
    public func cancelTapped() {}
}
