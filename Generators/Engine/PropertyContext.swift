import PetSpotConcurrency

/// The labels of the case being run; installed as a task-local by the runner.
///
/// The state is behind a lock because a property body may hand the task-local to work on
/// other threads (a `Task` started in the body inherits it).
final class CaseContext: Sendable {
    struct State {
        var labels: Set<String> = []
        var isRecording = true
    }

    let state = Locked(State())

    /// The context of the property run on this task, if any.
    @TaskLocal static var current: CaseContext?
}

/// Labels the current test case as belonging to the class `name`.
///
/// Call it inside a property body; the run's ``LabelStatistics`` report the share of
/// passing cases that carried each label, and coverage requirements
/// (``Property/requireCoverage(_:atLeast:)``) fail the run when a label is too rare.
/// A label counts once per case however often it is applied. Outside a property it does nothing.
public func label(_ name: String) {
    CaseContext.current?.state.withLock { state in
        if state.isRecording { state.labels.insert(name) }
    }
}

/// Labels the current test case as `name` when `condition` holds.
public func classify(_ condition: Bool, _ name: String) {
    if condition { label(name) }
}

/// Discards the current test case unless `condition` holds.
///
/// A discarded case neither passes nor fails; too many make the run give up with `reason`.
/// - Throws: ``TestCaseStop/rejected(_:)`` when `condition` is false.
public func assume(_ condition: Bool, _ reason: @autoclosure () -> String = "an assumption did not hold") throws {
    if !condition { throw TestCaseStop.rejected("assume: \(reason())") }
}

/// The error ``require(_:_:)`` throws: a failed check with its message.
public struct RequirementFailure: Error, Sendable, CustomStringConvertible {
    /// What was required and what happened instead.
    public let message: String

    /// Creates a failure with `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Fails the current test case with `message` unless `condition` holds.
///
/// - Throws: ``RequirementFailure`` when `condition` is false.
public func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw RequirementFailure(message()) }
}
