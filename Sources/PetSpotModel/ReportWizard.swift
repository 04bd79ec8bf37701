import Foundation

/// What a report wizard shows.
public enum WizardScreen: Sendable, Hashable {
    /// A numbered step of the flow.
    case step(ReportStep)
    /// The Missing flow's summary after a successful submission, holding the management password.
    case summary(managementPassword: String)
    /// The flow is not on screen (left, or the Found flow after submitting).
    case closed
}

/// What tapping Continue did.
public enum ContinueOutcome: Sendable, Hashable {
    /// Moved to the next step.
    case advanced(to: ReportStep)
    /// Stayed; these fields are shown as invalid.
    case blocked(fields: [ReportField])
    /// The last step was valid: the submission of this payload has started. Report its end with
    /// ``ReportWizard/submissionFinished(_:)``.
    case submitting(CreateAnnouncementRequest)
    /// Nothing to continue (no step on screen, or a submission is already under way).
    case ignored
}

/// One report wizard, Missing or Found, as a state machine.
///
/// The wizard holds a ``ReportForm`` and the screen. Its rules, from report-flows.md:
/// - Continue validates the current step: it advances when the step is valid and otherwise
///   reports exactly the step's invalid fields. On the last step, a valid Continue submits.
/// - Back keeps every value. Back from the first step leaves the flow; back from the Missing
///   summary returns to its last step.
/// - Leaving the flow (cancel, back from step 1, closing the summary, the Found flow closing
///   after its submission) clears the form, so the next ``start()`` is fresh.
/// - A failed submission keeps every input, stays on the last step and shows an alert whose
///   Try Again repeats both requests and whose Cancel just dismisses it.
///
/// The wizard is a value with synchronous transitions; the submission's network part runs
/// outside it (``ReportSubmitter``), so tests can drive every transition deterministically.
public struct ReportWizard: Sendable, Hashable {
    /// Which wizard this is.
    public let flow: ReportFlowKind
    /// Every value entered so far.
    public private(set) var form = ReportForm()
    /// What is on screen.
    public private(set) var screen: WizardScreen
    /// Fields marked invalid on the current step by the last refused Continue.
    public private(set) var invalidFields: [ReportField] = []
    /// The payload of the submission under way, if any.
    public private(set) var submissionInFlight: CreateAnnouncementRequest?
    /// The alert after a failed submission, until Try Again or Cancel.
    public private(set) var alert: SubmissionFailure?

    /// A wizard on its first step with an empty form.
    public init(flow: ReportFlowKind) {
        self.flow = flow
        self.screen = .step(flow.steps[0])
    }

    /// The step on screen, if a step is.
    public var currentStep: ReportStep? {
        if case .step(let step) = screen { return step }
        return nil
    }

    /// `1/4` ... `4/4` or `1/3` ... `3/3`; `nil` on the summary and when closed.
    public var progressText: String? {
        guard let step = currentStep, let index = flow.steps.firstIndex(of: step) else { return nil }
        return "\(index + 1)/\(flow.steps.count)"
    }

    /// Whether the wizard accepts input now: a step is on screen, no submission is under way and
    /// no alert is up.
    public var acceptsInput: Bool { currentStep != nil && submissionInFlight == nil && alert == nil }

    /// Opens the flow on its first step when it is closed. The form is whatever leaving left:
    /// empty, unless leaving failed to clear it.
    @discardableResult
    public mutating func start() -> Bool {
        guard screen == .closed else { return false }
        screen = .step(flow.steps[0])
        invalidFields = []
        return true
    }

    /// Types `text` into `field` when that field is on the current step (see
    /// ``ReportForm/type(_:into:)``); returns whether it was accepted.
    @discardableResult
    public mutating func type(_ text: String, into field: ReportField) -> Bool {
        guard acceptsInput, let step = currentStep, step.fields.contains(field), field.spec.isText else {
            return false
        }
        form.type(text, into: field)
        return true
    }

    /// Changes a picked value (photo, date, species, sex) when its field is on the current step;
    /// returns whether it was accepted.
    @discardableResult
    public mutating func pick(_ field: ReportField, _ change: (inout ReportForm) -> Void) -> Bool {
        guard acceptsInput, let step = currentStep, step.fields.contains(field) else { return false }
        change(&form)
        return true
    }

