package exec

// TranscriptPlaceholder stands for transcript_path in the stdin of a
// queued async hook: the worker that runs it writes AsyncJob.Transcript to
// a private temporary file and replaces the placeholder (JSON-encoded, as
// it appears in Stdin) with that file's path.
const TranscriptPlaceholder = "@@hookside-transcript-path@@"

// AsyncJob is an async hook handed to the durable run queue
// (runner.SessionOptions.AsyncQueue): everything needed to run it later, in any
// hookside process sharing the home. Env holds only the session's additions
// (session env, ZCODE_*/CLAUDE_* variables, plugin directories), never
// hookside's own environment: the worker adds its own at run time.
type AsyncJob struct {
	SessionID, TurnID, Event, HookID string
	Argv                             []string
	CmdLine                          string // Spec.CmdLine (Windows cmd.exe), "" for none
	Dir                              string
	Env                              []string
	Stdin                            []byte // one line of JSON, with TranscriptPlaceholder
	Transcript                       []byte // the transcript file's content
	TimeoutMs, MaxOutputBytes        int
}
