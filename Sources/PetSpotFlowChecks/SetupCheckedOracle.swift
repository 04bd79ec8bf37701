/// An oracle that can find out that it was never set up: an adapter that answered no question
/// because it could not start, exited at once or never flushed (``AdapterOracle/setupFailure``).
/// The flow contracts ask it nothing more once it knows.
package protocol SetupCheckedOracle: FlowOracle {
    /// Whether the oracle is known to answer no question: a setup mistake, not a defect of the app.
    var failedSetup: Bool { get }
}
