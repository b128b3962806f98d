package rpc

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookside/hookside/internal/steps"
)

// errCancelledByClient marks a request context cancelled by $/cancelRequest,
// errServerShutdown one cancelled because the shutdown grace ran out (drain).
// Their texts are the reason a hook killed by the cancel gives in its run's
// error ("cancelled: <text>", runner.cancelReason).
var (
	errCancelledByClient = errors.New("the request was cancelled ($/cancelRequest)")
	errServerShutdown    = errors.New("the server is shutting down")
)

// job is one request waiting for or running on a worker.
type job struct {
	req    *jsonrpc2.Request
	m      method
	ctx    context.Context
	cancel context.CancelCauseFunc
	start  time.Time
}

// dispatcher gets every incoming request and notification from the
// stream, one message at a time, in arrival order (handle). The goroutine
// that reads a request runs it: before it does, it hands the reading to an
// idle worker (or a new one), so a request is not handed across goroutines
// on its way to its hook (a wake-up of another thread on the critical
// path), and the stream is read again at once. At most max requests run
// at once; past that a request waits in queue for the next worker to
// finish. Idle workers are last in, first out: the worker that finished
// last reads next, so requests that come one at a time run on one or two
// goroutines whose stacks are grown and in the caches.
type dispatcher struct {
	s     *Server
	queue chan *job // requests waiting for a worker
	// ready is closed once Server.conn is set: the library starts reading
	// inside NewConn, before Serve can store the connection.
	ready chan struct{}
	// term is closed when the server is terminated (Serve's ctx): a drain
	// then stops waiting out its grace and cancels at once.
	term <-chan struct{}

	mu       sync.Mutex
	inflight map[string]*job // by request id, for $/cancelRequest
	wg       sync.WaitGroup  // queued + running jobs
	idle     []*worker       // parked workers, the last to park at the end (under mu)
	busy     int             // workers running a job (under mu)
	live     int             // worker goroutines, the reader among them (under mu)
	reading  bool            // a worker is reading the stream (under mu)
	gone     *sync.Cond      // signalled when a worker goroutine ends (on mu)
	max      int
	pending  sync.WaitGroup // deferred replies not yet written
	stopped  bool
}

// worker is one goroutine of the pool; jobs hands it its next job: readJob
// (read the stream) or nil (stop).
type worker struct{ jobs chan *job }

// readJob is the job of reading the stream.
var readJob = &job{}

func newDispatcher(s *Server, workers, queueSize int, term <-chan struct{}) *dispatcher {
	d := &dispatcher{s: s, queue: make(chan *job, queueSize), inflight: map[string]*job{}, ready: make(chan struct{}), term: term, max: workers}
	d.gone = sync.NewCond(&d.mu)
	return d
}

// startReading starts the worker that reads the stream (Serve, once).
func (d *dispatcher) startReading() {
	d.mu.Lock()
	d.reading = true
	d.start(readJob)
}

// start gives j to the idle worker that parked last, or to a new worker
// (called with d.mu held, which it releases).
func (d *dispatcher) start(j *job) {
	if n := len(d.idle); n > 0 {
		w := d.idle[n-1]
		d.idle = d.idle[:n-1]
		d.mu.Unlock()
		w.jobs <- j
		return
	}
	d.live++
	d.mu.Unlock()
	go d.serve(&worker{jobs: make(chan *job, 1)}, j)
}

// Handle takes one incoming message and queues or runs its job (it
// implements jsonrpc2.Handler, and is deliver for a stream without a
// responses channel).
func (d *dispatcher) Handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if j := d.handle(req); j != nil {
		d.assign(j)
	}
}

// assign gives j to an idle worker or a new one, or queues it.
func (d *dispatcher) assign(j *job) {
	d.mu.Lock()
	if len(d.idle) > 0 || d.busy < d.max {
		d.busy++
		d.start(j)
		return
	}
	d.enqueue(j)
}

