import Foundation
import PetSpotConcurrency
import PetSpotTestSupport
import Testing

@Suite("Locked", .onOwnThreads)
struct LockedTests {
    @Test func concurrentIncrementsAreNeverLost() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func aWaiterWakesWhenAnotherThreadMakesItsConditionTrue() {
        let lines = Locked<[String]>([])
        let writer = Thread {
            Thread.sleep(forTimeInterval: 0.05)
            lines.withLock { $0.append("answer") }
        }
        writer.start()
        let line = lines.withLock(waitingUntil: Date(timeIntervalSinceNow: 5), for: { !$0.isEmpty }) { lines, ready in
            ready ? lines.removeFirst() : nil
        }
        #expect(line == "answer")
    }

    @Test func aWaiterGivesUpAtItsDeadline() {
        let flag = Locked(false)
        let start = Date()
        let ready = flag.withLock(waitingUntil: Date(timeIntervalSinceNow: 0.1), for: { $0 }) { _, ready in ready }
        #expect(!ready)
        #expect(Date().timeIntervalSince(start) >= 0.09)
    }
}
