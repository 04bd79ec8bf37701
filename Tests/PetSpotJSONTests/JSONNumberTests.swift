import PetSpotJSON
import Testing

@Suite("JSON numbers as exact decimals")
struct JSONNumberTests {
    func number(_ literal: String) throws -> JSONNumber { try #require(JSONNumber(literal: literal)) }

    @Test func integersIncludeWholeDecimals() throws {
        for literal in ["1", "1.0", "1e2", "-0", "0.0", "12.3400e2", "1E+3", "100e-2"] {
            #expect(try number(literal).isInteger, "\(literal)")
        }
        for literal in ["1.5", "1e-1", "0.0001", "-3.25"] {
            #expect(try !number(literal).isInteger, "\(literal)")
        }
        #expect(try number("1.0").intValue == 1)
        #expect(try number("-12e1").intValue == -120)
        #expect(try number("1e30").intValue == nil)
    }

    @Test func equalityIsByValue() throws {
        #expect(try number("1.0") == JSONNumber(1))
        #expect(try number("100e-2") == number("1"))
        #expect(try number("-0") == number("0"))
        #expect(try number("0.1") != number("0.10000000000000001"))
        #expect(try number("1.0").hashValue == JSONNumber(1).hashValue)
        #expect(JSONValue.number(JSONNumber(1)) == (try JSONValue.parse("1.00")))
        #expect(try number("1.0").literal == "1.0", "the spelling is kept")
    }

    @Test func orderingIsExact() throws {
        #expect(try number("0.1") < number("0.10000000000000001"))
        #expect(try number("-2") < number("-1.5"))
        #expect(try number("-1e308") < number("1e-308"))
        #expect(try number("9007199254740993") > number("9007199254740992"))
        #expect(try number("1e308") < number("1e309"))
        #expect(try !(number("2.50") < number("2.5")))
    }

    @Test func multiplesAreDecidedOnDecimals() throws {
        #expect(try number("0.0075").isMultiple(of: number("0.0001")))
        #expect(try number("0.3").isMultiple(of: number("0.1")), "binary floating point says no")
        #expect(try !number("0.00751").isMultiple(of: number("0.0001")))
        #expect(try number("1e308").isMultiple(of: number("0.5")))
        #expect(try number("1e308").isMultiple(of: number("1e307")))
        #expect(try !number("1e308").isMultiple(of: number("3")))
        #expect(try number("123456789012345678901234567890").isMultiple(of: number("10")))
        #expect(try number("0").isMultiple(of: number("7.3")))
        #expect(try number("19.99").isMultiple(of: number("0.01")))
        #expect(try number("4.5").isMultiple(of: number("1.5")))
        #expect(try !number("4.6").isMultiple(of: number("1.5")))
        // A divisor with more than 18 digits takes the long-division path.
        #expect(try number("2469135780246913578024691357802").isMultiple(of: number("1234567890123456789012345678901")))
        #expect(try !number("2469135780246913578024691357803").isMultiple(of: number("1234567890123456789012345678901")))
    }

    @Test func literalsFollowTheJSONGrammar() {
        for bad in ["01", "1.", ".1", "+1", "1e", "0x10", "NaN", "", "1 "] {
            #expect(JSONNumber(literal: bad) == nil, "\(bad)")
        }
        #expect(JSONNumber(literal: "1e1000000001") == nil, "absurd exponents are refused")
    }

    @Test func doublesRoundTrip() {
        #expect(JSONNumber(2.5).literal == "2.5")
        #expect(JSONNumber(3.0).literal == "3")
        #expect(JSONNumber(Double.nan) == JSONNumber(0))
        #expect(JSONNumber(52.2297).doubleValue == 52.2297)
    }
}
