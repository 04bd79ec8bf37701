/// What grants a run its requests and can stop granting them (the run's budgeted transport), so
/// that an interruption or a deadline ends a run without knowing how its requests are sent.
package protocol RequestGranting: Sendable {
    /// Refuses every later request, for `reason` (e.g. `the run was interrupted by SIGTERM`).
    func stopGranting(because reason: String)
}
