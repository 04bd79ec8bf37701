import Foundation
import PetSpotFlowGenerators
import PetSpotPropertyEngine
import PetSpotModel

/// A failure the test network injects into the next submission request.
enum InjectedFault: Hashable {
    case noConnection
    case status(Int)
}

/// The specification of a report wizard, written independently of ``ReportWizard``: which
/// screen shows, what every field holds, whether the alert is up, and how many requests the
/// submissions have sent. Field rules (filters, validity) are shared with the model; the
/// transitions between screens are not.
struct WizardSpecification: Hashable {
    enum Screen: Hashable {
        case step(Int)
        case summary
        case closed
    }

    let flow: ReportFlowKind
    var screen: Screen = .step(0)
    var form = ReportForm()
    var alertUp = false
    var pendingFaults: [InjectedFault] = []
    /// Paths of every request sent, in order.
    var requestKinds: [SubmissionRequestKind] = []
    var successfulSubmissions = 0

    init(flow: ReportFlowKind) { self.flow = flow }

    var step: ReportStep? {
        if case .step(let index) = screen { return flow.steps[index] }
        return nil
    }

    var progressText: String? {
        if case .step(let index) = screen { return "\(index + 1)/\(flow.steps.count)" }
        return nil
    }

    /// The step's fields that would block Continue now.
    func blockingFields(context: ReportContext) -> [ReportField] {
        guard let step else { return [] }
        return form.invalidFields(on: step, context: context)
    }

    mutating func leave() {
        screen = .closed
        form = ReportForm()
        alertUp = false
    }

    /// Two requests unless one fails; the first pending fault fails the request it meets.
    mutating func submit() {
        for kind in [SubmissionRequestKind.create, .photoUpload] {
            requestKinds.append(kind)
            if !pendingFaults.isEmpty {
                pendingFaults.removeFirst()
                alertUp = true
                return
            }
        }
        successfulSubmissions += 1
        switch flow {
        case .missing: screen = .summary
        case .found: leave()
        }
    }

    mutating func apply(_ action: WizardAction, context: ReportContext) {
        let onInputStep = step != nil && !alertUp
        switch action {
        case .type(let field, let text):
            if onInputStep, let step, step.fields.contains(field) { form.type(text, into: field) }
        case .pick(let field, let value):
            if onInputStep, step?.fields.contains(field) == true { form[field] = value }
        case .continueTapped:
            guard onInputStep, case .step(let index) = screen, blockingFields(context: context).isEmpty else { return }
            if index + 1 < flow.steps.count { screen = .step(index + 1) } else { submit() }
        case .back:
            guard !alertUp else { return }
            switch screen {
            case .step(0): leave()
            case .step(let index): screen = .step(index - 1)
            case .summary: screen = .step(flow.steps.count - 1)
            case .closed: break
            }
        case .cancel:
            if !alertUp && screen != .closed { leave() }
        case .networkFailsNext:
            pendingFaults.append(.noConnection)
        case .backendFailsNext(let status):
            pendingFaults.append(.status(status))
        case .tryAgain:
            if alertUp {
                alertUp = false
                submit()
            }
        case .dismissAlert:
            alertUp = false
        case .closeSummary:
            if screen == .summary { leave() }
        case .start:
            if screen == .closed { screen = .step(0) }
        }
    }
}

/// The system under test: the real ``ReportWizard`` with a scripted network that builds the
/// real requests (``ReportSubmitter``'s builders) and fails them as the faults say.
struct WizardUnderTest {
    var wizard: ReportWizard
    var pendingFaults: [InjectedFault] = []
    var sent: [TransportRequest] = []
    var lastPassword: String?
    private var passwordCounter = 100_000

    init(flow: ReportFlowKind) { wizard = ReportWizard(flow: flow) }

    /// Sends the submission's requests as a transport would see them and reports the result
    /// to the wizard.
    mutating func completeSubmission(_ payload: CreateAnnouncementRequest) {
        sent.append(ReportSubmitter.createRequest(payload))
        if let failure = takeFault(.create) {
            wizard.submissionFinished(.failure(failure))
            return
        }
        passwordCounter += 7
        let id = "00000000-0000-4000-8000-\(String(format: "%012d", passwordCounter))"
        let password = String(passwordCounter)
        guard let photo = wizard.form.photo else {
            wizard.submissionFinished(.failure(.photoUnavailable))
            return
        }
        sent.append(ReportSubmitter.photoUploadRequest(
            announcementId: id, managementPassword: password, photo: photo, contents: Data([0x89, 0x50])))
        if let failure = takeFault(.photoUpload) {
            wizard.submissionFinished(.failure(failure))
            return
        }
        lastPassword = password
        let created = Announcement.fixture(id: id, payload: payload)
        wizard.submissionFinished(.success(SubmissionReceipt(announcementId: id, managementPassword: password, created: created)))
    }

    private mutating func takeFault(_ request: SubmissionRequestKind) -> SubmissionFailure? {
        guard !pendingFaults.isEmpty else { return nil }
        switch pendingFaults.removeFirst() {
        case .noConnection: return .noConnection
        case .status(let status): return .backendError(request: request, status: status, envelope: nil)
        }
    }
}

extension Announcement {
    /// The announcement a backend would return for `payload` (what the wizard is told on success).
    static func fixture(id: String, payload: CreateAnnouncementRequest) -> Announcement {
        var object = payload.jsonObject
        object["id"] = .string(id)
        object["photoUrl"] = .null
        object["createdAt"] = "2026-11-21T12:00:00.000Z"
        object["updatedAt"] = "2026-11-21T12:00:00.000Z"
        return try! Announcement(json: .object(object))
    }
}