// enqueue queues j (under mu, which it releases), so that a worker
// parking (it looks at the queue under mu) cannot miss it; a full queue
// answers -32004.
func (d *dispatcher) enqueue(j *job) {
	select {
	case d.queue <- j:
		d.mu.Unlock()
	default:
		d.mu.Unlock()
		d.finish(j)
		d.replyErr(j.req, &Error{Code: CodeServerOverloaded, Message: "server overloaded: the work queue is full; retry later"})
	}
}

// handle checks one incoming message and does what is done at once
// (notifications, errors, inline methods); a request for a worker is
// registered and returned.
func (d *dispatcher) handle(req *jsonrpc2.Request) *job {
	<-d.ready
	if req.Notif {
		d.safe(func() { d.s.handleNotification(req) }, nil)
		return nil
	}
	s := d.s
	st := s.getState()
	switch {
	case req.Method == "exit":
		d.safe(func() { d.notificationAsRequest(req) }, req)
		return nil
	case req.Method == "initialize" && st != stateNew:
		d.replyErr(req, &Error{Code: CodeInvalidRequest, Message: "invalid request: initialize was already received"})
		return nil
	case req.Method != "initialize" && st == stateNew:
		d.replyErr(req, &Error{Code: CodeNotInitialized, Message: "not initialized: send initialize first"})
		return nil
	case st >= stateShuttingDown && !(st == stateShuttingDown && req.Method == cancelMethod):
		d.replyErr(req, &Error{Code: CodeInvalidRequest, Message: "invalid request: the server is shutting down"})
		return nil
	case req.Method == cancelMethod:
		d.safe(func() { d.cancelAsRequest(req) }, req)
		return nil
	case req.Method == "initialized":
		d.safe(func() { d.notificationAsRequest(req) }, req)
		return nil
	}
	m, ok := s.method(req.Method)
	if !ok {
		d.replyErr(req, &Error{Code: CodeMethodNotFound, Message: fmt.Sprintf("method not found: %s", req.Method)})
		return nil
	}
	if e := checkParamsShape(req.Params); e != nil {
		d.replyErr(req, e)
		return nil
	}
	start := time.Now()
	if m.inline {
		d.safe(func() {
			res, err := m.call(s, context.Background(), req.Method, req.Params)
			d.reply(req, res, err)
			d.logRequest(req, start, err)
		}, req)
		return nil
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	j := &job{req: req, m: m, ctx: ctx, cancel: cancel, start: start}
	key := req.ID.String()
	d.mu.Lock()
	if d.stopped {
		d.mu.Unlock()
		cancel(nil)
		d.replyErr(req, &Error{Code: CodeInvalidRequest, Message: "invalid request: the server is shutting down"})
		return nil
	}
	if _, busy := d.inflight[key]; busy {
		d.mu.Unlock()
		cancel(nil)
		// Two requests with one id could not be told apart in replies or
		// by $/cancelRequest.
		d.replyErr(req, &Error{Code: CodeInvalidRequest, Message: "invalid request: id " + key + " is already used by a request in flight"})
		return nil
	}
	d.inflight[key] = j
	d.wg.Add(1)
	d.mu.Unlock()
	return j
}

// serve is a worker goroutine: it does j (reading the stream or running a
// request), then the queued jobs, then parks until it is given the reading
// or stopped.
func (d *dispatcher) serve(w *worker, j *job) {
	defer func() {
		d.mu.Lock()
		d.live--
		d.gone.Broadcast()
		d.mu.Unlock()
	}()
	for j != nil {
		if j == readJob {
			if j = d.read(); j == nil {
				return
			}
		}
		d.run(j)
		d.mu.Lock()
		select {
		case j = <-d.queue:
			d.mu.Unlock()
			continue
		default:
		}
		d.busy--
		if d.stopped {
			// stop has waited for the last job and takes no more.
			d.mu.Unlock()
			return
		}
		d.idle = append(d.idle, w)
		d.mu.Unlock()
		j = <-w.jobs
	}
}

// read reads the stream until a request to run: it hands the reading to
// an idle worker or a new one and returns the request for the caller to
// run. With max requests running the request is queued and reading goes
// on. nil: the stream has ended (EOF or a read error).
func (d *dispatcher) read() *job {
	for {
		req, err := d.s.stream.nextRequest()
		if err != nil {
			d.mu.Lock()
			d.reading = false
			d.mu.Unlock()
			return nil
		}
		j := d.handle(req)
		if j == nil {
			continue
		}
		d.mu.Lock()
		if d.busy >= d.max {
			d.enqueue(j)
			continue
		}
		d.busy++
		d.start(readJob)
		steps.Mark(steps.Dispatched)
		return j
	}
}

// run executes one job; a panic becomes -32603 and the server lives on.
func (d *dispatcher) run(j *job) {
	defer d.finish(j)
	if context.Cause(j.ctx) == errCancelledByClient {
		d.replyErr(j.req, &Error{Code: CodeRequestCancelled, Message: "request cancelled"})
		return
	}
	d.safe(func() {
		res, err := j.m.call(d.s, j.ctx, j.req.Method, j.req.Params)
		defer d.logRequest(j.req, j.start, err)
		if context.Cause(j.ctx) == errCancelledByClient {
			d.replyErr(j.req, &Error{Code: CodeRequestCancelled, Message: "request cancelled"})
			return
		}
		if err != nil && j.ctx.Err() != nil && errors.Is(err, context.Canceled) {
			d.replyErr(j.req, &Error{Code: CodeRequestCancelled, Message: "request cancelled: the server is shutting down"})
			return
		}
		d.reply(j.req, res, err)
	}, j.req)
}

// logRequest logs one answered request at debug level: method, id,
// duration and, for an error reply, its code (params and results are not
// logged: they carry tool input and hook output).
func (d *dispatcher) logRequest(req *jsonrpc2.Request, start time.Time, err error) {
	if !d.s.log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	attrs := []any{"method", req.Method, "id", req.ID.String(), "durationMs", time.Since(start).Milliseconds()}
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			attrs = append(attrs, "errorCode", e.Code)
		} else {
			attrs = append(attrs, "error", true)
		}
	}
	d.s.log.Debug("request", attrs...)
}

