import Foundation
import PetSpotConcurrency
import PetSpotHTTP
import PetSpotMockBackend

/// Throughput and latency of creates against the mock over loopback HTTP.
///
/// Starts a ``MockHTTPServer`` in this process, opens `connections` keep-alive raw-socket
/// clients, each on its own thread sending valid create requests back to back (distinct
/// microchip numbers, so every one is a 201), and measures for `seconds`. Run it from a release
/// build; the project's target is at least 10,000 creates per second on a 2-core machine.
public enum MockBenchmark {
    /// The figures of one run.
    public struct Result: Sendable, CustomStringConvertible {
        /// Completed creates per second.
        public var requestsPerSecond: Double
        /// Latency percentiles in milliseconds.
        public var p50: Double, p90: Double, p99: Double, p999: Double
        /// Completed creates.
        public var requests: Int
        /// Answers other than 201, or failed connections.
        public var failures: Int
        /// Client connections used.
        public var connections: Int
        /// Measured seconds.
        public var seconds: Double

        public var description: String {
            String(format: "%d connections, %.1f s: %d creates, %.0f/s; latency ms p50 %.3f p90 %.3f p99 %.3f p99.9 %.3f; failures %d",
                   connections, seconds, requests, requestsPerSecond, p50, p90, p99, p999, failures)
        }
    }

    /// Measures create requests per second.
    /// - Parameters:
    ///   - connections: concurrent keep-alive clients (1...256).
    ///   - seconds: measuring time.
    /// - Throws: ``HTTPSocketError`` when the server cannot start or a client cannot connect.
    public static func createRequestsPerSecond(connections: Int, seconds: Double) throws(HTTPSocketError) -> Result {
        let server = MockHTTPServer(options: MockServerOptions(port: 0, maxConnections: max(256, connections + 8)))
        let port = try server.start()
        defer { server.stop() }
        let clientCount = min(max(connections, 1), 256)
        var clients: [RawHTTPConnection] = []
        for _ in 0..<clientCount { clients.append(try RawHTTPConnection(port: port)) }
        let results = BenchmarkCollector(clientCount)
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        let group = DispatchGroup()
        for (index, client) in clients.enumerated() {
            group.enter()
            let box = UncheckedBox(client)
            let thread = Thread {
                var latencies: [Double] = []
                latencies.reserveCapacity(200_000)
                var failures = 0
                var sequence = 0
                while DispatchTime.now().uptimeNanoseconds < deadline {
                    sequence += 1
                    let request = MockBenchmark.createRequest(client: index, sequence: sequence)
                    let before = DispatchTime.now().uptimeNanoseconds
                    let response = try? box.value.send(request)
                    let after = DispatchTime.now().uptimeNanoseconds
                    if response?.status == 201 {
                        latencies.append(Double(after - before) / 1e6)
                    } else {
                        failures += 1
                        if response == nil { break }
                    }
                }
                results.record(index, latencies, failures)
                group.leave()
            }
            thread.start()
        }
        group.wait()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let (latencies, failures) = results.merged()
        let sorted = latencies.sorted()
        func percentile(_ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))]
        }
        return Result(requestsPerSecond: Double(sorted.count) / elapsed, p50: percentile(0.5), p90: percentile(0.9),
                      p99: percentile(0.99), p999: percentile(0.999), requests: sorted.count, failures: failures,
                      connections: clientCount, seconds: elapsed)
    }

    /// A valid create request with a microchip number unique to (client, sequence).
    static func createRequest(client: Int, sequence: Int) -> HTTPRequest {
        let body = """
            {"petName":"Rex","species":"DOG","breed":"Beagle","sex":"MALE","age":3,"description":"Brown collar",\
            "microchipNumber":"\(900_000 + client)\(100_000_000 + sequence)","locationLatitude":52.2297,\
            "locationLongitude":21.0122,"email":"owner@example.com","phone":"+48 123 456 789",\
            "lastSeenDate":"2024-05-01","status":"MISSING","reward":"100 PLN"}
            """
        return HTTPRequest(method: "POST", target: "/api/v1/announcements",
                           headers: ["Content-Type": "application/json"], body: Array(body.utf8))
    }
}

/// Hands a non-Sendable value to exactly one other thread.
private final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Per-thread results, merged after the run.
private final class BenchmarkCollector: Sendable {
    private let results: Locked<(latencies: [[Double]], failures: Int)>

    init(_ count: Int) { results = Locked((Array(repeating: [], count: count), 0)) }

    func record(_ index: Int, _ values: [Double], _ failed: Int) {
        results.withLock { results in
            results.latencies[index] = values
            results.failures += failed
        }
    }

    func merged() -> ([Double], Int) {
        results.withLock { ($0.latencies.flatMap { $0 }, $0.failures) }
    }
}
