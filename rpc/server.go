// Package rpc is hookside's JSON-RPC 2.0 server (docs/protocol.md): framing
// and the malformed-frame shim, which builds requests itself (frame.go,
// stream.go), dispatch with a bounded, panic-safe worker pool and a cancel
// map (dispatch.go), the method table (methods.go) with its typed handler
// adapter (handler.go: handlers are func(ctx, P) (R, error); params_fast.go
// decodes hooks/run params without reflection), the handlers
// (methods_*.go) and the per-run notifications (observer.go,
// notify_json.go).
// All state is per connection, on the Server. It is the only package that
// writes to stdout.
package rpc

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookside/hookside/internal/home"
)

// ProtocolVersion is the wire contract version (PROTOCOL.md).
const ProtocolVersion = "1"

// Options configure a server.
type Options struct {
	Framing Framing
	// Home is the hookside home directory ($HOOKSIDE_HOME, --home); the
	// host's initialize.homeDir overrides it.
	Home    string
	Version string
	Logger  *slog.Logger
	// Workers is the number of requests handled at once (default 64);
	// QueueSize how many more may wait (default 1024). Past that: -32001.
	Workers   int
	QueueSize int
	// ShutdownGrace is how long shutdown waits for in-flight requests
	// before cancelling them (default 5 s).
	ShutdownGrace time.Duration

	// testMethods are served besides the method table (tests only).
	testMethods map[string]method
}

// Server serves one connection.
type Server struct {
	opts   Options
	log    *slog.Logger
	conn   *jsonrpc2.Conn
	d      *dispatcher
	stream *objectStream

	mu       sync.Mutex
	state    serverState
	init     *initializeParams
	home     string
	sessions map[string]*session
	reviews  reviewSet // open trust reviews (methods_trust.go)

	v2 v2state // the V2 bridge, opened lazily (methods_v2.go)

	unknown unknownKeys // params keys logged as unknown (unknown_params.go)

	exitCode chan int
	// outGone is closed by the first write to the host that fails (it
	// closed stdout), outErr saying why (set before the close).
	outGone chan struct{}
	outErr  error
}

type serverState int

const (
	stateNew serverState = iota
	stateReady
	stateShuttingDown
	stateShutdown
)

// Serve runs the server on r/w until the client sends exit or closes its
// end (EOF = shutdown + exit), a write to w fails (the client closed its
// reading end), or ctx is cancelled (termination). It returns the process
// exit status: 0 after an orderly shutdown or EOF, 1 for exit without
// shutdown, a failed write or when ctx was cancelled.
func Serve(ctx context.Context, r io.Reader, w io.Writer, opts Options) int {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	if opts.Workers <= 0 {
		opts.Workers = 64
	}
	if opts.QueueSize <= 0 {
		opts.QueueSize = 1024
	}
	if opts.ShutdownGrace <= 0 {
		opts.ShutdownGrace = 5 * time.Second
	}
	if opts.Home == "" {
		opts.Home = home.Default()
	}
	s := &Server{
		opts:     opts,
		log:      opts.Logger,
		home:     opts.Home,
		sessions: map[string]*session{},
		exitCode: make(chan int, 1),
		outGone:  make(chan struct{}),
	}
	s.d = newDispatcher(s, opts.Workers, opts.QueueSize, ctx.Done())
	in, closeIn := pollable(r)
	defer closeIn()
	s.stream = &objectStream{f: newFramer(opts.Framing, in, w), log: opts.Logger, responses: make(chan []byte)}
	s.stream.f.OnWriteError(func(err error) {
		s.outErr = err
		close(s.outGone)
	})
	defer s.stream.flush()
	s.conn = jsonrpc2.NewConn(ctx, s.stream, s.d, jsonrpc2.SetLogger(slogPrinter{opts.Logger}))
	close(s.d.ready)
	s.d.startReading()
	select {
	case code := <-s.exitCode:
		s.stop(s.opts.ShutdownGrace)
		s.d.pending.Wait()
		s.conn.Close()
		return code
	case <-s.conn.DisconnectNotify():
		// EOF on stdin = shutdown + exit. A shutdown request read just
		// before the EOF is still answered (its reply is deferred until
		// in-flight requests are done): the reply is written before Serve
		// returns.
		s.beginShutdown()
		s.stop(s.opts.ShutdownGrace)
		s.d.pending.Wait()
		return 0
	case <-s.outGone:
		// The host closed stdout (it crashed, or closed the pipe) while
		// stdin is still open: nothing can be answered any more, so the
		// server ends as for a signal, without the grace.
		s.log.Warn("the host closed stdout: shutting down", "err", s.outErr)
		s.beginShutdown()
		s.stop(0)
		s.conn.Close()
		return 1
	case <-ctx.Done():
		// Terminated (SIGTERM, SIGINT, SIGHUP in cmd/hookside): no grace.
		// In-flight requests are cancelled at once (their hooks' process
		// groups are killed, they reply -32800) and sessions are closed,
		// which removes their temporary files.
		s.beginShutdown()
		s.stop(0)
		s.conn.Close()
		return 1
	}
}

// method returns the table entry of name.
func (s *Server) method(name string) (method, bool) {
	if m, ok := methods[name]; ok {
		return m, true
	}
	m, ok := s.opts.testMethods[name]
	return m, ok
}

// stop cancels in-flight work after the grace period and closes sessions.
func (s *Server) stop(grace time.Duration) {
	s.d.drain(grace)
	s.mu.Lock()
	sessions := s.sessions
	s.sessions = map[string]*session{}
	s.mu.Unlock()
	for _, ss := range sessions {
		ss.close()
	}
	s.v2Close(min(s.opts.ShutdownGrace, 2*time.Second))
	s.d.stop()
}

// beginShutdown stops accepting new work.
func (s *Server) beginShutdown() {
	s.mu.Lock()
	if s.state < stateShuttingDown {
		s.state = stateShuttingDown
	}
	s.mu.Unlock()
}

func (s *Server) getState() serverState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// notify sends a server→client notification; errors (closed connection) are
// logged, never fatal.
func (s *Server) notify(method string, params any) {
	if err := s.stream.writeNotification(method, params); err != nil {
		s.log.Debug("notify failed", "method", method, "err", err)
	}
}

// hold encodes a server→client notification and holds it, so that it goes
// out in one write with the next frame of the connection instead of waking
// the host on its own. A caller holds only when its own next frame follows
// without waiting on anything (the next hook/started, its reply); Serve
// flushes before it returns.
func (s *Server) hold(method string, params any) {
	if err := s.stream.holdNotification(method, params); err != nil {
		s.log.Debug("notify failed", "method", method, "err", err)
	}
}

// flushHeld writes the held notifications, if any (a Server without a
// connection, in tests of its handlers, has none).
func (s *Server) flushHeld() {
	if s.stream != nil {
		s.stream.flush()
	}
}

// slogPrinter adapts slog to the library's Logger.
type slogPrinter struct{ l *slog.Logger }

func (p slogPrinter) Printf(format string, v ...any) {
	p.l.Debug("jsonrpc2", "msg", fmt.Sprintf(format, v...))
}