func (d *dispatcher) finish(j *job) {
	j.cancel(nil)
	d.mu.Lock()
	if d.inflight[j.req.ID.String()] == j {
		delete(d.inflight, j.req.ID.String())
	}
	d.mu.Unlock()
	d.wg.Done()
}

// cancel handles $/cancelRequest: the request's context is cancelled (its
// hook processes are killed) and it replies -32800.
func (d *dispatcher) cancelRequest(id jsonrpc2.ID) bool {
	d.mu.Lock()
	j := d.inflight[id.String()]
	d.mu.Unlock()
	if j == nil {
		return false
	}
	j.cancel(errCancelledByClient)
	return true
}

// cancelAsRequest handles $/cancelRequest sent with an id. PROTOCOL.md §1
// makes it a notification; a host that sends it as a request still means
// the cancel, and a request must be answered: the cancel is done exactly as
// for the notification (also while shutdown drains) and answered null. Its
// params are checked as any method's (-32602 field "id"); an id already
// used by a request in flight is -32600, as for any request (both would
// be answered under that id).
func (d *dispatcher) cancelAsRequest(req *jsonrpc2.Request) {
	start := time.Now()
	var err error
	busy := d.inFlight(req.ID)
	switch id, e := cancelID(req.Params); {
	case busy != nil:
		err = busy
	case e != nil:
		err = e
	default:
		d.cancelRequest(id)
	}
	d.reply(req, nil, err)
	d.logRequest(req, start, err)
}

