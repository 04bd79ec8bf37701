// The example adapter's submission code (protocol version 2), written as an iOS app writes it from
// report-flows.md ("Submission"): a small service over URLSession that sends the create and the
// photo upload to the backend, and the report screen's logic around it: the alert on a failure,
// Try Again, Cancel. Every submission defect (Defects.swift, field `submission`) is a switch read
// here, at the place an app would get that part wrong.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PetSpotJSON

/// The alert texts of report-flows.md ("Submission").
enum AlertMessage {
    /// No answer at all: refused, reset or closed connection, time-out, any transport error.
    static let noConnection = "No connection. Please check your network and try again."
    /// An answer that is not 201, or a create answer the app cannot read.
    static let somethingWentWrong = "Something went wrong. Please try again later."
}

/// Why one request of the submission failed.
enum SubmissionFailure: Error, Equatable {
    /// No answer: a transport error; `timedOut` when the request time-out passed first.
    case noAnswer(timedOut: Bool)
    /// An answer with this status (anything but 201).
    case status(Int)
    /// A 201 answer without what the app reads from it.
    case unreadableAnswer
}

/// An announcement the backend created: what the photo upload authenticates with.
struct CreatedAnnouncement: Sendable, Equatable {
    let id: String
    let managementPassword: String
}

/// The file part of the photo upload.
struct PhotoUpload: Sendable {
    let fileName: String
    let mimeType: String
    let bytes: Data
}

/// Which rule Try Again follows after a partial failure (the create answered 201, the upload failed).
enum SubmissionRule: String {
    /// report-flows.md's rule in this version: Try Again repeats both requests.
    case spec
    /// The later iteration's rule: Try Again retries only the upload, with the kept id and password.
    case later
}

/// The app's API client for the two requests of a submission, against the backend at `baseURL`.
///
/// Every request runs on a fresh connection (a session of its own, invalidated after it), so that
/// nothing is re-sent behind the app's back (libcurl, under URLSession on Linux, silently re-sends
/// a request whose reused connection died) and each request the network sees is one the app sent.
/// A request fails after `requestTimeout` seconds: the sessions have it as their request and
/// resource time-outs, and the service also cancels the task at that deadline, because
/// URLSession on Linux cuts the interval to whole seconds (0.5 s would fail at once).
struct SubmissionService: Sendable {
    /// Where the backend is, e.g. `http://127.0.0.1:53124`.
    let baseURL: URL
    /// Seconds a request may take, from its start to the end of its answer (above 0); `nil`
    /// leaves the sessions at URLSession's default (60 s without an answer), the planted
    /// protocol break `ignore-request-timeout`.
    let requestTimeout: Double?

