import PetSpotJSON

/// A schema made only of assertions on the instance itself (`type`, lengths, `pattern`, bounds,
/// `multipleOf`, `enum`, `const`, `format`, `required`, item and property counts,
/// `uniqueItems`), fused into one check for the fast path: one call and one switch instead
/// of a keyword loop. Most properties of a payload schema are leaves, and so are the
/// `{"required": [...]}` branches of `anyOf`/`if`.
/// The keywords stay on the node for `validate`, which reports each failure separately.
final class LeafCheck: Sendable {
    private let types: InstanceTypes
    private let minLength: Int
    private let maxLength: Int
    private let checksLength: Bool
    private let pattern: RegexPattern?
    private let required: PropertyNameList?
    private let extras: Extras?
    /// ``pattern`` and ``extras`` for the fast path, unretained (owned by those two `let`s).
    private let unretainedPattern: UnretainedReference<RegexPattern>?
    private let unretainedExtras: UnretainedReference<Extras>?

    /// The rarer assertions, kept out of line so the common leaf stays small.
    fileprivate final class Extras: Sendable {
        let patterns: [RegexPattern]
        let formats: [StringFormat]
        let lowerBounds: [NumericBound]
        let upperBounds: [NumericBound]
        let divisors: [JSONNumber]
        /// `enum` and `const` values (a `const` is a one-value `enum`).
        let enumerations: [[JSONValue]]
        /// For each of ``enumerations``, its values when they are all strings (compared by
        /// code points without building a `JSONValue`), else nil.
        let stringEnumerations: [[String]?]
        let minProperties: Int
        let maxProperties: Int
        let minItems: Int
        let maxItems: Int
        let uniqueItems: Bool

        init(_ builder: ExtrasBuilder) {
            patterns = builder.patterns
            formats = builder.formats
            lowerBounds = builder.lowerBounds
            upperBounds = builder.upperBounds
            divisors = builder.divisors
            enumerations = builder.enumerations
            stringEnumerations = builder.enumerations.map { values in
                var strings: [String] = []
                for value in values {
                    guard case .string(let text) = value else { return nil }
                    strings.append(text)
                }
                return strings
            }
            minProperties = builder.minProperties
            maxProperties = builder.maxProperties
            minItems = builder.minItems
            maxItems = builder.maxItems
            uniqueItems = builder.uniqueItems
        }
    }

    /// ``Extras`` while the keywords are being read.
    fileprivate struct ExtrasBuilder {
        var patterns: [RegexPattern] = []
        var formats: [StringFormat] = []
        var lowerBounds: [NumericBound] = []
        var upperBounds: [NumericBound] = []
        var divisors: [JSONNumber] = []
        var enumerations: [[JSONValue]] = []
        var minProperties = 0
        var maxProperties = Int.max
        var minItems = 0
        var maxItems = Int.max
        var uniqueItems = false
        var isUsed = false
    }

    /// The fused check for `keywords` (none: the always-true schema), or nil when one of them is
    /// not an instance assertion.
    init?(_ keywords: [Keyword]) {
        var types = InstanceTypes.all
        var minLength = 0
        var maxLength = Int.max
        var firstPattern: RegexPattern?
        var required: PropertyNameList?
        var extras = ExtrasBuilder()
        for keyword in keywords {
            switch keyword {
            case .type(let set): types = set.intersection(types)
            case .minLength(let limit): minLength = max(limit, minLength)
            case .maxLength(let limit): maxLength = min(limit, maxLength)
            case .pattern(let pattern):
                if firstPattern == nil { firstPattern = pattern } else { extras.patterns.append(pattern); extras.isUsed = true }
            case .format(let format): extras.formats.append(format); extras.isUsed = true
            case .minimum(let limit): extras.lowerBounds.append(NumericBound(limit, exclusive: false)); extras.isUsed = true
            case .exclusiveMinimum(let limit): extras.lowerBounds.append(NumericBound(limit, exclusive: true)); extras.isUsed = true
            case .maximum(let limit): extras.upperBounds.append(NumericBound(limit, exclusive: false)); extras.isUsed = true
            case .exclusiveMaximum(let limit): extras.upperBounds.append(NumericBound(limit, exclusive: true)); extras.isUsed = true
            case .multipleOf(let divisor): extras.divisors.append(divisor); extras.isUsed = true
            case .enumeration(let values): extras.enumerations.append(values); extras.isUsed = true
            case .const(let value): extras.enumerations.append([value]); extras.isUsed = true
            case .required(let names):
                required = required.map { PropertyNameList($0.names + names.names) } ?? names
            case .minProperties(let limit): extras.minProperties = max(limit, extras.minProperties); extras.isUsed = true
            case .maxProperties(let limit): extras.maxProperties = min(limit, extras.maxProperties); extras.isUsed = true
            case .minItems(let limit): extras.minItems = max(limit, extras.minItems); extras.isUsed = true
            case .maxItems(let limit): extras.maxItems = min(limit, extras.maxItems); extras.isUsed = true
            case .uniqueItems: extras.uniqueItems = true; extras.isUsed = true
            default: return nil
            }
        }
        self.types = types
        self.minLength = minLength
        self.maxLength = maxLength
        self.checksLength = minLength > 0 || maxLength < Int.max
        self.pattern = firstPattern
        self.required = required
        let fused = extras.isUsed ? Extras(extras) : nil
        self.extras = fused
        unretainedPattern = firstPattern.map(UnretainedReference.init)
        unretainedExtras = fused.map(UnretainedReference.init)
    }

