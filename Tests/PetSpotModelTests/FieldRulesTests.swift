import Foundation
import Testing
@testable import PetSpotModel

@Suite("Field rules")
struct FieldRulesTests {
    @Test("microchip keeps ASCII digits only, at most 15, stored digits-only")
    func microchipStorage() {
        let formatter = MicrochipFormatter()
        #expect(formatter.storedDigits(from: "12345-6789") == "123456789")
        #expect(formatter.storedDigits(from: "١٢٣ １２３ ¹²³ ½ Ⅻ 42") == "42")
        #expect(formatter.storedDigits(from: String(repeating: "1", count: 15)) == String(repeating: "1", count: 15))
        #expect(formatter.storedDigits(from: String(repeating: "1", count: 15) + "9") == String(repeating: "1", count: 15))
        #expect(formatter.storedDigits(from: "") == "")
    }

    @Test("microchip displays as 00000-00000-00000")
    func microchipDisplay() {
        let formatter = MicrochipFormatter()
        #expect(formatter.displayed("123456789012345") == "12345-67890-12345")
        #expect(formatter.displayed("12345") == "12345")
        #expect(formatter.displayed("123456") == "12345-6")
        #expect(formatter.displayed("1234567890") == "12345-67890")
        #expect(formatter.displayed("12345678901") == "12345-67890-1")
        #expect(formatter.displayed("") == "")
    }

    @Test("phone keeps 0-9 and +, valid with 7 to 11 ASCII digits", arguments: [
        ("123456", false), ("1234567", true), ("12345678901", true), ("123456789012", false),
        ("+48 600-700-800", true), ("(555) 000-0000", true), ("", false), ("+++", false),
        ("١٢٣٤٥٦٧٨", false), ("１２３４５６７", false), ("12 34 56 7", true),
    ])
    func phoneValidity(typed: String, valid: Bool) {
        #expect(PhoneRule().isValid(typed) == valid)
    }

    @Test("phone sanitizer keeps exactly the ASCII digits and plus signs")
    func phoneSanitizer() {
        let rule = PhoneRule()
        #expect(rule.sanitized("+48 600-700-800") == "+48600700800")
        #expect(rule.sanitized("(555)\u{00A0}000\u{200B}0000") == "5550000000")
        #expect(rule.sanitized("٠١٢ 345") == "345")
        #expect(rule.errorMessage == "Enter at least 7 digits")
    }

    @Test("email: trimmed, pattern, 254 cap")
    func emailValidity() {
        let rule = EmailRule()
        #expect(rule.isValid("owner@example.com"))
        #expect(rule.isValid("  Owner.Name+tag@Mail-Server.example.CO \n"))
        #expect(rule.normalized(" a@b.co ") == "a@b.co")
        #expect(!rule.isValid("owner@example"))
        #expect(!rule.isValid("owner@example.c"))
        #expect(!rule.isValid("owner@@example.com"))
        #expect(!rule.isValid("@example.com"))
        #expect(!rule.isValid("owner@.com"))
        #expect(!rule.isValid("owner@example.c0m"))
        #expect(!rule.isValid("ówner@example.com"))
        #expect(!rule.isValid("owner @example.com"))
        #expect(!rule.isValid(""))
        #expect(rule.errorMessage == "Enter a valid email address")
        let domain = "@example.com"
        let at254 = String(repeating: "a", count: 254 - domain.count) + domain
        let at255 = String(repeating: "a", count: 255 - domain.count) + domain
        #expect(at254.count == 254 && rule.isValid(at254))
        #expect(at255.count == 255 && !rule.isValid(at255))
        #expect(rule.isValid(" " + at254 + " "))
    }

    @Test("coordinates: plain decimals only, ranges inclusive")
    func coordinates() {
        let rule = CoordinateRule()
        for text in ["52", "-0.5", ".5", "+5", "1e1", " 21.0122 ", "5.", "2E-3"] {
            #expect(rule.parse(text) != nil, "\(text) should be a number")
        }
        for text in ["0x1p3", "inf", "nan", "-", "", " ", "1,5", "1e", "e5", "١٢", "１２", "5..1", "1e1.5", "Infinity", "0x10"] {
            #expect(rule.parse(text) == nil, "\(text) should not be a number")
        }
        #expect(rule.validValue("90", axis: .latitude) == 90)
        #expect(rule.validValue("-90", axis: .latitude) == -90)
        #expect(rule.validValue("90.000001", axis: .latitude) == nil)
        #expect(rule.validValue("-90.000001", axis: .latitude) == nil)
        #expect(rule.validValue("180", axis: .longitude) == 180)
        #expect(rule.validValue("-180.000001", axis: .longitude) == nil)
        #expect(rule.validValue("1e400", axis: .longitude) == nil)
        #expect(rule.validValue("9e1", axis: .latitude) == 90)
    }

    @Test("age: optional, whole number 1-40 in ASCII digits", arguments: [
        ("", true), ("  ", true), ("0", false), ("1", true), ("40", true), ("41", false), ("07", true),
        ("1.5", false), ("-3", false), ("３", false), ("٣", false), ("3 ", true), ("000000000000000000001", true),
        ("99999999999999999999999", false),
    ])
    func age(typed: String, valid: Bool) {
        #expect(AgeRule().isValid(typed) == valid)
    }

    @Test("age payload value")
    func agePayload() {
        #expect(AgeRule().payloadValue(" 07 ") == 7)
        #expect(AgeRule().payloadValue("") == nil)
        #expect(AgeRule().payloadValue("41") == nil)
    }

    @Test("text limits count Characters and stop at the limit")
    func textLimits() {
        #expect(TextLimit.description.maxCharacters == 500)
        #expect(TextLimit.reward.maxCharacters == 120)
        #expect(TextLimit.currentAddress.maxCharacters == 500)
        let family = "👨‍👩‍👧‍👦"
        let capped = TextLimit.reward.capped(String(repeating: family, count: 130))
        #expect(capped.count == 120)
        #expect(capped.unicodeScalars.count == 120 * family.unicodeScalars.count)
        #expect(TextLimit.description.capped(String(repeating: "a", count: 500)).count == 500)
        #expect(TextLimit.description.capped(String(repeating: "a", count: 501)).count == 500)
        #expect(TextLimit.reward.capped("e\u{301}") == "e\u{301}")
    }

    @Test("trimming removes White_Space and U+FEFF only")
    func trimming() {
        #expect(Trimming.trim("\u{FEFF}\u{00A0} x \u{2003}\n") == "x")
        #expect(Trimming.trim("\u{200B}x") == "\u{200B}x")
        #expect(OptionalText.payloadValue(" \u{3000} ") == nil)
        #expect(OptionalText.payloadValue(" Rex ") == "Rex")
    }

    @Test("photo: PNG or JPEG, 1 byte to 10 MB")
    func photo() {
        let rule = PhotoRule()
        func photo(_ type: String, _ size: Int) -> PhotoAttachment {
            PhotoAttachment(fileName: "p", mimeType: type, byteCount: size)
        }
        #expect(rule.isValid(photo("image/png", 1)))
        #expect(rule.isValid(photo("IMAGE/JPEG", 10 * 1024 * 1024)))
        #expect(!rule.isValid(photo("image/jpeg", 10 * 1024 * 1024 + 1)))
        #expect(!rule.isValid(photo("image/png", 0)))
        #expect(!rule.isValid(photo("image/gif", 10)))
        #expect(!rule.isValid(photo("image/heic", 10)))
        #expect(!rule.isValid(nil))
    }
}