    /// `POST /api/v1/announcements` with `body`; the created announcement on 201.
    /// - Throws: a status other than 201, no answer, or a 201 without `id` and `managementPassword`.
    func createAnnouncement(_ body: Data) async throws(SubmissionFailure) -> CreatedAnnouncement {
        var request = URLRequest(url: baseURL.appendingPathComponent("api/v1/announcements"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        let answer = try await send(request)
        guard answer.status == 201 else { throw .status(answer.status) }
        guard let created = try? JSONValue.parse(answer.body), let id = created["id"]?.stringValue,
              let password = created["managementPassword"]?.stringValue
        else { throw .unreadableAnswer }
        return CreatedAnnouncement(id: id, managementPassword: password)
    }

    /// `POST /api/v1/announcements/{id}/photos`: `photo` as the file part `photo`, with Basic auth
    /// `id:managementPassword` of `announcement`.
    /// - Parameter needsPhotoURL: the planted defect submit-upload-answer-needs-body: a 201 whose
    ///   body has no `photoUrl` string is taken for a failure.
    /// - Throws: a status other than 201, or no answer.
    func uploadPhoto(_ photo: PhotoUpload, to announcement: CreatedAnnouncement, needsPhotoURL: Bool) async throws(SubmissionFailure) {
        let boundary = "PetSpotBoundary-\(UUID().uuidString)"
        var request = URLRequest(
            url: baseURL.appendingPathComponent("api/v1/announcements").appendingPathComponent(announcement.id).appendingPathComponent("photos"))
        request.httpMethod = "POST"
        request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        let credentials = Data("\(announcement.id):\(announcement.managementPassword)".utf8).base64EncodedString()
        request.setValue("Basic \(credentials)", forHTTPHeaderField: "Authorization")
        var body = Data("--\(boundary)\r\n".utf8)
        body.append(Data("Content-Disposition: form-data; name=\"photo\"; filename=\"\(Self.quoted(photo.fileName))\"\r\n".utf8))
        body.append(Data("Content-Type: \(photo.mimeType)\r\n\r\n".utf8))
        body.append(photo.bytes)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        request.httpBody = body
        let answer = try await send(request)
        guard answer.status == 201 else { throw .status(answer.status) }
        if needsPhotoURL && (try? JSONValue.parse(answer.body))?["photoUrl"]?.stringValue == nil { throw .unreadableAnswer }
    }

    /// A file name inside a quoted header parameter, as browsers write it: `"`, CR and LF percent-encoded.
    static func quoted(_ fileName: String) -> String {
        fileName.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Sends `request` on a session of its own and waits for its answer or its deadline.
    private func send(_ request: URLRequest) async throws(SubmissionFailure) -> (status: Int, body: Data) {
        let configuration = URLSessionConfiguration.ephemeral
        if let requestTimeout {
            // Rounded up for URLSession on Linux, which truncates to whole seconds; the deadline below is exact.
            configuration.timeoutIntervalForRequest = requestTimeout.rounded(.up)
            configuration.timeoutIntervalForResource = requestTimeout.rounded(.up)
        }
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let timeout = requestTimeout
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
            if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { task.cancel() } }
        }
        switch outcome {
        case .success(let (body, response)):
            guard let http = response as? HTTPURLResponse else { throw .noAnswer(timedOut: false) }
            return (http.statusCode, body)
        case .failure(let error as URLError):
            // Nothing else cancels a task: a cancelled one met its deadline.
            throw .noAnswer(timedOut: error.code == .timedOut || error.code == .cancelled)
        case .failure:
            throw .noAnswer(timedOut: false)
        }
    }
}

/// The planted protocol break `crash-on-submit`: what a force-unwrapped `nil` in the submission
/// code prints before the process dies (with status 70 rather than a signal, so that no backtrace
/// is collected).
func crashInSubmissionCode() -> Never {
    FileHandle.standardError.write(Data("\(#fileID):\(#line): Fatal error: Unexpectedly found nil while unwrapping an Optional value\n".utf8))
    exit(70)
}

/// What the report screen shows after a step of the submission.
enum SubmissionAnswer: Equatable {
    /// The flow refused Continue (as in version 1): nothing was sent.
    case blocked(step: String, fields: [String])
    /// The build has no such flow (as in version 1): nothing was sent.
    case unavailable
    /// Both requests succeeded: the app leaves the flow (Missing: the summary shows the password).
    case submitted(managementPassword: String)
    /// The screen stays and shows this alert, with Try Again and Cancel.
    case alert(message: String)
    /// The alert was dismissed with Cancel; every input is kept.
    case cancelled
}

/// One report on its submit screen, from its `submit` question on.
struct ReportOnScreen {
    /// The flow, clock and what the user entered (kept across alerts and Cancel).
    var question: Question
    /// The create body the flow built from `question`'s inputs.
    var payload: JSONObject
    /// The app's client, configured from the submit question.
    let service: SubmissionService
    /// Where the photo's bytes are; read at each attempt.
    let photoPath: String
    /// Attempts made so far.
    var attempts = 0
    /// The first announcement created for this report (what the defects that keep it use).
    var firstCreated: CreatedAnnouncement?
    /// An announcement created by the last attempt whose upload then failed (the later rule's retry target).
    var uploadPending: CreatedAnnouncement?
}

/// The report screens the runner drives: submit, Try Again, Cancel, one report per `submit`
/// question, keyed by its id. Runs on the main actor, as the protocol loop does.
@MainActor
final class ReportScreens {
    let app: FlowApp
    let rule: SubmissionRule
    private var reports: [Int: ReportOnScreen] = [:]

    init(app: FlowApp, rule: SubmissionRule) {
        self.app = app
        self.rule = rule
    }

    func has(_ defect: String) -> Bool { app.has(defect) }

    /// Fills the flow with the question's inputs and, when it reaches submission, submits.
    func submit(_ question: Question, service: SubmissionService, photoPath: String) async -> SubmissionAnswer {
        switch app.answer(question) {
        case .blocked(let step, let fields):
            return .blocked(step: step, fields: fields)
        case .unavailable:
            return .unavailable
        case .submitted(let payload):
            var report = ReportOnScreen(question: question, payload: payload, service: service, photoPath: photoPath)
            let answer = await attempt(&report)
            reports[question.id] = report
            return answer
        }
    }

