/// What `run` and `can-i-deploy` send with: the one place each of their defaults is written. The
/// commands' options take their defaults from ``run`` and ``canIDeploy``, and so do the
/// in-process targets of `check` and the tests.
package struct RunSettings: Sendable, Equatable {
    /// Requests in flight at most (`--concurrency`).
    package var concurrency: Int
    /// The request budget (`--max-requests`), cleanup deletes excepted.
    package var maxRequests: Int
    /// Seconds each request may take, connect to last byte (`--timeout`).
    package var requestTimeout: Double
    /// Seconds the whole run may take (`--deadline`).
    package var deadlineSeconds: Double
    /// Requests timing out in a row that stop a group or the cleanup (`--max-timeouts`).
    package var maxConsecutiveTimeouts: Int
    /// The longest answer body read (`--max-response-bytes`).
    package var maxResponseBytes: Int

    /// A default `run`: 4 requests at once, 2,000 requests, 10 s each, 10 minutes in
    /// all (far above what a default run takes against a healthy staging server, far below CI
    /// job limits, so that the run, not the CI runner, ends a run against a target that stopped
    /// answering: with its cleanup and its report), the breaker's 3 time-outs in a row, 4 MiB
    /// answers.
    package static let run = RunSettings(
        concurrency: 4, maxRequests: 2000, requestTimeout: 10, deadlineSeconds: 600,
        maxConsecutiveTimeouts: BackendTarget.defaultMaxConsecutiveTimeouts, maxResponseBytes: RunnerHTTPTransport.defaultMaxResponseBytes)

    /// A default `can-i-deploy`: `run`'s, with room for every request of several recorded releases
    /// (a release holds at most 2,000).
    package static let canIDeploy: RunSettings = {
        var settings = RunSettings.run
        settings.maxRequests = 10_000
        return settings
    }()

    /// Settings.
    package init(
        concurrency: Int, maxRequests: Int, requestTimeout: Double, deadlineSeconds: Double, maxConsecutiveTimeouts: Int,
        maxResponseBytes: Int
    ) {
        self.concurrency = concurrency
        self.maxRequests = maxRequests
        self.requestTimeout = requestTimeout
        self.deadlineSeconds = deadlineSeconds
        self.maxConsecutiveTimeouts = maxConsecutiveTimeouts
        self.maxResponseBytes = maxResponseBytes
    }
}
