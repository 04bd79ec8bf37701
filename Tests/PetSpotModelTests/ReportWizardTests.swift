import Foundation
import Testing
@testable import PetSpotModel

@Suite("Report wizards")
struct ReportWizardTests {
    let context = Fixtures.context

    @Test("Missing: chipNumber 1/4, photo 2/4, description 3/4, contactDetails 4/4, then summary")
    func missingStepsAndProgress() {
        var wizard = ReportWizard(flow: .missing)
        let inputs = Fixtures.validInputs(.missing)
        var seen: [(ReportStep?, String?)] = []
        for step in ReportFlowKind.missing.steps {
            seen.append((wizard.currentStep, wizard.progressText))
            Fixtures.fill(step, from: inputs, into: &wizard)
            if step != .contactDetails {
                let outcome = wizard.continueTapped(context: context)
                #expect(outcome != .ignored)
            }
        }
        #expect(seen.map(\.0) == [.chipNumber, .photo, .description, .contactDetails])
        #expect(seen.map(\.1) == ["1/4", "2/4", "3/4", "4/4"])
        guard case .submitting = wizard.continueTapped(context: context) else {
            Issue.record("last step should submit")
            return
        }
        wizard.submissionFinished(.success(receipt()))
        #expect(wizard.screen == .summary(managementPassword: "482913"))
        #expect(wizard.progressText == nil)
    }

    @Test("Found: photo 1/3, petDetails 2/3, contactInfo 3/3, closes after submit")
    func foundStepsAndClose() {
        var wizard = ReportWizard(flow: .found)
        #expect(wizard.currentStep == .photo && wizard.progressText == "1/3")
        let inputs = Fixtures.validInputs(.found)
        Fixtures.fill(.photo, from: inputs, into: &wizard)
        let result1 = wizard.continueTapped(context: context)
        #expect(result1 == .advanced(to: .petDetails))
        #expect(wizard.progressText == "2/3")
        Fixtures.fill(.petDetails, from: inputs, into: &wizard)
        let result2 = wizard.continueTapped(context: context)
        #expect(result2 == .advanced(to: .contactInfo))
        #expect(wizard.progressText == "3/3")
        Fixtures.fill(.contactInfo, from: inputs, into: &wizard)
        guard case .submitting = wizard.continueTapped(context: context) else {
            Issue.record("last step should submit")
            return
        }
        wizard.submissionFinished(.success(receipt()))
        #expect(wizard.screen == .closed)
        #expect(wizard.form == ReportForm())
        #expect(wizard.progressText == nil)
    }

    @Test("microchip step never blocks")
    func chipStepNeverBlocks() {
        var wizard = ReportWizard(flow: .missing)
        let result3 = wizard.continueTapped(context: context)
        #expect(result3 == .advanced(to: .photo))
    }

    @Test("photo step blocks without a valid photo")
    func photoStepBlocks() {
        var wizard = ReportWizard(flow: .found)
        let result4 = wizard.continueTapped(context: context)
        #expect(result4 == .blocked(fields: [.photo]))
        wizard.pick(.photo) { $0.photo = PhotoAttachment(fileName: "a.gif", mimeType: "image/gif", byteCount: 9) }
        let result5 = wizard.continueTapped(context: context)
        #expect(result5 == .blocked(fields: [.photo]))
        #expect(wizard.invalidFields == [.photo])
        wizard.pick(.photo) { $0.photo = Fixtures.photo }
        let result6 = wizard.continueTapped(context: context)
        #expect(result6 == .advanced(to: .petDetails))
    }

    @Test("description step reports exactly its invalid fields")
    func descriptionStepFields() {
        var wizard = ReportWizard(flow: .missing)
        _ = wizard.continueTapped(context: context)
        wizard.pick(.photo) { $0.photo = Fixtures.photo }
        _ = wizard.continueTapped(context: context)
        let emptyStep = wizard.continueTapped(context: context)
        #expect(emptyStep == .blocked(fields: [.lastSeenDate, .species, .sex, .latitude, .longitude]))
        wizard.pick(.lastSeenDate) { $0.lastSeenDate = CalendarDate(iso: "2026-11-23") }
        wizard.pick(.species) { $0.species = .cat }
        wizard.pick(.sex) { $0.sex = .female }
        wizard.type("0", into: .age)
        wizard.type("90.000001", into: .latitude)
        wizard.type("21", into: .longitude)
        let result7 = wizard.continueTapped(context: context)
        #expect(result7 == .blocked(fields: [.lastSeenDate, .age, .latitude]))
        wizard.pick(.lastSeenDate) { $0.lastSeenDate = CalendarDate(iso: "2026-11-21") }
        wizard.type("40", into: .age)
        wizard.type("90", into: .latitude)
        let result8 = wizard.continueTapped(context: context)
        #expect(result8 == .advanced(to: .contactDetails))
    }

