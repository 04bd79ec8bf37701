import Foundation
import PetSpotConcurrency
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotPropertyEngine
import PetSpotReport
import PetSpotRuntime

/// The in-process strict mock `check` submits to: a fresh ``MockBackend`` whose clock judges
/// each submitted case at the case's own instant, and the real time otherwise.
package struct InProcessMock {
    /// The mock.
    package let backend: MockBackend
    /// The mock as the backend groups' target.
    package let target: BackendTarget

    /// A mock that receives what `oracle` submits for `cases` cases of `generator` from `seed`;
    /// the credentials exchanged with it are learnt into `secrets`.
    package init(oracle: any FlowOracle, generator: Gen<FlowCase>, cases: Int, seed: UInt64, secrets: SecretStore = SecretStore()) {
        let clock = Locked<Date?>(nil)
        backend = MockBackend(profile: .strict, clock: { clock.withLock { $0 } ?? Date() })
        secrets.add(backend.adminToken)
        target = BackendTarget(
            name: "the in-process strict mock", transport: BudgetedTransport(InProcessTransport(backend: backend), limit: .max, secrets: secrets),
            profile: .strict, adminToken: backend.adminToken, microchips: MicrochipSequence(), concurrency: RunSettings.run.concurrency,
            submissions: {
                await runOnDedicatedThread {
                    SubmittedReports.submitted(generator.samples(count: cases, seed: seed).map(Self.realPhoto), oracle: oracle)
                }
            },
            serverClock: { instant in clock.withLock { $0 = instant } }, sideBySide: false)
    }

    /// `flowCase` with a declared PNG or JPEG no smaller than the smallest real image: the app
    /// checks the declared size only, while the backend reads the file's magic bytes, so a
    /// 1-byte "image" is a boundary of the app's rule (checked against the reference model) but
    /// not a file a photo picker produces.
    @Sendable static func realPhoto(_ flowCase: FlowCase) -> FlowCase {
        guard var photo = flowCase.inputs.photo, (1..<FieldGenerators.smallestImageBytes).contains(photo.byteCount) else { return flowCase }
        var copy = flowCase
        photo.byteCount = FieldGenerators.smallestImageBytes
        copy.inputs.photo = photo
        return copy
    }
}
