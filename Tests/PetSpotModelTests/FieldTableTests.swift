import Foundation
import PetSpotJSON
import Testing
@testable import PetSpotModel

@Suite("Field table")
struct FieldTableTests {
    @Test("every step shows the fields report-flows.md lists, in screen order")
    func stepsFromTheTable() {
        #expect(ReportStep.chipNumber.fields == [.chipNumber])
        #expect(ReportStep.photo.fields == [.photo])
        #expect(ReportStep.description.fields == [
            .lastSeenDate, .petName, .species, .breed, .sex, .age, .latitude, .longitude, .description,
        ])
        #expect(ReportStep.contactDetails.fields == [.phone, .email, .reward])
        #expect(ReportStep.petDetails.fields == [
            .lastSeenDate, .chipNumber, .species, .breed, .sex, .latitude, .longitude, .description,
        ])
        #expect(ReportStep.contactInfo.fields == [.phone, .email, .caregiverPhone, .currentAddress])
        #expect(ReportField.allCases.filter(\.isMissingOnly) == [.petName, .age, .reward])
        #expect(ReportField.allCases.filter(\.isFoundOnly) == [.caregiverPhone, .currentAddress])
    }

    @Test("the payload sends the required fields, status, then the optional ones; iOS-only fields never")
    func payloadKeysFromTheTable() {
        #expect(FieldTable.payloadKeys == [
            "lastSeenDate", "species", "sex", "locationLatitude", "locationLongitude", "phone", "email", "status",
            "microchipNumber", "petName", "breed", "age", "description", "reward",
        ])
        #expect(FieldTable.notSentKeys == ["caregiverPhone", "currentAddress"])
        #expect(ReportField.photo.spec.delivery == .upload)
    }

    @Test("a required field blocks when empty or blank; an optional one only when a non-blank value breaks its rule")
    func presence() {
        let context = ReportContext(timeZone: TimeZone(identifier: "UTC")!, now: Date(timeIntervalSince1970: 1_795_262_400))
        let phone = ReportField.phone.spec, caregiver = ReportField.caregiverPhone.spec, breed = ReportField.breed.spec
        #expect(phone.isInvalid(nil, context: context))
        #expect(phone.isInvalid(.text("   "), context: context))
        #expect(!caregiver.isInvalid(nil, context: context))
        #expect(!caregiver.isInvalid(.text(" \u{3000} "), context: context))
        #expect(caregiver.isInvalid(.text("n/a"), context: context), "a caregiver phone of n/a is checked and blocks")
        #expect(caregiver.isInvalid(.text("   123"), context: context))
        #expect(!caregiver.isInvalid(.text(" 0000000 "), context: context))
        #expect(!breed.isInvalid(.text("<b>anything</b>"), context: context))
    }

    @Test("filtering goes by Character: a digit carrying a mark, a joiner or a keycap is dropped whole", arguments: [
        ("0\u{301}1", "1"), ("0\u{200D}12", "12"), ("1\u{FE0F}\u{20E3}2", "2"), ("12\r\n3", "123"), ("٣4", "4"),
    ])
    func characterFiltering(typed: String, kept: String) {
        #expect(MicrochipFormatter().storedDigits(from: typed) == kept)
        #expect(PhoneRule().sanitized(typed) == kept)
    }

    @Test("a phone whose digits carry marks does not count them")
    func phoneCountsWholeCharacters() {
        #expect(PhoneRule().isValid("1234567"))
        #expect(!PhoneRule().isValid("123456" + "7\u{301}"))
        #expect(!PhoneRule().isValid("1234567\u{200D}"))
    }

    @Test("the form keeps a text field as its filter leaves it; an empty result clears the field")
    func formTyping() {
        var form = ReportForm()
        form.type("12-34", into: .chipNumber)
        #expect(form[text: .chipNumber] == "1234")
        form.type("abc", into: .chipNumber)
        #expect(form[.chipNumber] == nil)
        form.type(String(repeating: "é", count: 130), into: .reward)
        #expect(form[text: .reward]?.count == 120)
        form.type("DOG", into: .species)
        #expect(form.species == nil, "typing into a picked field is ignored")
    }

    @Test("inputs decode through the table and encode back; an option outside the list names the key")
    func inputsRoundTrip() throws {
        var inputs = ReportInputs()
        inputs[text: .phone] = " 600 700 800 "
        inputs.species = .cat
        inputs.lastSeenDate = CalendarDate(iso: "2026-11-20")
        inputs.photo = PhotoAttachment(fileName: "a.png", mimeType: "image/png", byteCount: 90)
        #expect(try ReportInputs(json: inputs.json) == inputs)
        #expect(throws: WireDecodingError(keyPath: "inputs.sex", reason: "\"male\" is not one of MALE, FEMALE, UNKNOWN")) {
            try ReportInputs(json: ["sex": "male"])
        }
    }
}
