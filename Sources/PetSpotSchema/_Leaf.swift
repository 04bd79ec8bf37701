import PetSpotJSON

/// A schema made only of assertions on the instance itself (`type`, lengths, `pattern`, bounds,
/// `multipleOf`, `enum`, `const`, `format`, `required`, item and property counts,
/// `uniqueItems`), fused into one check for the `isValid` path: one call and one switch instead
/// of a keyword loop. Most properties of a payload schema are leaves, and so are the
/// `{"required": [...]}` branches of `anyOf`/`if`.
/// The keywords stay on the node for `validate`, which reports each failure separately.
final class _Leaf {
    private let types: _TypeSet
    private let minLength: Int
    private let maxLength: Int
    private let checksLength: Bool
    /// Own the first pattern and the extras; `pattern` and `others` read them without
    /// reference counting on the validation path.
    private let patternStorage: _Pattern?
    private let othersStorage: _LeafExtras?
    private let pattern: Unmanaged<_Pattern>?
    private let required: _NameList?
    private let others: Unmanaged<_LeafExtras>?

    /// The rarer assertions, kept out of line so the common leaf stays small.
    fileprivate final class _LeafExtras {
        // Filled by `_Leaf.init`, read-only afterwards: no dynamic exclusivity checks needed.
        @exclusivity(unchecked) var patterns: [_Pattern] = []
        @exclusivity(unchecked) var formats: [_Format] = []
        @exclusivity(unchecked) var lowerBounds: [_Bound] = []
        @exclusivity(unchecked) var upperBounds: [_Bound] = []
        @exclusivity(unchecked) var divisors: [JSONNumber] = []
        /// `enum` and `const` values (a `const` is a one-value `enum`).
        @exclusivity(unchecked) var enumerations: [[JSONValue]] = []
        /// For each of ``enumerations``, its values when they are all strings (compared by
        /// code points without building a `JSONValue`), else nil.
        @exclusivity(unchecked) var stringEnumerations: [[String]?] = []
        @exclusivity(unchecked) var minProperties = 0
        @exclusivity(unchecked) var maxProperties = Int.max
        @exclusivity(unchecked) var minItems = 0
        @exclusivity(unchecked) var maxItems = Int.max
        @exclusivity(unchecked) var uniqueItems = false
    }

    /// The fused check for `keywords` (none: the always-true schema), or nil when one of them is
    /// not an instance assertion.
    init?(_ keywords: [_Keyword]) {
        var types: _TypeSet = [.null, .boolean, .integer, .number, .string, .array, .object]
        var minLength = 0
        var maxLength = Int.max
        var firstPattern: _Pattern?
        var required: _NameList?
        let extras = _LeafExtras()
        var usesExtras = false
        for keyword in keywords {
            switch keyword {
            case .type(let set): types = set.intersection(types)
            case .minLength(let limit): minLength = max(limit, minLength)
            case .maxLength(let limit): maxLength = min(limit, maxLength)
            case .pattern(let pattern):
                if firstPattern == nil { firstPattern = pattern } else { extras.patterns.append(pattern); usesExtras = true }
            case .format(let format): extras.formats.append(format); usesExtras = true
            case .minimum(let limit): extras.lowerBounds.append(_Bound(limit, exclusive: false)); usesExtras = true
            case .exclusiveMinimum(let limit): extras.lowerBounds.append(_Bound(limit, exclusive: true)); usesExtras = true
            case .maximum(let limit): extras.upperBounds.append(_Bound(limit, exclusive: false)); usesExtras = true
            case .exclusiveMaximum(let limit): extras.upperBounds.append(_Bound(limit, exclusive: true)); usesExtras = true
            case .multipleOf(let divisor): extras.divisors.append(divisor); usesExtras = true
            case .enumeration(let values): extras.appendEnumeration(values); usesExtras = true
            case .const(let value): extras.appendEnumeration([value]); usesExtras = true
            case .required(let names):
                if required == nil { required = names } else { required = _NameList(required!.names + names.names) }
            case .minProperties(let limit): extras.minProperties = max(limit, extras.minProperties); usesExtras = true
            case .maxProperties(let limit): extras.maxProperties = min(limit, extras.maxProperties); usesExtras = true
            case .minItems(let limit): extras.minItems = max(limit, extras.minItems); usesExtras = true
            case .maxItems(let limit): extras.maxItems = min(limit, extras.maxItems); usesExtras = true
            case .uniqueItems: extras.uniqueItems = true; usesExtras = true
            default: return nil
            }
        }
        self.types = types
        self.minLength = minLength
        self.maxLength = maxLength
        self.checksLength = minLength > 0 || maxLength < Int.max
        self.patternStorage = firstPattern
        self.pattern = firstPattern.map { Unmanaged.passUnretained($0) }
        self.required = required
        self.othersStorage = usesExtras ? extras : nil
        self.others = usesExtras ? Unmanaged.passUnretained(extras) : nil
    }