    @Test("pet details (Found) has no age; contact info checks caregiver phone only when given")
    func foundFieldRules() {
        #expect(!ReportStep.petDetails.fields.contains(.age))
        #expect(!ReportStep.petDetails.fields.contains(.petName))
        var wizard = Fixtures.wizardOnLastStep(.found)
        wizard.type("12", into: .caregiverPhone)
        wizard.type("bad", into: .email)
        wizard.type("123456", into: .phone)
        let result9 = wizard.continueTapped(context: context)
        #expect(result9 == .blocked(fields: [.phone, .email, .caregiverPhone]))
        wizard.type("   ", into: .caregiverPhone)
        wizard.type("a@b.co", into: .email)
        wizard.type("1234567", into: .phone)
        guard case .submitting = wizard.continueTapped(context: context) else {
            Issue.record("should submit")
            return
        }
    }

    @Test("Back keeps every value; back from step 1 leaves and clears")
    func backKeepsValues() {
        var wizard = Fixtures.wizardOnLastStep(.missing)
        let form = wizard.form
        wizard.backTapped()
        #expect(wizard.currentStep == .description)
        wizard.backTapped()
        wizard.backTapped()
        #expect(wizard.currentStep == .chipNumber)
        #expect(wizard.form == form)
        wizard.backTapped()
        #expect(wizard.screen == .closed)
        #expect(wizard.form == ReportForm())
        let result10 = wizard.start()
        #expect(result10)
        #expect(wizard.currentStep == .chipNumber && wizard.form == ReportForm())
    }

    @Test("cancel and closing the summary clear the state")
    func leavingClears() {
        var wizard = Fixtures.wizardOnLastStep(.found)
        wizard.cancelTapped()
        #expect(wizard.screen == .closed && wizard.form == ReportForm())
        var missing = Fixtures.wizardOnLastStep(.missing)
        _ = missing.continueTapped(context: context)
        missing.submissionFinished(.success(receipt()))
        missing.closeSummary()
        #expect(missing.screen == .closed && missing.form == ReportForm())
    }

    @Test("back from the summary returns to step 4 with every value")
    func backFromSummary() {
        var wizard = Fixtures.wizardOnLastStep(.missing)
        let form = wizard.form
        _ = wizard.continueTapped(context: context)
        wizard.submissionFinished(.success(receipt()))
        wizard.backTapped()
        #expect(wizard.currentStep == .contactDetails && wizard.progressText == "4/4")
        #expect(wizard.form == form)
    }

    @Test("a failed submission keeps inputs, stays, alerts; Try Again submits again")
    func failedSubmission() {
        var wizard = Fixtures.wizardOnLastStep(.found)
        let form = wizard.form
        guard case .submitting(let first) = wizard.continueTapped(context: context) else {
            Issue.record("should submit")
            return
        }
        wizard.submissionFinished(.failure(.noConnection))
        #expect(wizard.alert == .noConnection)
        #expect(wizard.currentStep == .contactInfo && wizard.form == form)
        let result11 = wizard.type("x", into: .email)
        #expect(!result11, "input is blocked while the alert is up")
        let result12 = wizard.tryAgainTapped(context: context)
        #expect(result12 == .submitting(first))
        wizard.submissionFinished(.failure(.backendError(request: .photoUpload, status: 500, envelope: nil)))
        wizard.dismissAlert()
        #expect(wizard.alert == nil && wizard.currentStep == .contactInfo && wizard.form == form)
    }

    @Test("fields of other steps cannot be typed into")
    func typingOnlyOnCurrentStep() {
        var wizard = ReportWizard(flow: .missing)
        let result13 = wizard.type("a@b.co", into: .email)
        #expect(!result13)
        let result14 = wizard.type("123", into: .chipNumber)
        #expect(result14)
        let result15 = wizard.type("x", into: .caregiverPhone)
        #expect(!result15)
    }

    private func receipt() -> SubmissionReceipt {
        SubmissionReceipt(
            announcementId: "0b6f7d2e-5c1a-4b8e-9f3d-2a1c4e5f6a7b", managementPassword: "482913",
            created: try! Announcement(json: {
                var body = ScriptedTransport.createdBody.objectValue!
                body["managementPassword"] = nil
                return .object(body)
            }()))
    }
}
