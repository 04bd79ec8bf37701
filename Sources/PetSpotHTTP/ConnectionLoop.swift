#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The I/O thread of an ``HTTPServer``: accepts, reads, parses, writes and times out every
/// connection with one `poll` loop, and hands complete requests to the worker pool.
///
/// Each turn walks the connections once (deadlines, the `poll` set), polls, then takes the
/// mailbox, serves the ready connections and accepts: O(connections), as `poll` is. Invariant:
/// per-connection state is touched only by this thread, and a connection whose request is with
/// a worker is not polled until its completion comes back.
final class ConnectionLoop {
    /// One client connection.
    private final class Connection {
        enum Phase {
            /// Waiting for (more of) a request.
            case reading
            /// A worker is running the handler; the worker owns the socket.
            case handling
            /// Writing `output`.
            case writing
            /// Answered a request whose body was left unread: discarding what the client still
            /// sends (its write side shut), so that it reads the answer rather than a reset.
            case discarding
        }

        let id: UInt64
        let descriptor: Int32
        var parser: HTTPRequestParser
        var phase = Phase.reading
        /// When the first byte of the request being received arrived; `nil` while idle.
        var requestStartedAt: Int64?
        /// When the connection last became idle (accepted, or a response fully written).
        var idleSince: Int64
        var output = PendingOutput([])
        /// When writing or discarding must end.
        var writeDeadline: Int64 = 0
        /// When the answer being written last went out in part (or started to be written).
        var wroteLastAt: Int64 = 0
        var afterOutput = ServerRun.AfterAnswer.readNext
        /// Bytes discarded since the answer, in ``Phase/discarding``.
        var discardedBytes = 0
        /// The client ended its side (EOF): answer what is buffered, then close.
        var peerFinished = false
        /// At least one response was written: the connection is a keep-alive one.
        var hasAnswered = false
        var isClosed = false

        init(id: UInt64, descriptor: Int32, parser: HTTPRequestParser, now: Int64) {
            self.id = id
            self.descriptor = descriptor
            self.parser = parser
            idleSince = now
        }

        var isIdle: Bool { phase == .reading && requestStartedAt == nil }

        /// Whether the connection may be closed to make room: idle after a response, silent for
        /// `grace` milliseconds since it was accepted, or discarding after its last answer.
        func isEvictableIdle(now: Int64, grace: Int64) -> Bool {
            phase == .discarding || isIdle && (hasAnswered || now - idleSince >= grace)
        }

        /// Whether the client has taken none of the answer being written for `grace` milliseconds.
        func isStalledWriting(now: Int64, grace: Int64) -> Bool {
            phase == .writing && now - wroteLastAt >= grace
        }
    }

    private let configuration: HTTPServer.Configuration
    /// Connection slots: the configured number, or fewer under a low descriptor limit.
    private let maxConnections: Int
    /// Clients accepted at the limit that may wait for a slot at once.
    private let maxWaitingAdmissions: Int
    private let serverRun: ServerRun
    private let listener: Int32
    private let headerMilliseconds: Int64
    private let requestMilliseconds: Int64
    private let idleMilliseconds: Int64
    private let writeMilliseconds: Int64

    private var connections: [Connection] = []
    private var handling: [UInt64: Connection] = [:]
    private var openCount = 0
    private var publishedOpenCount = 0
    private var publishedHandledCount = 0
    private var publishedSlotWanted = false
    /// When a newcomer last found every slot taken (`.min` when none has).
    private var slotsLastWantedAt = Int64.min
    private var nextConnectionID: UInt64 = 0
    private var pollSet: [pollfd] = []
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var writeScratch: [UInt8] = []
    private var completions: [ServerRun.Completion] = []

    /// Clients accepted at the limit, waiting (unread) for a slot until their deadline, then 503.
    private var waitingAdmissions: [(descriptor: Int32, deadline: Int64)] = []
    private var isListening = true
    private var acceptPausedUntil: Int64 = 0
    private var acceptBackoffMilliseconds: Int64 = 0
    /// Set once a stop was requested: when to close whatever is still open.
    private var stopDeadline: Int64?

