// petspot-number-forms: a filter that respells every number of an adapter's answer lines in
// another valid JSON form of the same value, as an adapter in another language may write them
// (Python's Decimal and Java's BigDecimal print `1E+1`; others keep trailing zeros or `-0`).
//
//     check --sut "petspot-example-adapter | petspot-number-forms --seed 7"
//
// Reads lines on standard input, writes each back flushed: a JSON object has every number
// respelled (its value unchanged, checked), any other line passes unchanged. `--form NAME`
// writes every number in one form; the default picks a form per number from `--seed`. Exits 0
// at the end of its input. Test support only: it never touches the network.
import Foundation
import PetSpotJSON

/// The spellings of one value, each valid JSON with the same value.
enum NumberForm: String, CaseIterable {
    /// `5.21E+1`: scientific, upper-case E, explicit `+`.
    case exponentPlus = "exponent-plus"
    /// `521e-1`: the digits as an integer, lower-case exponent.
    case integerMantissa = "integer-mantissa"
    /// `0.521E2`: a fraction as mantissa.
    case fractionMantissa = "fraction-mantissa"
    /// `52.1000`, `4.000`: plain decimal with trailing zeros.
    case trailingZeros = "trailing-zeros"
    /// `52100000e-6`: digits padded with zeros, scaled back by the exponent.
    case padded = "padded"
    /// `-0`, `-0.0E+0` for zero (other values plain).
    case negativeZero = "negative-zero"
    /// The shortest plain decimal (`52.1`, `4`).
    case plain = "plain"

    /// `number` in this form.
    func spell(_ number: JSONNumber) -> String {
        let digits = number.digits.map { String($0) }.joined()
        let sign = number.isNegative ? "-" : ""
        let exponent = number.exponent
        if number.isZero {
            switch self {
            case .exponentPlus: return "0E+0"
            case .integerMantissa: return "0e5"
            case .fractionMantissa: return "0.0E-3"
            case .trailingZeros: return "0.000"
            case .padded: return "0.000000e6"
            case .negativeZero: return "-0"
            case .plain: return "0"
            }
        }
        switch self {
        case .exponentPlus:
            let rest = digits.dropFirst()
            let power = exponent + digits.count - 1
            return sign + String(digits.prefix(1)) + (rest.isEmpty ? "" : "." + rest) + "E" + (power < 0 ? "-" : "+") + String(abs(power))
        case .integerMantissa:
            return sign + digits + "e" + String(exponent)
        case .fractionMantissa:
            return sign + "0." + digits + "E" + String(exponent + digits.count)
        case .trailingZeros:
            let plain = Self.plain(digits, exponent)
            return sign + plain + (plain.contains(".") ? "000" : ".000")
        case .padded:
            return sign + digits + "000000" + "e" + String(exponent - 6)
        case .negativeZero, .plain:
            return sign + Self.plain(digits, exponent)
        }
    }

    /// `digits × 10^exponent` as a plain decimal.
    static func plain(_ digits: String, _ exponent: Int) -> String {
        if exponent >= 0 { return digits + String(repeating: "0", count: exponent) }
        let point = digits.count + exponent
        if point > 0 { return String(digits.prefix(point)) + "." + String(digits.dropFirst(point)) }
        return "0." + String(repeating: "0", count: -point) + digits
    }
}

/// A small deterministic generator (SplitMix64), so that one seed gives one run.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func respelled(_ value: JSONValue, form: NumberForm?, random: inout SplitMix) -> JSONValue {
    switch value {
    case .number(let number):
        let chosen = form ?? NumberForm.allCases[Int(random.next() % UInt64(NumberForm.allCases.count))]
        guard let spelled = JSONNumber(literal: chosen.spell(number)), spelled == number else {
            FileHandle.standardError.write(Data("petspot-number-forms: \(chosen.rawValue) changes \(number.literal); kept\n".utf8))
            return value
        }
        return .number(spelled)
    case .array(let items):
        var respelledItems: [JSONValue] = []
        for item in items { respelledItems.append(respelled(item, form: form, random: &random)) }
        return .array(respelledItems)
    case .object(let object):
        var members: [JSONObject.Element] = []
        for member in object.members { members.append((member.key, respelled(member.value, form: form, random: &random))) }
        return .object(JSONObject(members))
    default:
        return value
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
var form: NumberForm?
var seed: UInt64 = 0
while !arguments.isEmpty {
    let flag = arguments.removeFirst()
    guard let value = arguments.first else {
        FileHandle.standardError.write(Data("petspot-number-forms: \(flag) needs a value\n".utf8))
        exit(64)
    }
    arguments.removeFirst()
    switch flag {
    case "--seed": seed = UInt64(value) ?? 0
    case "--form":
        guard let named = NumberForm(rawValue: value) else {
            FileHandle.standardError.write(Data("petspot-number-forms: forms: \(NumberForm.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
            exit(64)
        }
        form = named
    default:
        FileHandle.standardError.write(Data("petspot-number-forms: unknown flag \(flag)\n".utf8))
        exit(64)
    }
}
var random = SplitMix(state: seed)
while let line = readLine(strippingNewline: true) {
    var reply = line
    if let value = try? JSONValue.parse(line), case .object = value {
        reply = respelled(value, form: form, random: &random).serialized()
    }
    FileHandle.standardOutput.write(Data((reply + "\n").utf8))
}
exit(0)