// notificationAsRequest handles exit and initialized sent with an id.
// PROTOCOL.md §1 makes them notifications; a host whose JSON-RPC client
// only sends requests still means them (as with $/cancelRequest,
// cancelAsRequest), and a request must be answered: it is answered null
// first, then done as the notification is (exit: the exit status is 0
// after shutdown, 1 before; in any state, so that such a host can always
// end the server). As any request it is refused, and not done, when its
// params are neither absent nor an object or array (-32602 field "") and
// when its id is that of a request in flight (-32600: both would be
// answered under that id); initialized before initialize is -32002 and
// during shutdown -32600, as any request then (handle).
func (d *dispatcher) notificationAsRequest(req *jsonrpc2.Request) {
	start := time.Now()
	var err error
	if e := d.inFlight(req.ID); e != nil {
		err = e
	} else if e := checkParamsShape(req.Params); e != nil {
		err = e
	}
	d.reply(req, nil, err)
	d.logRequest(req, start, err)
	if err == nil {
		d.s.handleNotification(req)
	}
}

// inFlight is -32600 when id is that of a request in flight (a reply under
// it could not be told from that request's), else nil.
func (d *dispatcher) inFlight(id jsonrpc2.ID) *Error {
	d.mu.Lock()
	_, busy := d.inflight[id.String()]
	d.mu.Unlock()
	if busy {
		return &Error{Code: CodeInvalidRequest, Message: "invalid request: id " + id.String() + " is already used by a request in flight"}
	}
	return nil
}

// drain waits up to grace for queued and running requests (less when the
// server is terminated meanwhile, d.term, or a write to the host fails:
// their replies could not be delivered), then cancels what is left and
// waits for it to reply.
func (d *dispatcher) drain(grace time.Duration) {
	done := make(chan struct{})
	go func() { d.wg.Wait(); close(done) }()
	if grace > 0 {
		select {
		case <-done:
			return
		case <-time.After(grace):
		case <-d.term:
		case <-d.s.outGone:
		}
	}
	d.mu.Lock()
	for _, j := range d.inflight {
		j.cancel(errServerShutdown)
	}
	d.mu.Unlock()
	<-done
}

// stop ends the workers once no job is left. The worker reading the
// stream ends when the stream does (Serve closes it).
func (d *dispatcher) stop() {
	d.mu.Lock()
	if d.stopped {
		d.mu.Unlock()
		return
	}
	d.stopped = true
	d.mu.Unlock()
	d.wg.Wait()
	d.mu.Lock()
	idle := d.idle
	d.idle = nil
	for _, w := range idle {
		w.jobs <- nil
	}
	for d.live > 0 && !(d.live == 1 && d.reading) {
		d.gone.Wait()
	}
	d.mu.Unlock()
}

// safe runs f, turning a panic into a -32603 reply to req (when req is a
// request) and a log line with the stack.
func (d *dispatcher) safe(f func(), req *jsonrpc2.Request) {
	defer func() {
		if r := recover(); r != nil {
			method := ""
			if req != nil {
				method = req.Method
			}
			d.s.log.Error("handler panic", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			if req != nil && !req.Notif {
				d.replyErr(req, &Error{Code: CodeInternalError, Message: fmt.Sprintf("internal error: %v", r)})
			}
		}
	}()
	f()
}

func (d *dispatcher) reply(req *jsonrpc2.Request, res any, err error) {
	if err != nil {
		d.replyErr(req, asRPCError(err))
		return
	}
	if f, ok := res.(deferred); ok {
		d.pending.Add(1)
		go func() {
			defer d.pending.Done()
			d.safe(func() {
				res, err := f()
				d.reply(req, res, err)
			}, req)
		}()
		return
	}
	if e := d.s.stream.writeResult(req.ID, res); e != nil {
		d.s.log.Debug("reply failed", "method", req.Method, "err", e)
	}
}

func (d *dispatcher) replyErr(req *jsonrpc2.Request, e *Error) {
	if err := d.s.stream.writeError(req.ID, e); err != nil {
		d.s.log.Debug("reply failed", "method", req.Method, "err", err)
	}
}