    /// Longest pause of `accept` while descriptors are exhausted.
    static let maximumAcceptBackoffMilliseconds: Int64 = 250
    /// How long a connection silent since it was accepted is spared when a newcomer needs its slot.
    static let newConnectionGraceMilliseconds: Int64 = 1000
    /// How long a client may leave its answer unread before its slot can go to a newcomer.
    static let stalledWriteGraceMilliseconds: Int64 = 200
    /// How long a client accepted at the limit waits for a slot (a lingering worker hands one back).
    static let admissionWaitMilliseconds: Int64 = 250
    /// How long after a newcomer found every slot taken a pipelining connection is closed for room.
    static let slotPressureMilliseconds: Int64 = 1000
    private static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    init(configuration: HTTPServer.Configuration, budget: ConnectionBudget, run: ServerRun, listener: Int32) {
        self.configuration = configuration
        maxConnections = budget.connections
        maxWaitingAdmissions = budget.waitingAdmissions
        self.serverRun = run
        self.listener = listener
        requestMilliseconds = Self.milliseconds(configuration.requestTimeout)
        headerMilliseconds = min(Self.milliseconds(configuration.headerTimeout), requestMilliseconds)
        idleMilliseconds = Self.milliseconds(configuration.idleTimeout)
        writeMilliseconds = Self.milliseconds(configuration.writeTimeout)
    }

    private static func milliseconds(_ seconds: Double) -> Int64 {
        Int64((seconds * 1000).rounded(.up))
    }

    /// Serves until a stop is requested and everything is closed (or the grace period ends).
    func run() {
        while true {
            var now = Socket.monotonicMilliseconds()
            let nearestDeadline = prepareTurn(now: now)
            if let stopDeadline, connections.isEmpty || now >= stopDeadline { break }
            let timeout: Int32 = nearestDeadline == .max ? -1 : Int32(clamping: max(0, nearestDeadline - now))
            let ready = poll(&pollSet, nfds_t(pollSet.count), timeout)
            if ready < 0 {
                if errno != EINTR { sleepBriefly() }
                continue
            }
            now = Socket.monotonicMilliseconds()
            if pollSet[0].revents != 0 { takeMailbox(now: now) }
            // Read before accepting: a connection whose request just arrived must not look idle.
            if pollSet.count > 2 {
                for index in 2..<pollSet.count where pollSet[index].revents != 0 {
                    service(connections[index - 2], now: now)
                }
            }
            if pollSet[1].revents != 0 { acceptClients(now: now) }
        }
        finish()
    }

    // MARK: Each turn

