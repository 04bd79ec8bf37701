#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PetSpotConcurrency
import PetSpotTestSupport
import Testing
@testable import PetSpotHTTP

/// What a thread sees of SIGINT and SIGTERM: each one's handler (as an address) and whether the
/// thread blocks it.
private struct SignalSnapshot: Equatable, Sendable {
    var handlers: [Int]
    var blocked: [Bool]

    static func take() -> SignalSnapshot {
        var mask = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &mask)
        var snapshot = SignalSnapshot(handlers: [], blocked: [])
        for signalNumber in [SIGINT, SIGTERM] {
            var action = sigaction()
            sigaction(signalNumber, nil, &action)
            #if canImport(Darwin)
            snapshot.handlers.append(unsafeBitCast(action.__sigaction_u, to: Int.self))
            #else
            snapshot.handlers.append(unsafeBitCast(action.__sigaction_handler, to: Int.self))
            #endif
            snapshot.blocked.append(sigismember(&mask, signalNumber) == 1)
        }
        return snapshot
    }
}

/// The signal behaviour of ``HTTPServer/runUntilTerminated(ready:)`` in this process, without
/// sending any signal (the process tests in `MockProcessTests` send real ones to a child).
@Suite("HTTPServer signal handling", .onOwnThreads)
struct HTTPServerSignalTests {
    private struct Observations: Sendable {
        var port: Int?
        var before: SignalSnapshot?
        var during: SignalSnapshot?
        var after: SignalSnapshot?
        var error: String?
        var returned = false
    }

    @Test("runUntilTerminated returns when stopped and puts back the previous SIGINT/SIGTERM dispositions and signal mask")
    func restoresDispositionsAndMask() throws {
        let server = HTTPServer { _ in HTTPResponse(status: 200) }
        let observations = Locked(Observations())
        let thread = Thread {
            // A prior state that differs from the defaults: SIGINT ignored, and blocked in this thread.
            var ignore = sigaction()
            #if canImport(Darwin)
            ignore.__sigaction_u.__sa_handler = SIG_IGN
            #else
            ignore.__sigaction_handler.sa_handler = SIG_IGN
            #endif
            var originalInterrupt = sigaction()
            sigaction(SIGINT, &ignore, &originalInterrupt)
            var interrupt = sigset_t()
            sigemptyset(&interrupt)
            sigaddset(&interrupt, SIGINT)
            var originalMask = sigset_t()
            pthread_sigmask(SIG_BLOCK, &interrupt, &originalMask)
            let before = SignalSnapshot.take()
            var failure: String?
            do throws(HTTPSocketError) {
                try server.runUntilTerminated { port in
                    let during = SignalSnapshot.take()
                    observations.withLock {
                        $0.port = port
                        $0.during = during
                    }
                }
            } catch {
                failure = error.description
            }
            let after = SignalSnapshot.take()
            sigaction(SIGINT, &originalInterrupt, nil)
            pthread_sigmask(SIG_SETMASK, &originalMask, nil)
            observations.withLock {
                $0.before = before
                $0.after = after
                $0.error = failure
                $0.returned = true
            }
        }
        thread.start()
        let port = observations.withLock(waitingUntil: Date(timeIntervalSinceNow: 10), for: { $0.port != nil || $0.returned }) { seen, _ in seen.port }
        let servedPort = try #require(port, "runUntilTerminated did not report a port: \(observations.withLock { $0.error ?? "" })")
        #expect(try RawHTTPConnection(port: servedPort).send(HTTPRequest(method: "GET", target: "/"))?.status == 200)
        server.stop()
        let seen = observations.withLock(waitingUntil: Date(timeIntervalSinceNow: 10), for: { $0.returned }) { seen, _ in seen }
        #expect(seen.returned, "runUntilTerminated did not return after stop()")
        #expect(seen.error == nil)
        let before = try #require(seen.before), during = try #require(seen.during), after = try #require(seen.after)
        #expect(before.blocked[0], "SIGINT was blocked in the thread before the call")
        // While serving: both signals caught by a handler (neither default nor ignored), and unblocked here.
        #expect(during.handlers[0] != before.handlers[0] && during.handlers[1] != before.handlers[1])
        #expect(during.blocked == [false, false])
        #expect(after == before)
        #expect(server.port == nil)
        #expect(throws: HTTPSocketError.self) { try RawHTTPConnection(port: servedPort) }
    }
}
