import Foundation
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel
import PetSpotRuntime

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