    /// Enforces deadlines, compacts the connections, builds the poll set; returns the nearest deadline.
    private func prepareTurn(now: Int64) -> Int64 {
        var nearest = Int64.max
        pollSet.removeAll(keepingCapacity: true)
        pollSet.append(pollfd(fd: serverRun.wakePipe.read, events: Int16(POLLIN), revents: 0))
        let backingOff = now < acceptPausedUntil
        if isListening && backingOff { nearest = acceptPausedUntil }
        // With every waiting place taken, newcomers wait in the listen backlog, in arrival order.
        let listenerActive = isListening && !backingOff && waitingAdmissions.count < maxWaitingAdmissions
        pollSet.append(pollfd(fd: listenerActive ? listener : -1, events: Int16(POLLIN), revents: 0))
        if let stopDeadline { nearest = min(nearest, stopDeadline) }
        // Before the walk, so that a client admitted now is in this turn's poll set.
        if let due = admitWaiting(now: now) { nearest = min(nearest, due) }
        var kept = 0
        for index in connections.indices {
            let connection = connections[index]
            var deadline = connection.isClosed ? nil : self.deadline(of: connection)
            if let due = deadline, due <= now {
                expire(connection, now: now)
                deadline = connection.isClosed ? nil : self.deadline(of: connection)
            }
            if connection.isClosed { continue }
            connections[kept] = connection
            kept += 1
            switch connection.phase {
            case .reading, .discarding: pollSet.append(pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0))
            case .writing: pollSet.append(pollfd(fd: connection.descriptor, events: Int16(POLLOUT), revents: 0))
            case .handling: pollSet.append(pollfd(fd: -1, events: 0, revents: 0))
            }
            if let deadline { nearest = min(nearest, deadline) }
        }
        connections.removeLast(connections.count - kept)
        publishCounts()
        if let due = publishSlotWanted(now: now) { nearest = min(nearest, due) }
        return nearest
    }

    /// Admits waiting clients while slots can be had, answers 503 to those past their deadline;
    /// returns the deadline of the first one still waiting.
    private func admitWaiting(now: Int64) -> Int64? {
        while let (descriptor, deadline) = waitingAdmissions.first {
            if stopDeadline != nil {
                Socket.closeDescriptor(descriptor)
            } else if openCount < maxConnections || makeRoom(now: now) {
                addConnection(descriptor, now: now)
            } else if now >= deadline {
                refuse(descriptor)
            } else {
                return deadline
            }
            waitingAdmissions.removeFirst()
        }
        return nil
    }

    private func deadline(of connection: Connection) -> Int64? {
        switch connection.phase {
        case .handling:
            return nil
        case .writing, .discarding:
            return connection.writeDeadline
        case .reading:
            guard let started = connection.requestStartedAt else { return connection.idleSince + idleMilliseconds }
            return started + (connection.parser.isReceivingBody ? requestMilliseconds : headerMilliseconds)
        }
    }

    private func expire(_ connection: Connection, now: Int64) {
        switch connection.phase {
        case .handling:
            return
        case .writing, .discarding:
            close(connection)
        case .reading:
            guard connection.requestStartedAt != nil else { return close(connection) }
            let reason = connection.parser.isReceivingBody
                ? "request not complete within \(plain(configuration.requestTimeout)) s of its first byte"
                : "request header section not complete within \(plain(min(configuration.headerTimeout, configuration.requestTimeout))) s of its first byte"
            respondAndClose(connection, HTTPParseError(status: 408, reason: reason), now: now)
        }
    }

    private func plain(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }

    /// Whether newcomers want slots: some wait, or one found them all taken lately.
    private func isSlotWanted(now: Int64) -> Bool {
        !waitingAdmissions.isEmpty || slotsLastWantedAt > now - Self.slotPressureMilliseconds
    }

    /// Tells the workers whether newcomers want slots; returns when that may change by itself.
    @discardableResult
    private func publishSlotWanted(now: Int64) -> Int64? {
        let wanted = isSlotWanted(now: now)
        if wanted != publishedSlotWanted {
            publishedSlotWanted = wanted
            serverRun.mailbox.withLock { $0.isSlotWanted = wanted }
        }
        return wanted && waitingAdmissions.isEmpty ? slotsLastWantedAt + Self.slotPressureMilliseconds : nil
    }

    private func publishCounts() {
        guard openCount != publishedOpenCount || handling.count != publishedHandledCount else { return }
        let (open, handled) = (openCount, handling.count)
        (publishedOpenCount, publishedHandledCount) = (open, handled)
        serverRun.mailbox.withLock { ($0.openConnections, $0.handledConnections) = (open, handled) }
    }

    // MARK: Mailbox: completions and stop

    private func takeMailbox(now: Int64) {
        let wakeDescriptor = serverRun.wakePipe.read
        readBuffer.withUnsafeMutableBytes { buffer in
            while read(wakeDescriptor, buffer.baseAddress, buffer.count) > 0 {}
        }
        let stopGrace: Int64? = serverRun.mailbox.withLock { mailbox in
            swap(&mailbox.completions, &completions)
            mailbox.isWakePending = false
            return mailbox.stopGraceMilliseconds
        }
        for completion in completions {
            guard let connection = handling.removeValue(forKey: completion.connectionID) else { continue }
            complete(connection, completion.outcome, now: now)
        }
        completions.removeAll(keepingCapacity: true)
        if let stopGrace, stopDeadline == nil { beginStopping(grace: stopGrace, now: now) }
    }

    private func complete(_ connection: Connection, _ outcome: ServerRun.Completion.Outcome, now: Int64) {
        switch outcome {
        case .close(let after):
            finishAnswer(connection, after, now: now)
        case .write(let output, let after, let state):
            restore(state, to: connection)
            connection.output = output
            connection.afterOutput = after == .readNext && stopDeadline != nil ? .close : after
            connection.writeDeadline = now + writeMilliseconds
            connection.wroteLastAt = now
            connection.phase = .writing
        case .read(let state):
            restore(state, to: connection)
            if stopDeadline != nil { return close(connection) }
            connection.phase = .reading
            connection.hasAnswered = true
            if connection.parser.hasPartialRequest && isSlotWanted(now: now) {
                // Newcomers want slots, and this client keeps its own busy by pipelining: it goes.
                return evict(connection, reason: "this client had further requests pipelined")
            }
            processBuffered(connection, now: now)
        }
    }

    private func restore(_ state: ServerRun.ReadingState, to connection: Connection) {
        connection.parser = state.parser
        connection.requestStartedAt = state.requestStartedAt
        connection.idleSince = state.idleSince
        connection.peerFinished = state.peerFinished
    }

    private func beginStopping(grace: Int64, now: Int64) {
        stopDeadline = now + grace
        isListening = false
        Socket.closeDescriptor(listener)
        for connection in connections where !connection.isClosed {
            switch connection.phase {
            case .reading, .discarding: close(connection)
            case .writing: if connection.afterOutput == .readNext { connection.afterOutput = .close }
            case .handling: break
            }
        }
    }

    /// Closes what is left, tells late workers to close their own sockets, ends the pool.
    private func finish() {
        for connection in connections where !connection.isClosed && connection.phase != .handling {
            close(connection)
        }
        // Connections still with a worker: cut off; the worker closes the socket (or its completion is here).
        for connection in handling.values { _ = shutdown(connection.descriptor, Int32(SHUT_RDWR)) }
        let late: [ServerRun.Completion] = serverRun.mailbox.withLock { mailbox in
            mailbox.isLoopFinished = true
            mailbox.openConnections = 0
            mailbox.handledConnections = 0
            let late = mailbox.completions
            mailbox.completions.removeAll()
            return late
        }
        for completion in late where handling.removeValue(forKey: completion.connectionID) != nil {
            Socket.closeDescriptor(completion.descriptor)
        }
        for job in serverRun.pool.shutDown() where handling.removeValue(forKey: job.connectionID) != nil {
            Socket.closeDescriptor(job.descriptor)
        }
        for (descriptor, _) in waitingAdmissions { Socket.closeDescriptor(descriptor) }
        waitingAdmissions.removeAll()
        if isListening { Socket.closeDescriptor(listener) }
        Socket.closeDescriptor(serverRun.wakePipe.read)
        Socket.closeDescriptor(serverRun.wakePipe.write)
    }

    // MARK: Accepting

    private func acceptClients(now: Int64) {
        for _ in 0..<64 {
            if waitingAdmissions.count >= maxWaitingAdmissions { return }
            let descriptor = accept(listener, nil, nil)
            if descriptor >= 0 {
                acceptBackoffMilliseconds = 0
                admit(descriptor, now: now)
                continue
            }
            switch errno {
            case EAGAIN, EWOULDBLOCK:
                return
            case EINTR, ECONNABORTED, EPROTO:
                continue
            case EMFILE, ENFILE:
                // Out of descriptors: make room as at the slot limit, else pause accepting (no spinning).
                if makeRoom(now: now, atDescriptorLimit: true) { continue }
                pauseAccepting(now: now)
                return
            default:
                pauseAccepting(now: now)
                return
            }
        }
    }

    private func pauseAccepting(now: Int64) {
        acceptBackoffMilliseconds = acceptBackoffMilliseconds == 0
            ? 10 : min(acceptBackoffMilliseconds * 2, Self.maximumAcceptBackoffMilliseconds)
        acceptPausedUntil = now + acceptBackoffMilliseconds
    }

    private func admit(_ descriptor: Int32, now: Int64) {
        Socket.setNonBlocking(descriptor)
        Socket.setCloseOnExec(descriptor)
        Socket.configureConnection(descriptor)
        Socket.limitUnsentBytes(descriptor, to: configuration.maxUnsentBytes)
        if openCount >= maxConnections {
            slotsLastWantedAt = now
            publishSlotWanted(now: now)
        }
        if openCount >= maxConnections && !makeRoom(now: now) {
            // A connection with a worker may come back idle within moments: wait for it briefly.
            let mayComeFree = !handling.isEmpty || connections.contains { !$0.isClosed && $0.phase == .writing }
            if mayComeFree && waitingAdmissions.count < maxWaitingAdmissions {
                waitingAdmissions.append((descriptor, now + Self.admissionWaitMilliseconds))
            } else {
                refuse(descriptor)
            }
            return
        }
        addConnection(descriptor, now: now)
    }

    private func refuse(_ descriptor: Int32) {
        let refusal = configuration.errorResponse(HTTPParseError(
            status: 503, reason: "all \(maxConnections) connections are busy with requests; try again shortly"))
        _ = Socket.sendAvailable(descriptor, refusal.serialized(closing: true))
        Socket.closeDescriptor(descriptor)
    }

    private func addConnection(_ descriptor: Int32, now: Int64) {
        nextConnectionID += 1
        let connection = Connection(id: nextConnectionID, descriptor: descriptor, parser: makeParser(), now: now)
        connections.append(connection)
        openCount += 1
        // The request often arrives with the connection: read it now rather than next turn.
        readAvailable(connection, now: now)
    }

    private func makeParser() -> HTTPRequestParser {
        HTTPRequestParser(limits: configuration.limits, bodyLimit: configuration.bodyLimit,
                          minimumBodyLimit: configuration.minimumBodyLimit, readsBodyOverLimitToLimit: configuration.readsBodyOverLimitToLimit)
    }

    /// Frees a slot (or, `atDescriptorLimit`, a descriptor) for a newcomer: closes the
    /// longest-idle connection, else the one whose answer has gone unread longest (200 ms at
    /// least), else answers 503 to the slowest sender and closes it. `false` when none qualifies.
    private func makeRoom(now: Int64, atDescriptorLimit: Bool = false) -> Bool {
        if closeLongestIdle(now: now) { return true }
        var stalled: Connection?
        for connection in connections
        where !connection.isClosed && connection.isStalledWriting(now: now, grace: Self.stalledWriteGraceMilliseconds) {
            if connection.wroteLastAt < stalled?.wroteLastAt ?? .max { stalled = connection }
        }
        if let stalled {
            close(stalled)
            return true
        }
        var slowest: Connection?
        for connection in connections where !connection.isClosed && connection.phase == .reading {
            guard let started = connection.requestStartedAt else { continue }
            if started < slowest?.requestStartedAt ?? .max { slowest = connection }
        }
        guard let slowest else { return false }
        evict(slowest, reason: "this request was the slowest to arrive", atDescriptorLimit: atDescriptorLimit)
        return true
    }

    /// Answers 503 (as far as the socket takes it without waiting) and closes `connection`.
    private func evict(_ connection: Connection, reason: String, atDescriptorLimit: Bool = false) {
        let limit = atDescriptorLimit ? "out of file descriptors" : "at its limit of \(maxConnections) connections"
        let eviction = configuration.errorResponse(HTTPParseError(
            status: 503, reason: "connection closed to make room: the server is \(limit) and \(reason)"))
        _ = Socket.sendAvailable(connection.descriptor, eviction.serialized(closing: true))
        close(connection)
    }

    /// Closes the connection idle the longest (see `Connection.isEvictableIdle`), if any.
    private func closeLongestIdle(now: Int64) -> Bool {
        var longest: Connection?
        for connection in connections
        where !connection.isClosed && connection.isEvictableIdle(now: now, grace: Self.newConnectionGraceMilliseconds) {
            if connection.idleSince < longest?.idleSince ?? .max { longest = connection }
        }
        guard let longest else { return false }
        close(longest)
        return true
    }

    // MARK: Reading, dispatching, writing

    private func service(_ connection: Connection, now: Int64) {
        guard !connection.isClosed else { return }
        switch connection.phase {
        case .handling: return
        case .writing: flush(connection, now: now)
        case .reading: readAvailable(connection, now: now)
        case .discarding: discardAvailable(connection)
        }
    }

    private func readAvailable(_ connection: Connection, now: Int64) {
        var reads = 0
        while reads < 4 {
            reads += 1
            let received = readBuffer.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
            if received > 0 {
                if connection.requestStartedAt == nil { connection.requestStartedAt = now }
                connection.parser.append(readBuffer[0..<received])
                if received < readBuffer.count { break }
                continue
            }
            if received == 0 {
                connection.peerFinished = true
                break
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { break }
            return close(connection)
        }
        processBuffered(connection, now: now)
    }

    /// Acts on what the parser holds: dispatches a request, answers a malformed one, sends
    /// `100 Continue` when asked; closes when the client finished without completing a request.
    private func processBuffered(_ connection: Connection, now: Int64) {
        guard connection.phase == .reading, !connection.isClosed else { return }
        switch connection.parser.nextRequest() {
        case .request(let request):
            dispatch(request, on: connection)
        case .failure(let error):
            respondAndClose(connection, error, now: now)
        case .incomplete:
            if connection.parser.continueRequested {
                connection.parser.acknowledgeContinue()
                if Socket.sendAvailable(connection.descriptor, Self.continueResponse) != .complete { return close(connection) }
            }
            if connection.peerFinished { close(connection) }
        }
    }

    /// Hands the request, with the socket and the parser, to a worker.
    private func dispatch(_ request: HTTPRequest, on connection: Connection) {
        connection.phase = .handling
        connection.requestStartedAt = nil
        handling[connection.id] = connection
        let job = ServerRun.Job(
            connectionID: connection.id, descriptor: connection.descriptor, request: request, parser: connection.parser,
            peerFinished: connection.peerFinished)
        // The worker owns the parser now; drop this copy so its buffer is not shared.
        connection.parser = makeParser()
        if !serverRun.pool.submit(job) {
            handling[connection.id] = nil
            close(connection)
        }
    }

    private func resumeReading(_ connection: Connection, now: Int64) {
        connection.phase = .reading
        connection.hasAnswered = true
        connection.output = PendingOutput([])
        connection.idleSince = now
        if connection.requestStartedAt == nil && connection.parser.hasPartialRequest { connection.requestStartedAt = now }
        processBuffered(connection, now: now)
    }

    private func respondAndClose(_ connection: Connection, _ error: HTTPParseError, now: Int64) {
        connection.output = PendingOutput([configuration.errorResponse(error).serialized(closing: true)])
        // A body too large is left unread: the client may still be sending it.
        connection.afterOutput = error.status == 413 ? .discardThenClose : .close
        connection.writeDeadline = now + writeMilliseconds
        connection.wroteLastAt = now
        connection.phase = .writing
        flush(connection, now: now)
    }

    private func flush(_ connection: Connection, now: Int64) {
        switch connection.output.send(to: connection.descriptor, through: &writeScratch) {
        case .complete:
            connection.output = PendingOutput([])
            if connection.afterOutput == .readNext && stopDeadline == nil {
                resumeReading(connection, now: now)
            } else {
                finishAnswer(connection, connection.afterOutput, now: now)
            }
        case .partial(let sent):
            if sent > 0 { connection.wroteLastAt = now }
        case .failed:
            close(connection)
        }
    }

    /// Closes a connection whose answer is written; after an unread body, first shuts its write
    /// side and discards what the client still sends, so that it reads the answer, not a reset.
    private func finishAnswer(_ connection: Connection, _ after: ServerRun.AfterAnswer, now: Int64) {
        guard after == .discardThenClose, stopDeadline == nil else { return close(connection) }
        _ = shutdown(connection.descriptor, Int32(SHUT_WR))
        connection.phase = .discarding
        connection.discardedBytes = 0
        connection.idleSince = now
        connection.writeDeadline = now + writeMilliseconds
        discardAvailable(connection)
    }

    /// Drops what the client sends; closes at its end of input or past the server's body limit.
    private func discardAvailable(_ connection: Connection) {
        for _ in 0..<16 {
            let received = readBuffer.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
            if received > 0 {
                connection.discardedBytes += received
                if connection.discardedBytes > configuration.limits.maxBodyBytes { return close(connection) }
                continue
            }
            if received < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) { return }
            return close(connection)
        }
    }

    private func close(_ connection: Connection) {
        guard !connection.isClosed else { return }
        connection.isClosed = true
        openCount -= 1
        Socket.closeDescriptor(connection.descriptor)
    }

    private func sleepBriefly() {
        var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
        nanosleep(&pause, nil)
    }
}