    /// Continue (on the last step: "Continue" / "Submit report").
    public mutating func continueTapped(context: ReportContext) -> ContinueOutcome {
        guard acceptsInput, let step = currentStep, let index = flow.steps.firstIndex(of: step) else { return .ignored }
        let invalid = form.invalidFields(on: step, context: context)
        invalidFields = invalid
        guard invalid.isEmpty else { return .blocked(fields: invalid) }
        if index + 1 < flow.steps.count {
            let next = flow.steps[index + 1]
            screen = .step(next)
            return .advanced(to: next)
        }
        return beginSubmission(context: context)
    }

    /// Back: to the previous step with every value kept; from the first step, leaves the flow;
    /// from the summary, returns to the last step.
    public mutating func backTapped() {
        switch screen {
        case .closed:
            return
        case .summary:
            screen = .step(flow.steps[flow.steps.count - 1])
        case .step(let step):
            guard submissionInFlight == nil, alert == nil else { return }
            let index = flow.steps.firstIndex(of: step) ?? 0
            if index == 0 {
                leave()
            } else {
                screen = .step(flow.steps[index - 1])
                invalidFields = []
            }
        }
    }

    /// Cancel: leaves the flow from any step or the summary (not while the alert is up or a
    /// submission is under way: the alert is modal).
    public mutating func cancelTapped() {
        guard submissionInFlight == nil, alert == nil, screen != .closed else { return }
        leave()
    }

    /// Closes the Missing flow's summary (the flow ends).
    public mutating func closeSummary() {
        guard case .summary = screen else { return }
        leave()
    }

    /// Records how the submission under way ended. On success the Missing flow shows the
    /// summary with the password and the Found flow closes; on failure every input is kept, the
    /// last step stays and the alert is up.
    public mutating func submissionFinished(_ result: Result<SubmissionReceipt, SubmissionFailure>) {
        guard submissionInFlight != nil else { return }
        submissionInFlight = nil
        switch result {
        case .success(let receipt):
            switch flow {
            case .missing: screen = .summary(managementPassword: receipt.managementPassword)
            case .found: leave()
            }
        case .failure(let failure):
            alert = failure
        }
    }

    /// The alert's Try Again: dismisses it and submits again from the start (both requests).
    public mutating func tryAgainTapped(context: ReportContext) -> ContinueOutcome {
        guard alert != nil, let step = currentStep else { return .ignored }
        alert = nil
        invalidFields = form.invalidFields(on: step, context: context)
        guard invalidFields.isEmpty else { return .blocked(fields: invalidFields) }
        return beginSubmission(context: context)
    }

    /// The alert's Cancel: dismisses it; the step and every input stay.
    public mutating func dismissAlert() {
        alert = nil
    }

    /// The whole submission in one call: Continue (or Try Again when an alert is up), then the
    /// two requests through `submitter`, then ``submissionFinished(_:)``.
    public mutating func submit(via submitter: ReportSubmitter, context: ReportContext) async -> ContinueOutcome {
        let outcome = alert == nil ? continueTapped(context: context) : tryAgainTapped(context: context)
        guard case .submitting(let payload) = outcome, let photo = form.photo else { return outcome }
        submissionFinished(await submitter.submit(payload, photo: photo))
        return outcome
    }

    /// Starts the submission of the last step, which the caller found valid.
    ///
    /// Earlier steps were valid when Continue left them, and their fields cannot change without
    /// passing them again; only a field whose rule reads the clock (the date) can turn invalid
    /// meanwhile (the clock or the zone moved), so those are checked again here first.
    private mutating func beginSubmission(context: ReportContext) -> ContinueOutcome {
        let stale = flow.fields.first { $0.spec.kind.readsClock && form.isInvalid($0, context: context) }
        if let stale, let dateStep = stale.spec.placement.step(in: flow) {
            screen = .step(dateStep)
            invalidFields = form.invalidFields(on: dateStep, context: context)
            return .blocked(fields: invalidFields)
        }
        do {
            let payload = try CreateAnnouncementRequest(validatedFlow: flow, form: form)
            submissionInFlight = payload
            return .submitting(payload)
        } catch {
            screen = .step(error.step)
            invalidFields = error.fields
            return .blocked(fields: error.fields)
        }
    }

    private mutating func leave() {
        form = ReportForm()
        invalidFields = []
        alert = nil
        submissionInFlight = nil
        screen = .closed
    }
}
