package rpc

// methods is the method table (docs/protocol.md §2–§6): every method the
// server answers, its handler and whether it runs inline on the read
// goroutine. The handlers live in methods_*.go.
var methods = map[string]method{
	// Lifecycle (§2), in arrival order.
	"initialize": {call: typed((*Server).initialize), inline: true},
	"shutdown":   {call: optional((*Server).shutdown), inline: true},

	// Sessions and hooks (§2, §3).
	"session/open":  {call: typed((*Server).sessionOpen), inline: true},
	"session/close": {call: typed((*Server).sessionClose), inline: true},
	"hooks/list":    {call: typed((*Server).hooksList)},
	"hooks/run":     {call: typed((*Server).hooksRun)},

	// Workspace hook trust (§4).
	"workspaceHooks/status":        {call: typed((*Server).trustStatus)},
	"workspaceHooks/review/start":  {call: typed((*Server).reviewStart)},
	"workspaceHooks/review/submit": {call: typed((*Server).reviewSubmit)},
	"workspaceHooks/revoke":        {call: typed((*Server).trustRevoke)},
	"workspaceHooks/policy/set":    {call: typed((*Server).policySet)},

	// The session mailbox and the session purge (§6).
	"session/mailbox/post": {call: v2(true, (*Server).mailboxPost)},
	"session/mailbox/list": {call: v2(true, (*Server).mailboxList)},
	"v2/sessions/purge":    {call: v2(true, (*Server).sessionsPurge)},

	// Hooks V2 (§5).
	"v2/events/emit":          {call: v2(true, (*Server).v2Emit)},
	"v2/definitions/create":   {call: v2(true, (*Server).v2DefCreate)},
	"v2/definitions/update":   {call: v2(true, (*Server).v2DefUpdate)},
	"v2/definitions/upsert":   {call: v2(true, (*Server).v2DefUpsert)},
	"v2/definitions/delete":   {call: v2(true, (*Server).v2DefDelete)},
	"v2/definitions/get":      {call: v2(true, (*Server).v2DefGet)},
	"v2/definitions/list":     {call: v2(false, (*Server).v2DefList)},
	"v2/definitions/validate": {call: typed((*Server).v2DefValidate)},
	"v2/definitions/preview":  {call: v2(true, (*Server).v2DefPreview)},
	"v2/definitions/testRun":  {call: v2(true, (*Server).v2DefTestRun)},
	"v2/bindings/create":      {call: v2(true, (*Server).v2BindCreate)},
	"v2/bindings/update":      {call: v2(true, (*Server).v2BindUpdate)},
	"v2/bindings/upsert":      {call: v2(true, (*Server).v2BindUpsert)},
	"v2/bindings/delete":      {call: v2(true, (*Server).v2BindDelete)},
	"v2/bindings/list":        {call: v2(false, (*Server).v2BindList)},
	"v2/bindings/effective":   {call: v2(false, (*Server).v2BindEffective)},
	"v2/runs/list":            {call: v2(false, (*Server).v2RunsList)},
	"v2/runs/get":             {call: v2(true, (*Server).v2RunsGet)},
	"v2/runs/retry":           {call: v2(true, (*Server).v2RunsRetry)},
	"v2/runs/cancel":          {call: v2(true, (*Server).v2RunsCancel)},
	"v2/settings/get":         {call: v2(false, (*Server).v2SettingsGet)},
	"v2/settings/update":      {call: v2(true, (*Server).v2SettingsUpdate)},
	"v2/legacy/migrate":       {call: v2(true, (*Server).v2Migrate)},
}