/// The stateful test: generated action sequences run on the spec and on the real wizard, with
/// every response and every invariant compared after each step.
struct ReportWizardMachine: StateMachine {
    let flow: ReportFlowKind
    let context: ReportContext

    func initialModel() -> WizardSpecification { WizardSpecification(flow: flow) }

    func makeSystem() -> WizardUnderTest { WizardUnderTest(flow: flow) }

    func actions(for model: WizardSpecification) -> Gen<WizardAction> {
        FlowGenerators.wizardAction(
            flow, context: context, step: model.step, alertUp: model.alertUp,
            invalidFields: model.blockingFields(context: context))
    }

    func apply(_ action: WizardAction, to model: inout WizardSpecification) {
        model.apply(action, context: context)
    }

    func run(_ action: WizardAction, on system: inout WizardUnderTest, model: WizardSpecification) throws {
        labelCharacters(of: action)
        switch action {
        case .type(let field, let text):
            let accepted = system.wizard.type(text, into: field)
            let expected = model.step?.fields.contains(field) == true && !model.alertUp
            try require(accepted == expected, "typing into \(field.name) accepted: \(accepted), expected \(expected)")
        case .pick(let field, let value): system.wizard.pick(field) { $0[field] = value }
        case .continueTapped:
            let outcome = system.wizard.continueTapped(context: context)
            let blocking = model.blockingFields(context: context)
            switch outcome {
            case .blocked(let fields):
                if let step = model.step { label("blocked at \(step.name)") }
                try require(fields == blocking, "Continue reported \(fields.map(\.name)), expected \(blocking.map(\.name))")
            case .advanced(let step):
                try require(blocking.isEmpty && model.step != nil, "Continue advanced to \(step.name) with invalid \(blocking)")
            case .submitting(let payload):
                try require(blocking.isEmpty && model.step == flow.steps.last, "Continue submitted from \(String(describing: model.step))")
                system.completeSubmission(payload)
            case .ignored:
                try require(model.step == nil || model.alertUp, "Continue was ignored on \(String(describing: model.step))")
            }
        case .back: system.wizard.backTapped()
        case .cancel: system.wizard.cancelTapped()
        case .networkFailsNext: system.pendingFaults.append(.noConnection)
        case .backendFailsNext(let status): system.pendingFaults.append(.status(status))
        case .tryAgain:
            if model.alertUp { label("Try Again after a failure") }
            if case .submitting(let payload) = system.wizard.tryAgainTapped(context: context) {
                system.completeSubmission(payload)
            }
        case .dismissAlert: system.wizard.dismissAlert()
        case .closeSummary: system.wizard.closeSummary()
        case .start: system.wizard.start()
        }
    }

    func checkInvariants(model: WizardSpecification, system: WizardUnderTest) throws {
        let wizard = system.wizard
        switch (model.screen, wizard.screen) {
        case (.step(let index), .step(let step)):
            try require(flow.steps[index] == step, "on \(step.name), expected \(flow.steps[index].name)")
        case (.summary, .summary(let password)):
            label("summary with password")
            try require(password == system.lastPassword, "summary shows \(password), expected \(system.lastPassword ?? "-")")
        case (.closed, .closed):
            try require(wizard.form == ReportForm(), "the flow is closed but its state was not cleared")
        default:
            throw RequirementFailure("screen is \(wizard.screen), expected \(model.screen)")
        }
        try require(wizard.progressText == model.progressText,
                    "progress \(wizard.progressText ?? "none"), expected \(model.progressText ?? "none")")
        try require(wizard.form == model.form, "a value changed: the wizard holds \(diff(wizard.form, model.form))")
        try require((wizard.alert != nil) == model.alertUp, "alert shown: \(wizard.alert != nil), expected \(model.alertUp)")
        if model.alertUp { label("failed submission kept the inputs") }
        let kinds = system.sent.map { $0.path.hasSuffix("/photos") ? SubmissionRequestKind.photoUpload : .create }
        try require(kinds == model.requestKinds, "requests sent \(kinds.map(\.rawValue)), expected \(model.requestKinds.map(\.rawValue))")
        if model.successfulSubmissions > 0 && flow == .found { label("found flow closed after submit") }
    }

    /// Labels the hostile character classes an action types.
    private func labelCharacters(of action: WizardAction) {
        guard case .type(_, let text) = action else { return }
        let scalars = Set(text.unicodeScalars)
        for (name, characterClass) in [
            ("non-ASCII digits", HostileCharacters.nonASCIIDigits), ("invisible spaces", HostileCharacters.invisibles),
            ("emoji", HostileCharacters.emoji), ("combining marks", HostileCharacters.combiningMarks),
            ("right-to-left text", HostileCharacters.rightToLeft),
        ] where !scalars.isDisjoint(with: Set(characterClass.characters.flatMap(\.unicodeScalars))) {
            label("typed \(name)")
        }
    }

    private func diff(_ actual: ReportForm, _ expected: ReportForm) -> String {
        ReportField.allCases.compactMap { field in
            let actualValue = actual[field], expectedValue = expected[field]
            guard actualValue != expectedValue else { return nil }
            return "\(field.name)=\(actualValue?.description ?? "nil") (expected \(expectedValue?.description ?? "nil"))"
        }.joined(separator: ", ")
    }
}