    /// Whether `instance` passes every fused keyword.
    /// - Throws: ``PatternStepBudgetExhausted`` when a pattern could not be decided.
    func accepts(_ instance: borrowing JSONValue) throws(PatternStepBudgetExhausted) -> Bool {
        if !types.admits(instance) { return false }
        switch instance {
        case .string(let text):
            if checksLength {
                let bytes = text.utf8.count
                // Code points are between bytes/4 and bytes; count them only when that matters.
                if bytes < minLength { return false }
                if bytes > maxLength || (bytes + 3) / 4 < minLength {
                    let length = text.unicodeScalars.count
                    if length < minLength || length > maxLength { return false }
                }
            }
            if let unretainedPattern, try !unretainedPattern.withObject({ pattern throws(PatternStepBudgetExhausted) in try pattern.matches(text) }) {
                return false
            }
        case .object(let object):
            if let required, !required.allPresent(in: object.keys) { return false }
        default:
            break
        }
        guard let unretainedExtras else { return true }
        return try unretainedExtras.withObject { extras throws(PatternStepBudgetExhausted) in try extras.accepts(instance) }
    }
}

/// A `minimum`/`maximum` bound with its `Double` image, which decides most comparisons
/// without touching the decimal digits.
struct NumericBound: Sendable {
    let limit: JSONNumber
    let exclusive: Bool
    /// `limit` as a `Double` when that is exact (integers below 2^53), else NaN.
    let exactDouble: Double

    init(_ limit: JSONNumber, exclusive: Bool) {
        self.limit = limit
        self.exclusive = exclusive
        let exact = limit.isInteger && limit.digits.count + limit.exponent <= 15
        exactDouble = exact ? limit.doubleValue : .nan
    }

    /// -1, 0 or 1 as `number` is below, equal to or above the limit. Rounding to `Double` is
    /// monotonic and the limit is exact, so a `Double` difference is decisive; only a `Double`
    /// tie needs the decimals.
    @inline(__always)
    func compare(_ number: JSONNumber) -> Int {
        let value = number.doubleValue
        if value < exactDouble { return -1 }
        if value > exactDouble { return 1 }
        return number < limit ? -1 : limit < number ? 1 : 0
    }
}

extension LeafCheck.Extras {
    func accepts(_ instance: borrowing JSONValue) throws(PatternStepBudgetExhausted) -> Bool {
        switch instance {
        case .string(let text):
            for pattern in patterns where try !pattern.matches(text) { return false }
        case .object(let object):
            if object.count < minProperties || object.count > maxProperties { return false }
        case .array(let items):
            if items.count < minItems || items.count > maxItems { return false }
            if uniqueItems && Evaluator.firstDuplicate(items) != nil { return false }
        case .number(let number):
            for bound in lowerBounds {
                let order = bound.compare(number)
                if order < 0 || (order == 0 && bound.exclusive) { return false }
            }
            for bound in upperBounds {
                let order = bound.compare(number)
                if order > 0 || (order == 0 && bound.exclusive) { return false }
            }
            for divisor in divisors where !number.isMultiple(of: divisor) { return false }
        default:
            break
        }
        for format in formats where !format.accepts(copy instance) { return false }
        for index in enumerations.indices {
            if let strings = stringEnumerations[index] {
                guard case .string(let text) = copy instance else { return false }
                let length = text.utf8.count
                var found = false
                for candidate in strings where candidate.utf8.count == length && candidate.hasSameCodePoints(as: text) {
                    found = true
                    break
                }
                if !found { return false }
            } else if !enumerations[index].contains(copy instance) {
                return false
            }
        }
        return true
    }
}
