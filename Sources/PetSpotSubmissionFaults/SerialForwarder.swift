import Foundation
import PetSpotConcurrency
import PetSpotModel

/// Forwards requests one at a time, in the order they come, on one thread of its own; each
/// caller waits for its answer.
///
/// The fault proxy sends it the requests whose large bodies the budget holds, so that what the
/// backend allocates for such a body (the in-process mock's copy, its parse) comes from that one
/// thread's malloc arena. Forwarded on the requests' own threads, each body's copy lands in the
/// arena of its thread and stays resident there once freed (glibc keeps a freed block of that
/// size in its arena once it has raised its mmap threshold): ten uploads of 20 MiB at once kept
/// ten copies. The thread ends once stopped with nothing left to forward; a request sent after
/// that starts it again.
final class SerialForwarder: Sendable {
    private struct State: Sendable {
        var pending: [(id: Int, request: TransportRequest)] = []
        var answers: [Int: Result<TransportResponse, TransportError>] = [:]
        var nextID = 0
        var threadRunning = false
        var stopping = false
        /// Requests forwarded so far (for tests).
        var forwarded = 0
    }

    private let forward: @Sendable (TransportRequest) -> Result<TransportResponse, TransportError>
    private let state = Locked(State())

    /// A forwarder sending each request with `forward`, which blocks until the answer.
    init(forward: @escaping @Sendable (TransportRequest) -> Result<TransportResponse, TransportError>) {
        self.forward = forward
    }

    /// The requests forwarded so far.
    var forwardedCount: Int { state.withLock { $0.forwarded } }

    /// Forwards `request` after the ones sent before it, and waits for its answer.
    func send(_ request: TransportRequest) -> Result<TransportResponse, TransportError> {
        let (id, startsThread) = state.withLock { state -> (Int, Bool) in
            let id = state.nextID
            state.nextID += 1
            state.pending.append((id, request))
            defer { state.threadRunning = true }
            return (id, !state.threadRunning)
        }
        if startsThread {
            let thread = Thread { [self] in run() }
            thread.name = "petspot-fault-proxy-forwarder"
            thread.start()
        }
        while true {
            let answer = state.withLock(waitingUntil: Date(timeIntervalSinceNow: 3600), for: { $0.answers[id] != nil }) { state, ready in
                ready ? state.answers.removeValue(forKey: id) : nil
            }
            if let answer { return answer }
        }
    }

    /// Lets the thread end once nothing is left to forward.
    func stop() {
        state.withLock { $0.stopping = true }
    }

    /// What the thread does next.
    private enum Step {
        case forward(id: Int, request: TransportRequest)
        case wait
        case end
    }

    private func run() {
        while true {
            let step = state.withLock(waitingUntil: Date(timeIntervalSinceNow: 1), for: { !$0.pending.isEmpty || $0.stopping }) {
                state, _ -> Step in
                if !state.pending.isEmpty {
                    let next = state.pending.removeFirst()
                    return .forward(id: next.id, request: next.request)
                }
                guard state.stopping else { return .wait }
                state.threadRunning = false
                return .end
            }
            switch step {
            case .forward(let id, let request):
                let answer = forward(request)
                state.withLock { state in
                    state.answers[id] = answer
                    state.forwarded += 1
                }
            case .wait: continue
            case .end: return
            }
        }
    }
}
