package runner

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/matcher"
	"github.com/hookside/hookside/output"
)

// ProfileClaude is Claude Code's dialect (PROTOCOL.md §2
// session/open.profile; docs/compatibility.md "The claude profile").
const ProfileClaude = "claude"

// DefaultUserDir is ~/<d.UserDir> (~/.spark, ~/.claude), or "" when the
// home directory is unknown or the dialect has no user directory.
func DefaultUserDir(d *hook.Dialect) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || d.UserDir == "" {
		return ""
	}
	return filepath.Join(home, d.UserDir)
}

// planEvents lists the events a session keeps plans for: the seven
// lifecycle events (so every hooks/run of them finds a plan, empty when
// the dialect lacks the event) and the dialect's own others.
func planEvents(d *hook.Dialect) []string {
	out := slices.Clone(hook.Events)
	for _, e := range d.Events {
		if !hook.IsEvent(e) {
			out = append(out, e)
		}
	}
	return out
}

// claudeState is a claude-profile session's own state: async results
// waiting for the next reply and the consecutive Stop blocks per agent.
type claudeState struct {
	mu         sync.Mutex
	pending    []output.ClaudeAsyncResult
	stopBlocks map[string]int // "Stop" or "SubagentStop:<agent_id>"
	matchers   map[string]*matcher.Matcher
}

func (s *Session) claudeSt() *claudeState {
	s.claudeOnce.Do(func() { s.claude = &claudeState{stopBlocks: map[string]int{}} })
	return s.claude
}

// claudeStopKey is the key of claudeState.stopBlocks that a Stop or
// SubagentStop run counts under: "Stop" for the main agent,
// "SubagentStop:<agent_id>" for a subagent ("" when the input has no
// string agent_id).
func claudeStopKey(event string, in claudeInput) string {
	if event == hook.SubagentStop {
		id, _ := in.str("agent_id")
		return hook.SubagentStop + ":" + id
	}
	return hook.Stop
}

// fillStopHookActive gives a Stop or SubagentStop input the
// stop_hook_active Claude Code sends those hooks (true when the agent is
// already continuing because of a Stop hook:
// https://code.claude.com/docs/en/hooks#stop-input). A boolean from the
// host is kept as sent; absent or null, it is derived from the session's
// own count for key: true when the previous Stop of that agent was
// continued by a hook (stopBlocks[key] > 0: the state that gives
// stop.consecutive, reset by a Stop that does not continue and, for the
// main agent, by UserPromptSubmit), false otherwise. The count is read
// when the run starts, so a Stop sent before the previous one's reply
// (pipelined) sees the state before that reply's decision. Any other
// type is an *InputError (field stop_hook_active); in is then unchanged.
func (c *claudeState) fillStopHookActive(in claudeInput, key string) error {
	if raw := in["stop_hook_active"]; len(raw) > 0 && string(raw) != "null" {
		if !kindBool.is(raw) {
			return typeError("stop_hook_active", kindBool, raw)
		}
		return nil
	}
	c.mu.Lock()
	active := c.stopBlocks[key] > 0
	c.mu.Unlock()
	in["stop_hook_active"] = json.RawMessage(strconv.FormatBool(active))
	return nil
}

// takePending removes and returns the async results waiting for delivery.
func (c *claudeState) takePending() []output.ClaudeAsyncResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.pending
	c.pending = nil
	return p
}

// restorePending puts results taken by a run that did not answer back in
// front of the ones delivered since.
func (c *claudeState) restorePending(rs []output.ClaudeAsyncResult) {
	if len(rs) == 0 {
		return
	}
	c.mu.Lock()
	c.pending = append(append([]output.ClaudeAsyncResult{}, rs...), c.pending...)
	c.mu.Unlock()
}

func (c *claudeState) addPending(r output.ClaudeAsyncResult) {
	c.mu.Lock()
	c.pending = append(c.pending, r)
	c.mu.Unlock()
}

// claudeInput is a hooks/run input in Claude Code's own shape (snake_case
// fields, passed to the hook as given).
type claudeInput map[string]json.RawMessage

