import Foundation
import PetSpotConcurrency
import PetSpotJSON
@testable import PetSpotModel

/// Shared values for the model's tests.
enum Fixtures {
    static let warsaw = TimeZone(identifier: "Europe/Warsaw")!
    static let context = ReportContext(timeZone: warsaw, now: ReportContext.parseInstant("2026-11-21T12:00:00Z")!)
    static let pngBytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
    static let photo = PhotoAttachment(fileName: "rex.png", mimeType: "image/png", contents: pngBytes)

    /// Inputs that pass every step of `flow`, with every optional field filled.
    static func validInputs(_ flow: ReportFlowKind) -> ReportInputs {
        var inputs = ReportInputs()
        inputs[text: .chipNumber] = "12345-67890-12345"
        inputs.photo = photo
        inputs.lastSeenDate = CalendarDate(iso: "2026-11-20")
        inputs.species = .dog
        inputs.sex = .male
        inputs[text: .breed] = " Beagle "
        inputs[text: .latitude] = "52.2297"
        inputs[text: .longitude] = " 21.0122"
        inputs[text: .description] = "Red collar"
        inputs[text: .phone] = "+48 600-700-800"
        inputs[text: .email] = " owner@example.com "
        switch flow {
        case .missing:
            inputs[text: .petName] = "Rex"
            inputs[text: .age] = "3"
            inputs[text: .reward] = "$50"
        case .found:
            inputs[text: .caregiverPhone] = "+48 111 222 333"
            inputs[text: .currentAddress] = "Main St 1, Warsaw"
        }
        return inputs
    }

    /// A wizard of `flow` walked to its last step with valid inputs.
    static func wizardOnLastStep(_ flow: ReportFlowKind) -> ReportWizard {
        var wizard = ReportWizard(flow: flow)
        let inputs = validInputs(flow)
        for step in flow.steps {
            fill(step, from: inputs, into: &wizard)
            if step != flow.steps.last { _ = wizard.continueTapped(context: context) }
        }
        return wizard
    }

    static func fill(_ step: ReportStep, from inputs: ReportInputs, into wizard: inout ReportWizard) {
        for field in step.fields {
            guard let value = inputs[field] else { continue }
            if case .text(let typed) = value {
                wizard.type(typed, into: field)
            } else {
                wizard.pick(field) { $0[field] = value }
            }
        }
    }
}

/// A transport that answers from a script and records what it was sent.
final class ScriptedTransport: AnnouncementTransport, Sendable {
    enum Answer: Sendable {
        case respond(Int, JSONValue)
        case fail(TransportError)
    }

    private let script: Locked<(answers: [Answer], sent: [TransportRequest])>

    init(_ answers: [Answer]) { script = Locked((answers, [])) }

    var sentRequests: [TransportRequest] { script.withLock { $0.sent } }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let answer: Answer? = script.withLock { script in
            script.sent.append(request)
            return script.answers.isEmpty ? nil : script.answers.removeFirst()
        }
        switch answer {
        case .respond(let status, let body)?: return TransportResponse(status: status, body: body.serializedData())
        case .fail(let error)?: throw error
        case nil: throw .noConnection("script exhausted")
        }
    }

    static let createdBody: JSONValue = [
        "id": "0b6f7d2e-5c1a-4b8e-9f3d-2a1c4e5f6a7b", "petName": "Rex", "species": "DOG", "breed": "Beagle",
        "sex": "MALE", "age": 3, "description": "Red collar", "microchipNumber": "123456789012345",
        "locationLatitude": 52.2297, "locationLongitude": 21.0122, "lastSeenDate": "2026-11-20",
        "email": "owner@example.com", "phone": "+48600700800", "photoUrl": nil, "status": "MISSING",
        "reward": "$50", "createdAt": "2026-11-21T12:00:00.000Z", "updatedAt": "2026-11-21T12:00:00.000Z",
        "managementPassword": "482913",
    ]

    static let errorBody: JSONValue = [
        "error": ["requestId": "r-1", "code": "INTERNAL_SERVER_ERROR", "message": "boom"],
    ]
}