    /// Try Again on report `id`'s alert (or submit again after a Cancel); `nil` when no submit
    /// question with that id reached the submission.
    func tryAgain(report id: Int) async -> SubmissionAnswer? {
        guard var report = reports[id] else { return nil }
        let answer = await attempt(&report)
        reports[id] = report
        return answer
    }

    /// Cancel on report `id`'s alert: every input stays; `nil` for an unknown report.
    func cancel(report id: Int) -> SubmissionAnswer? {
        guard var report = reports[id] else { return nil }
        if has("submit-cancel-clears-optional") {
            var inputs = report.question.inputs
            for key in ["petName", "breed", "description", "reward", "chipNumber"] { inputs[key] = nil }
            let cleared = Question(id: id, flow: report.question.flow, timeZone: report.question.timeZone, now: report.question.now, inputs: inputs)
            if case .submitted(let payload) = app.answer(cleared) {
                report.question = cleared
                report.payload = payload
            }
        }
        reports[id] = report
        return .cancelled
    }

    /// One attempt: the create (unless the later rule retries only the upload), then the upload.
    private func attempt(_ report: inout ReportOnScreen) async -> SubmissionAnswer {
        report.attempts += 1
        let retry = report.attempts > 1
        let photo = readPhoto(report)
        let created: CreatedAnnouncement
        if rule == .later, let pending = report.uploadPending {
            created = pending
        } else {
            var payload = report.payload
            if retry && has("submit-retry-drops-microchip") { payload["microchipNumber"] = nil }
            if retry && has("submit-retry-untrimmed") { payload = untrimmed(payload, report.question) }
            let body = JSONValue.object(payload).serializedData()
            do {
                if has("submit-double-create") { _ = try? await report.service.createAnnouncement(body) }
                created = try await report.service.createAnnouncement(body)
            } catch {
                return alert(for: error)
            }
            if report.firstCreated == nil { report.firstCreated = created }
        }
        var target = created
        if retry, let first = report.firstCreated {
            if has("submit-upload-to-first-id") {
                target = first
            } else if has("submit-retry-stale-password") {
                target = CreatedAnnouncement(id: created.id, managementPassword: first.managementPassword)
            }
        }
        do {
            try await report.service.uploadPhoto(photo, to: target, needsPhotoURL: has("submit-upload-answer-needs-body"))
        } catch {
            report.uploadPending = created
            if has("submit-success-despite-upload-failure") { return .submitted(managementPassword: created.managementPassword) }
            return alert(for: error)
        }
        report.uploadPending = nil
        if retry && has("submit-shows-first-password"), let first = report.firstCreated {
            return .submitted(managementPassword: first.managementPassword)
        }
        return .submitted(managementPassword: created.managementPassword)
    }

    /// The planted defect submit-retry-untrimmed: the body rebuilt from the inputs as typed, the
    /// texts it carries (petName, breed, description, reward, email) not trimmed (the screen's caps
    /// still apply).
    private func untrimmed(_ payload: JSONObject, _ question: Question) -> JSONObject {
        var rebuilt = payload
        for key in ["petName", "breed", "description", "reward", "email"] where payload[key] != nil {
            guard let typed = question.inputs[key]?.stringValue else { continue }
            let cap = key == "description" ? 500 : key == "reward" ? 120 : nil
            rebuilt[key] = .string(cap.map { app.capped(typed, cap: $0) } ?? typed)
        }
        return rebuilt
    }

    /// The alert for a failed request.
    private func alert(for failure: SubmissionFailure) -> SubmissionAnswer {
        switch failure {
        case .noAnswer(let timedOut):
            .alert(message: timedOut && has("submit-timeout-says-went-wrong") ? AlertMessage.somethingWentWrong : AlertMessage.noConnection)
        case .status(let status):
            .alert(message: status >= 500 && has("submit-server-error-says-no-connection") ? AlertMessage.noConnection : AlertMessage.somethingWentWrong)
        case .unreadableAnswer:
            .alert(message: AlertMessage.somethingWentWrong)
        }
    }

    /// The photo as the upload sends it: name and type from the inputs, bytes from `photoPath`.
    private func readPhoto(_ report: ReportOnScreen) -> PhotoUpload {
        guard let bytes = FileManager.default.contents(atPath: report.photoPath) else {
            fail("report \(report.question.id): photoPath '\(report.photoPath)' cannot be read")
        }
        let photo = report.question.inputs["photo"]
        return PhotoUpload(
            fileName: photo?["fileName"]?.stringValue ?? "photo", mimeType: photo?["mimeType"]?.stringValue ?? "application/octet-stream",
            bytes: bytes)
    }
}