func (in claudeInput) str(k string) (string, bool) {
	var s string
	v, ok := in[k]
	if !ok || len(v) == 0 || v[0] != '"' || jsonexact.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// claudeRunCwd is the directory a claude-profile run is in: the input's
// cwd (Claude Code's hook input always has one, absolute: it follows cd and
// worktrees), resolved by runDir (ok false: no workspace hook is
// admitted), or the session's cwd when the input has none (or null). A cwd
// that is not a string holding an absolute path is an *InputError (field cwd): the
// hooks would otherwise be told, and started in, a directory the host did
// not name.
func (s *Session) claudeRunCwd(in claudeInput) (dir string, ok bool, err error) {
	raw := in["cwd"]
	if len(raw) == 0 || string(raw) == "null" {
		return s.opts.Cwd, true, nil
	}
	c, isString := in.str("cwd")
	switch {
	case !isString:
		return "", false, typeError("cwd", kindString, raw)
	case !filepath.IsAbs(c):
		return "", false, &InputError{Field: "cwd", Reason: "must be an absolute path, not " + strconv.Quote(c)}
	}
	dir, ok = s.runDir(c)
	return dir, ok, nil
}

// ClaudeDefaultMode is the permission_mode claude-profile hooks get when
// neither the input nor the session (session/open.mode, --mode) gives
// one: "default", the first of the reference's values (default, plan,
// acceptEdits, auto, dontAsk, bypassPermissions), which Claude Code sends
// when no other mode is on
// (https://code.claude.com/docs/en/hooks#common-input-fields).
const ClaudeDefaultMode = "default"

// claudeStdin is the hook's one line of JSON: the host's input with the
// common fields Claude Code sends every hook
// (https://code.claude.com/docs/en/hooks#common-input-fields) filled in
// where the host left them out: session_id, transcript_path, cwd,
// permission_mode (the session's mode, else ClaudeDefaultMode: Claude
// Code always sends one) and hook_event_name (always the event). Only
// snake_case names are added.
func claudeStdin(in claudeInput, event, sessionID, transcript, cwd, mode string) []byte {
	out := make(map[string]json.RawMessage, len(in)+5)
	for k, v := range in {
		out[k] = v
	}
	set := func(k, v string) {
		if _, ok := out[k]; !ok && v != "" {
			out[k] = mustJSON(v)
		}
	}
	set("session_id", sessionID)
	if transcript != "" {
		out["transcript_path"] = mustJSON(transcript)
	}
	set("cwd", cwd)
	if mode == "" {
		mode = ClaudeDefaultMode
	}
	set("permission_mode", mode)
	out["hook_event_name"] = mustJSON(event)
	b, _ := json.Marshal(out)
	return append(b, '\n')
}

// pluginDataID is Claude Code's plugin data directory name: the plugin id
// with characters outside [A-Za-z0-9_-] replaced by "-"
// (https://code.claude.com/docs/en/plugins-reference#persistent-data-directory).
func pluginDataID(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '-'
	}, name)
}

// claudeSwitches are the settings keys that change which hooks run,
// after Claude Code's precedence (local > project > user; managed apart)
// (https://code.claude.com/docs/en/settings-reference#disableallhooks,
// #allowmanagedhooksonly, #allowedhttphookurls, #httphookallowedenvvars).
type claudeSwitches struct {
	// DisableAll: disableAllHooks after precedence, outside managed
	// settings (user, project, local and plugin hooks off); ManagedDisable:
	// set in managed settings (every hook off).
	DisableAll, ManagedDisable bool
	// DisabledIn is the settings file (user, project or local) whose
	// disableAllHooks: true decided DisableAll; "" when DisableAll is false.
	DisabledIn string
	// DisabledBy is DisabledIn when it is a workspace settings file
	// (project or local); "" otherwise.
	DisabledBy string
	// ManagedOnly: allowManagedHooksOnly in managed settings.
	ManagedOnly bool
	// Managed is the managed settings file that was read ("" = none).
	Managed string
	// AllowedURLs / AllowedEnvVars: the merged arrays (nil = unset).
	AllowedURLs, AllowedEnvVars []string
	// Diags are the CodeClaudeSettingType errors of this reading.
	Diags []hook.Diagnostic
}

