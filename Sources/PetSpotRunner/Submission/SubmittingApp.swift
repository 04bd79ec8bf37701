import Foundation
import PetSpotConcurrency
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel

/// One answer of an app to a submission question, with the lines exchanged.
package struct AppTurn: Sendable {
    /// The question line (`nil` for the reference model, which is asked in-process).
    package var question: String?
    /// The answer line, when one came.
    package var answerLine: String?
    /// The answer, or why there is none.
    package var answer: Result<SubmissionAnswer, AdapterProtocolError>
}

/// Where an app sends its report: the proxy's base URL, the request time-out, the photo file.
package struct SubmissionNetwork: Sendable {
    /// The base URL the app is given (the fault proxy).
    package var baseURL: URL
    /// Seconds the app waits for each answer before giving up.
    package var requestTimeout: Double
    /// The photo's bytes, as a file the app reads.
    package var photoPath: String
}

/// An app's submission code, driven one report at a time: the report is submitted, then the user
/// taps Try Again or Cancel on each alert.
package protocol SubmittingApp: Sendable {
    /// Who the app is, for messages.
    var name: String { get }
    /// Fills the flow with the case's inputs and submits; the answer names the report for the
    /// turns that follow.
    func submit(_ flowCase: FlowCase, over network: SubmissionNetwork) -> (report: Int, turn: AppTurn)
    /// The user taps Try Again on report `report`'s alert (or submits again after a Cancel).
    func tryAgain(report: Int) -> AppTurn
    /// The user taps Cancel on report `report`'s alert.
    func cancel(report: Int) -> AppTurn
}

/// An app's adapter speaking protocol version 2, asked through the same process as its flow
/// questions.
package struct AdapterSubmittingApp: SubmittingApp {
    let oracle: AdapterOracle

    package var name: String { oracle.name }

    package func submit(_ flowCase: FlowCase, over network: SubmissionNetwork) -> (report: Int, turn: AppTurn) {
        let reportId = Locked(0)
        let turn = ask { id in
            reportId.withLock { $0 = id }
            return SubmissionQuestion.submit(
                id: id, flowCase, baseURL: network.baseURL, requestTimeout: network.requestTimeout, photoPath: network.photoPath)
        }
        return (reportId.withLock { $0 }, turn)
    }

    package func tryAgain(report: Int) -> AppTurn { ask { SubmissionQuestion.tryAgain(id: $0, report: report) } }

    package func cancel(report: Int) -> AppTurn { ask { SubmissionQuestion.cancel(id: $0, report: report) } }

    private func ask(_ question: (Int) -> JSONValue) -> AppTurn {
        let asked = oracle.askSubmission(question) { line, id throws(AdapterProtocolError) in
            try SubmissionAnswer(line: line, expectedId: id)
        }
        return AppTurn(question: asked.question, answerLine: asked.answerLine, answer: asked.answer)
    }
}

/// The rule a reference app follows when the user taps Try Again.
package enum SubmissionRule: String, CaseIterable, Sendable {
    /// report-flows.md in this version: Try Again repeats both requests from the start.
    case spec
    /// The later iteration's rule: after a stored create whose upload failed, Try Again retries
    /// only the upload with the kept id and password.
    case later
}

