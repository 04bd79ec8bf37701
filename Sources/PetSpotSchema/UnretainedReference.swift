/// The validator's only unsafe code: a reference that calls into its object without
/// reference counting, for the fast path's innermost calls (each keyword of a schema, a
/// schema's `$ref` target, a keyword's subschemas), where retain/release pairs would otherwise
/// cost as much as the checks themselves: with a strong reference in its place the validator
/// runs at less than half its speed (2026-11-26, create-request payload: 405,000 against
/// 923,000 validations per CPU-second, same run).
///
/// Soundness rests on one invariant, kept by construction: **an `UnretainedReference` is stored
/// only in an immutable (`let`-only) object that also holds a strong `let` reference to the same
/// referent**, set in the same initializer. The holder is alive for as long as anyone can read
/// the unretained reference from it, and its strong reference cannot be reassigned, so the
/// referent outlives every ``withObject(_:)`` call. (A struct holding both, like ``Subschemas``,
/// keeps it too: every copy that can hand out the unretained reference also holds the strong
/// one.) Each construction site is in an initializer beside its owning `let`: `SchemaNode.init`,
/// `Subschemas.init`. The type is trivial (no reference counting when copied), so arrays of it
/// cost nothing to read.
///
/// Checked in debug builds twice over: each reference also keeps a weak reference and traps if
/// its referent is gone; and ``CompiledSchema/validity(of:)`` compares every fast-path verdict
/// with the collecting evaluator's, which reaches schemas and keywords through strong references only.
///
/// Under `-strict-memory-safety` every unsafe operation of the module is marked `unsafe`, and
/// all of them are here; `@safe` states that the type's uses are safe given the invariant.
@safe struct UnretainedReference<Object: AnyObject & Sendable>: Sendable {
    private let unmanaged: Unmanaged<Object>
    #if DEBUG
    /// The same object, weakly: nil once it is freed, which the invariant rules out.
    private weak let check: Object?
    #endif

    /// An unretained reference to `object`; see the invariant above.
    init(_ object: Object) {
        unsafe unmanaged = .passUnretained(object)
        #if DEBUG
        check = object
        #endif
    }

    /// Calls `body` with the object, without retaining it.
    @inline(__always)
    func withObject<Result, Failure: Error>(_ body: (Object) throws(Failure) -> Result) throws(Failure) -> Result {
        #if DEBUG
        precondition(check != nil, "UnretainedReference used after its referent was freed: its holder does not own the referent")
        #endif
        let outcome = unsafe unmanaged._withUnsafeGuaranteedRef { object in
            Swift.Result { () throws(Failure) -> Result in try body(object) }
        }
        return try outcome.get()
    }
}