// diagnostics returns the problems a reading of the switches reports, at
// session/open, `hooks list` and `hooks explain` alike: the
// CodeClaudeSettingType errors, then the
// CodeClaudeHooksDisabledByWorkspace warning when a workspace settings
// file's disableAllHooks switches the user's hooks off.
func (sw claudeSwitches) diagnostics() []hook.Diagnostic {
	out := append([]hook.Diagnostic{}, sw.Diags...)
	if sw.DisabledBy != "" && !sw.ManagedDisable {
		out = append(out, disabledByWorkspace(sw.DisabledBy))
	}
	return out
}

type settingsKeys struct {
	DisableAllHooks        *bool    `json:"disableAllHooks"`
	AllowManagedHooksOnly  *bool    `json:"allowManagedHooksOnly"`
	AllowedHTTPHookURLs    []string `json:"allowedHttpHookUrls"`
	HTTPHookAllowedEnvVars []string `json:"httpHookAllowedEnvVars"`
}

// readClaudeSwitches reads the switches from the managed, user, project
// and local settings files ("" = not read; absent or unreadable files
// count as empty; their parse errors are reported by the loader). A file
// whose switch has the wrong JSON type counts as empty too; sw.Diags has
// its CodeClaudeSettingType error (settingTypeDiagnostic). Files are read
// through memo (nil: read each; fsid.Memo).
func readClaudeSwitches(memo *fsid.Memo, managed, user, project, local string) (sw claudeSwitches) {
	read := func(p string) (settingsKeys, bool) {
		var k settingsKeys
		if p == "" {
			return k, false
		}
		data, err := memo.ReadFile(p, hook.MaxConfigFileBytes)
		if err != nil {
			return k, false
		}
		if err := jsonexact.Unmarshal(data, &k); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				sw.Diags = append(sw.Diags, settingTypeDiagnostic(p, data, te))
			}
			return k, false
		}
		return k, true
	}
	merge := func(k settingsKeys) {
		if k.AllowedHTTPHookURLs != nil {
			sw.AllowedURLs = append(append([]string{}, sw.AllowedURLs...), k.AllowedHTTPHookURLs...)
		}
		if k.HTTPHookAllowedEnvVars != nil {
			sw.AllowedEnvVars = append(append([]string{}, sw.AllowedEnvVars...), k.HTTPHookAllowedEnvVars...)
		}
	}
	if k, ok := read(managed); ok {
		sw.Managed = managed
		sw.ManagedDisable = k.DisableAllHooks != nil && *k.DisableAllHooks
		sw.ManagedOnly = k.AllowManagedHooksOnly != nil && *k.AllowManagedHooksOnly
		merge(k)
	}
	for _, p := range []string{user, project, local} { // later files win
		if k, ok := read(p); ok {
			if k.DisableAllHooks != nil {
				sw.DisableAll = *k.DisableAllHooks
				sw.DisabledIn, sw.DisabledBy = "", ""
				if sw.DisableAll {
					sw.DisabledIn = p
				}
				if sw.DisableAll && p != user {
					sw.DisabledBy = p
				}
			}
			merge(k)
		}
	}
	return sw
}

// transcriptFor returns the transcript a hook of any dialect gets: the
// host's own for this run (transcriptPath / transcript_path in the input),
// else the session's (SessionOptions.TranscriptPath), both unchanged; only
// when the host gives none, the synthetic per-hook file of writeTranscript.
func (s *Session) transcriptFor(event string, in baseInput) (string, func(), error) {
	for _, raw := range []json.RawMessage{in.f.TranscriptPath, in.f.TranscriptPathSnake} {
		var p string
		if len(raw) > 0 && raw[0] == '"' && jsonexact.Unmarshal(raw, &p) == nil && p != "" {
			return p, func() {}, nil
		}
	}
	if s.opts.TranscriptPath != "" {
		return s.opts.TranscriptPath, func() {}, nil
	}
	return s.writeTranscript(event, in)
}