/// The reference model as an app: the payload of report-flows.md's rules, submitted as its
/// "Submission" section says (create, then the photo upload with Basic auth; any failure an
/// alert with the spec's message; Try Again by `rule`), over this package's own HTTP client.
package final class ReferenceSubmittingApp: SubmittingApp {
    /// What the reference keeps of one report.
    private struct Report: Sendable {
        var payload: CreateAnnouncementRequest
        var photo: PhotoAttachment
        var network: SubmissionNetwork
        /// The announcement of an attempt whose create was stored and whose upload failed.
        var kept: (id: String, password: String)?
    }

    let rule: SubmissionRule
    /// The longest the reference waits for an answer, whatever time-out the run gives apps: its
    /// rule does not depend on the value, and an answer held past it costs its whole length.
    let longestTimeout: Double
    private let reports = Locked<[Int: Report]>([:])
    private let nextId = Locked(0)

    /// A reference app following `rule`, waiting at most `longestTimeout` seconds for an answer.
    package init(rule: SubmissionRule, longestTimeout: Double = 0.25) {
        self.rule = rule
        self.longestTimeout = longestTimeout
    }

    package var name: String { "the reference model (\(rule == .spec ? "report-flows.md's rule" : "the later iteration's rule"))" }

    package func submit(_ flowCase: FlowCase, over network: SubmissionNetwork) -> (report: Int, turn: AppTurn) {
        let id = nextId.withLock { id -> Int in
            id += 1
            return id
        }
        switch ReferenceModel.evaluate(flow: flowCase.flow, inputs: flowCase.inputs, context: flowCase.context) {
        case .blocked(let step, let fields):
            return (id, AppTurn(answer: .success(.blocked(step: step.name, fields: fields.map(\.name)))))
        case .submitted(let payload):
            guard let request = try? CreateAnnouncementRequest(json: .object(payload)) else {
                return (id, AppTurn(answer: .failure(.malformedAnswer("the reference payload does not decode"))))
            }
            let declared = flowCase.inputs.photo
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: network.photoPath))) ?? Data()
            let photo = PhotoAttachment(fileName: declared?.fileName ?? "photo.jpg", mimeType: declared?.mimeType ?? "image/jpeg", contents: bytes)
            reports.withLock { $0[id] = Report(payload: request, photo: photo, network: network) }
            return (id, attempt(report: id))
        }
    }

    package func tryAgain(report: Int) -> AppTurn { attempt(report: report) }

    package func cancel(report: Int) -> AppTurn { AppTurn(answer: .success(.cancelled)) }

    /// One attempt: the create (unless the later rule keeps an announcement), then the upload.
    private func attempt(report id: Int) -> AppTurn {
        guard let report = reports.withLock({ $0[id] }) else {
            return AppTurn(answer: .failure(.malformedAnswer("no report \(id)")))
        }
        let transport = RunnerHTTPTransport(baseURL: report.network.baseURL, timeout: min(report.network.requestTimeout, longestTimeout))
        func send(_ request: TransportRequest) -> Result<TransportResponse, TransportError> {
            blockingAwait {
                do throws(TransportError) {
                    return .success(try await transport.send(request))
                } catch {
                    return .failure(error)
                }
            }
        }
        func alert(_ failure: SubmissionFailure) -> AppTurn { AppTurn(answer: .success(.alert(message: failure.userMessage))) }

        var announcement: (id: String, password: String)
        if rule == .later, let kept = report.kept {
            announcement = kept
        } else {
            let created: TransportResponse
            switch send(ReportSubmitter.createRequest(report.payload)) {
            case .failure: return alert(.noConnection)
            case .success(let answer): created = answer
            }
            guard created.status == 201, let body = try? JSONValue.parse(created.body),
                let response = try? CreateAnnouncementResponse(json: body)
            else { return alert(.backendError(request: .create, status: created.status, envelope: nil)) }
            announcement = (response.announcement.id, response.managementPassword)
            reports.withLock { $0[id]?.kept = announcement }
        }
        let upload = ReportSubmitter.photoUploadRequest(
            announcementId: announcement.id, managementPassword: announcement.password, photo: report.photo,
            contents: report.photo.contents ?? Data())
        switch send(upload) {
        case .failure: return alert(.noConnection)
        case .success(let answer) where answer.status != 201:
            return alert(.backendError(request: .photoUpload, status: answer.status, envelope: nil))
        case .success:
            reports.withLock { $0[id]?.kept = nil }
            return AppTurn(answer: .success(.submitted(managementPassword: announcement.password)))
        }
    }
}
