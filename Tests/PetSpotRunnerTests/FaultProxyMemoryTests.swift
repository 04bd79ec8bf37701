import Foundation
import PetSpotConcurrency
import PetSpotHTTP
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
@testable import PetSpotSubmissionFaults
import PetSpotTestSupport
import Testing

// What the fault proxy holds in memory while an app floods it (issue 28): large bodies reach the
// backend whole and one at a time, and `check` against scripts/hostile_submission_adapter.py
// stays within 3 times the memory of a normal run.

@Suite("fault proxy memory", .serialized, .onOwnThreads)
struct FaultProxyMemoryTests {
    static let hostileScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/hostile_submission_adapter.py").path

    @Test("bodies over 64 KiB reach the backend whole, one at a time and all from one thread")
    func largeBodiesForwardedSerially() async throws {
        struct Seen: Sendable {
            /// A tag per thread that forwarded (a thread's own, set the first time it forwards).
            var threads: [String] = []
            var running = 0
            var peakRunning = 0
            var bodies: [Data] = []
        }
        let seen = Locked(Seen())
        let proxy = FaultProxy(forward: { request in
            let tag = Thread.current.threadDictionary["forward-tag"] as? String ?? UUID().uuidString
            Thread.current.threadDictionary["forward-tag"] = tag
            seen.withLock { seen in
                seen.threads.append(tag)
                seen.running += 1
                seen.peakRunning = max(seen.peakRunning, seen.running)
            }
            // A backend that takes a while: overlapping forwards would be seen running together.
            Thread.sleep(forTimeInterval: 0.05)
            seen.withLock { seen in
                seen.running -= 1
                seen.bodies.append(request.body)
            }
            return .success(TransportResponse(status: 201, headers: [("Content-Type", "application/json")], body: Data("{}".utf8)))
        })
        let url = try proxy.start()
        defer { proxy.stop() }
        proxy.begin(faults: [], holdLimit: 10)
        let port = url.port ?? 0
        // Six uploads of 1 MiB: together within the 21 MiB budget, so all six are read at once.
        let bodies = (0..<6).map { index in Data((0..<(1024 * 1024 + index)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }) }
        let statuses = await withTaskGroup(of: Int?.self) { group in
            for body in bodies {
                group.addTask {
                    await onOwnThread {
                        guard let connection = try? RawHTTPConnection(port: port, timeout: 120) else { return nil }
                        defer { connection.close() }
                        let request = TransportRequest(
                            method: "POST", path: "/api/v1/announcements/00000000-0000-4000-8000-000000000000/photos",
                            headers: [("Content-Type", "image/jpeg")], body: body)
                        guard (try? connection.write(SubmissionFaultTests.raw(request))) != nil else { return nil }
                        return (try? connection.readResponse())??.status
                    }
                }
            }
            var statuses: [Int?] = []
            for await status in group { statuses.append(status) }
            return statuses
        }
        #expect(statuses == Array(repeating: 201, count: 6), "\(statuses)")
        let log = proxy.exchanges(settlingFor: 60)
        #expect(log.count == 6)
        let result = seen.withLock { $0 }
        #expect(result.peakRunning == 1, "forwards ran together: \(result.peakRunning)")
        #expect(Set(result.threads).count == 1, "forwarded from \(Set(result.threads).count) threads")
        #expect(Set(result.bodies) == Set(bodies), "a body reached the backend changed")
        #expect(proxy.load.bodyBytes == 0, "every reservation was given back: \(proxy.load)")
    }

    /// The peak memory of `check` with `adapter` (a command), and its output; the run must end
    /// on its own, leaving no adapter and no photo folder behind.
    static func checkPeak(_ adapter: String) throws -> (kilobytes: Int, out: String) {
        let binary = try #require(ToolBinary.path)
        let child = try WatchedChild(binary, ["check", "--sut", adapter, "--seed", "7", "--cases", "10", "--submission-scenarios", "2", "--no-progress"])
        let pid = child.pid
        // A hang guard, not a measure: the hostile runs take about a minute on a loaded machine.
        let outcome = child.wait(upTo: 1800)
        #expect(outcome.signal == nil && (outcome.status == 0 || outcome.status == 1), "\(adapter): exit \(outcome.status)\n\(outcome.err)")
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
        #expect(leftovers.filter { $0.hasPrefix("petspot-sut-\(pid)-") }.isEmpty, "the photo folder was left behind")
        #expect(adapterProcesses(matching: hostileScript).isEmpty, "a hostile adapter outlived its run")
        return (outcome.maxRSSKilobytes, outcome.out)
    }

    /// Processes whose command line mentions `text`.
    static func adapterProcesses(matching text: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.allSatisfy(\.isNumber) }.filter { pid in
            guard let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: line, as: UTF8.self).contains(text)
        }
    }

    @Test(
        "ten uploads (or creates) of 20 MiB per attempt keep check within 3 times a normal run's peak memory",
        .enabled(if: PythonAdapter.python != nil && FileManager.default.fileExists(atPath: "/proc/self/status"), "no python3 or no /proc"))
    func hostileAppStaysWithinMemory() throws {
        let python = try #require(PythonAdapter.python)
        let normal = try Self.checkPeak("\(python) \(PythonAdapter.script)")
        let upload = try Self.checkPeak("\(python) \(Self.hostileScript) --upload")
        let create = try Self.checkPeak("\(python) \(Self.hostileScript)")
        // The attacks reached the proxy: uploads forwarded and refused by the backend, creates
        // answered 413 unread.
        #expect(upload.out.contains("(photo upload) -> the backend answered 413"), "\(upload.out.suffix(3000))")
        #expect(create.out.contains("POST /api/v1/announcements (create) -> answered 413"), "\(create.out.suffix(3000))")
        #expect(normal.kilobytes > 0)
        let figures = "normal \(normal.kilobytes / 1024) MiB, uploads \(upload.kilobytes / 1024) MiB, creates \(create.kilobytes / 1024) MiB"
        #expect(upload.kilobytes <= 3 * normal.kilobytes, "\(figures)")
        #expect(create.kilobytes <= 3 * normal.kilobytes, "\(figures)")
    }
}