    /// Whether `instance` passes every fused keyword.
    func accepts(_ instance: JSONValue) -> Bool {
        withUnsafePointer(to: instance) { accepts($0) }
    }

    /// Whether the instance at `pointer` passes every fused keyword. Reading through a pointer
    /// lets a caller holding a buffer of values skip copying the (multi-payload) enum.
    func accepts(_ pointer: UnsafePointer<JSONValue>) -> Bool {
        if !types.admits(pointer.pointee) { return false }
        if case .string(let text) = pointer.pointee {
            if checksLength {
                let bytes = text.utf8.count
                // Code points are between bytes/4 and bytes; count them only when that matters.
                if bytes < minLength { return false }
                if bytes > maxLength || (bytes + 3) / 4 < minLength {
                    let length = text.unicodeScalars.count
                    if length < minLength || length > maxLength { return false }
                }
            }
            if let pattern, !pattern._withUnsafeGuaranteedRef({ $0.matches(text) }) { return false }
        } else if let required, case .object(let object) = pointer.pointee {
            if !required.allPresent(in: object.keys) { return false }
        }
        guard let others else { return true }
        return others._withUnsafeGuaranteedRef { $0.accepts(pointer) }
    }
}

/// A `minimum`/`maximum` bound with its `Double` image, which decides most comparisons
/// without touching the decimal digits.
struct _Bound {
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

extension _Leaf._LeafExtras {
    func appendEnumeration(_ values: [JSONValue]) {
        enumerations.append(values)
        var strings: [String] = []
        for value in values {
            guard case .string(let text) = value else {
                stringEnumerations.append(nil)
                return
            }
            strings.append(text)
        }
        stringEnumerations.append(strings)
    }

    func accepts(_ pointer: UnsafePointer<JSONValue>) -> Bool {
        switch pointer.pointee {
        case .string(let text):
            if !patterns.isEmpty {
                for pattern in patterns where !pattern.matches(text) { return false }
            }
        case .object(let object):
            if object.count < minProperties || object.count > maxProperties { return false }
        case .array(let items):
            if items.count < minItems || items.count > maxItems { return false }
            if uniqueItems && _Evaluator.firstDuplicate(items) != nil { return false }
        case .number(let number):
            if !lowerBounds.isEmpty {
                for bound in lowerBounds {
                    let order = bound.compare(number)
                    if order < 0 || (order == 0 && bound.exclusive) { return false }
                }
            }
            if !upperBounds.isEmpty {
                for bound in upperBounds {
                    let order = bound.compare(number)
                    if order > 0 || (order == 0 && bound.exclusive) { return false }
                }
            }
            if !divisors.isEmpty {
                for divisor in divisors where !number.isMultiple(of: divisor) { return false }
            }
        default:
            break
        }
        if !formats.isEmpty {
            for format in formats where !format.accepts(pointer.pointee) { return false }
        }
        if !enumerations.isEmpty {
            for index in enumerations.indices {
                if let strings = stringEnumerations[index] {
                    guard case .string(let text) = pointer.pointee else { return false }
                    let length = text.utf8.count
                    var found = false
                    for candidate in strings where candidate.utf8.count == length && candidate.hasSameCodePoints(as: text) {
                        found = true
                        break
                    }
                    if !found { return false }
                } else if !enumerations[index].contains(pointer.pointee) {
                    return false
                }
            }
        }
        return true
    }
}
