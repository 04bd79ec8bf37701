// petspot-adapter-filter: test support that changes what an adapter sees or says, line by line,
// to make other apps out of the example adapter without touching it. Two filters around it:
//
//     check --sut "petspot-adapter-filter --questions --keep-bom | petspot-example-adapter \
//                  | petspot-adapter-filter --seed 7 --keep-bom"
//
// On the answers (the default): every number respelled in another valid JSON form of the same
// value (checked), as an adapter in another language may write them (Python's Decimal and Java's
// BigDecimal print `1E+1`; others keep trailing zeros or `-0`); `--form NAME` writes every
// number in one form, else a form is picked per number from `--seed`; `--form plain` leaves the
// spelling alone.
//
// `--keep-bom` on both sides plants a trimming helper that keeps U+FEFF, shared by every field:
// the questions' U+FEFF become U+10FFFD (a private-use character the adapter's trimming keeps),
// and the answers' U+10FFFD become U+FEFF again.
//
// A line that is not a JSON object passes unchanged; each line is written flushed; exits 0 at
// the end of its input. It never touches the network.
import Foundation
import PetSpotJSON
import PetSpotProcess
import PetSpotPropertyEngine

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

/// The stand-in for U+FEFF while the adapter has the text (`--keep-bom`).
let bomStandIn: Unicode.Scalar = "\u{10FFFD}"

/// `text` with every `from` scalar replaced by `to`.
func replacing(_ from: Unicode.Scalar, with to: Unicode.Scalar, in text: String) -> String {
    guard text.unicodeScalars.contains(from) else { return text }
    var view = String.UnicodeScalarView()
    for scalar in text.unicodeScalars { view.append(scalar == from ? to : scalar) }
    return String(view)
}

/// What the filter does to each value of a line.
struct Changes {
    /// Respell numbers (answers only): in this form, or one picked per number when `nil`.
    var numbers: Bool
    var form: NumberForm?
    /// Replace this scalar in every string (and object key) by the other.
    var scalars: (from: Unicode.Scalar, to: Unicode.Scalar)?
}

func respelled(_ value: JSONValue, _ changes: Changes, random: inout SplitMix64) -> JSONValue {
    switch value {
    case .string(let text):
        guard let scalars = changes.scalars else { return value }
        return .string(replacing(scalars.from, with: scalars.to, in: text))
    case .number(let number):
        guard changes.numbers else { return value }
        let chosen = changes.form ?? NumberForm.allCases[Int(random.next() % UInt64(NumberForm.allCases.count))]
        guard let spelled = JSONNumber(literal: chosen.spell(number)), spelled == number else {
            FileHandle.standardError.write(Data("petspot-adapter-filter: \(chosen.rawValue) changes \(number.literal); kept\n".utf8))
            return value
        }
        return .number(spelled)
    case .array(let items):
        var respelledItems: [JSONValue] = []
        for item in items { respelledItems.append(respelled(item, changes, random: &random)) }
        return .array(respelledItems)
    case .object(let object):
        var members: [JSONObject.Element] = []
        for member in object.members { members.append((member.key, respelled(member.value, changes, random: &random))) }
        return .object(JSONObject(members))
    default:
        return value
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("petspot-adapter-filter: \(message)\n".utf8))
    exit(64)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var changes = Changes(numbers: true)
var seed: UInt64 = 0
var questions = false, keepBOM = false
while !arguments.isEmpty {
    let flag = arguments.removeFirst()
    switch flag {
    case "--questions": questions = true
    case "--keep-bom": keepBOM = true
    case "--seed", "--form":
        guard let value = arguments.first else { fail("\(flag) needs a value") }
        arguments.removeFirst()
        if flag == "--seed" {
            seed = UInt64(value) ?? 0
        } else if let named = NumberForm(rawValue: value) {
            changes.form = named
        } else {
            fail("forms: \(NumberForm.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    default: fail("unknown flag \(flag)")
    }
}
if questions { changes.numbers = false }
if keepBOM { changes.scalars = questions ? ("\u{FEFF}", bomStandIn) : (bomStandIn, "\u{FEFF}") }
var random = SplitMix64(seed: seed)  // one seed, one run
// Started by the runner or a test: exit once it is gone, even if our standard input stays open.
ParentWatch.start(ending: .exit)
while let line = readLine(strippingNewline: true) {
    var reply = line
    if let value = try? JSONValue.parse(line), case .object = value {
        reply = respelled(value, changes, random: &random).serialized()
    }
    FileHandle.standardOutput.write(Data((reply + "\n").utf8))
}
exit(0)
