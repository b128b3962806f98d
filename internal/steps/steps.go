// Package steps times the steps of one hooks/run inside the server, for
// the benchmark harness's steps figure (bench/cmd/benchrun, fig. 1s).
//
// A build with -tags stepprobe records CLOCK_MONOTONIC (time.Now) at each
// Mark and, at Flush, writes one line per request to the file named by
// $HOOKSIDE_STEPS_FILE: the nanoseconds of each Step in order, 0 for a step
// the request did not reach. A request begins at FrameRead; the record is
// meaningful for requests sent one at a time (the harness's use), since
// the marks of overlapping requests land in one record. Without the tag
// Mark and Flush are empty and inlined away: the hook path pays nothing.
package steps

// Step is one point on the path of a hooks/run, in path order.
type Step uint8

const (
	FrameRead    Step = iota // a frame read off the stream (rpc): a request begins
	FrameChecked             // the frame checked and decoded into a request
	Dispatched               // registered, the reading handed to another worker
	Handler                  // hooks/run's handler entered, params decoded
	Session                  // the session looked up, the runner entered
	Input                    // the input decoded and checked (runner)
	Planned                  // the configuration current, hooks selected
	Started                  // hook/started sent for the first hook
	Prepared                 // argv, environment, transcript and stdin ready
	Piped                    // run token, environment block, pipes (runner/exec)
	Spawned                  // the hook process started (fork and exec returned)
	Exited                   // the hook's leader exited
	Reaped                   // the group killed, the leader reaped, the pipes drained
	Completed                // the answer parsed, hook/completed sent
	Merged                   // the handler returns the merged result
	Replied                  // the reply written to the stream
	NumSteps
)

// Names are the steps' names, as the harness prints them.
var Names = [NumSteps]string{
	"frame read", "frame checked", "dispatched", "handler", "session", "input decoded", "planned",
	"hook/started sent", "spawn prepared", "pipes and env", "spawned", "exited", "reaped",
	"hook/completed sent", "merged", "replied",
}
