// Package matcher implements the matcher language of hook declarations and
// the tool-name aliases, per lifecycle-hooks-and-workspace-trust.zh.txt
// §"配置格式与默认值" (matcher 的规则) and §"七个事件" (empty match value).
//
// The package is pure: no I/O and no goroutines of its own (regexp2's match
// timeout runs a self-stopping clock goroutine inside that library). A
// *Matcher is immutable and safe for concurrent use.
package matcher

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dlclark/regexp2"
)

// matchTimeout bounds one regexp2 (backtracking) match; a match that runs
// longer counts as "no match". regexp2 measures it with a coarse clock
// (100 ms ticks, updated by a goroutine): on a loaded machine a stale tick can
// end a trivial match at once, so the bound is well above the tick and a
// timed-out match is tried once more (the retry starts from a fresh clock).
const matchTimeout = time.Second

// cacheSize is the number of distinct patterns Compile keeps; when the cache
// is full it is emptied and starts over.
const cacheSize = 1024

type kind uint8

const (
	kindAll     kind = iota // nil, "" or "*"
	kindNames               // exact names split on "|"
	kindRE2                 // JavaScript regex run by the stdlib
	kindBacktr              // JavaScript regex run by regexp2
	kindNothing             // invalid pattern
)

// Matcher is a compiled matcher. The zero value and a nil *Matcher match
// everything (as an omitted matcher does).
type Matcher struct {
	pattern string
	kind    kind
	rules   Rules
	names   []string
	re      *regexp.Regexp
	bt      *regexp2.Regexp
}

type cacheKey struct {
	rules   Rules
	pattern string
}

type cacheEntry struct {
	m   *Matcher
	err error
}

// The compile cache is a pure memo: a pattern always compiles to the same
// immutable Matcher, so sharing it across sessions changes no behaviour.
var (
	cache    sync.Map // cacheKey -> cacheEntry
	cacheLen atomic.Int64
	cacheMu  sync.Mutex // serialises emptying the cache
)

var matchAllFor = [...]*Matcher{
	Lifecycle:    {pattern: "*", kind: kindAll},
	Claude:       {pattern: "*", kind: kindAll, rules: Claude},
	ClaudeNarrow: {pattern: "*", kind: kindAll, rules: ClaudeNarrow},
}

// Compile parses a matcher, per lifecycle-hooks-and-workspace-trust
// §"配置格式与默认值":
//   - pattern nil, "" or "*" matches everything;
//   - a pattern made only of [A-Za-z0-9_|] is a list of exact names split on
//     "|" (case-sensitive; empty parts ignored, so "|" matches nothing);
//   - anything else is a JavaScript regular expression without flags,
//     tested unanchored. It runs on the stdlib RE2 engine when it is
//     expressible there with identical meaning, else on
//     github.com/dlclark/regexp2 (ECMAScript) with matchTimeout.
//
// An invalid pattern returns a Matcher that matches no non-empty value and a
// non-nil error (wrapping a syntax error) for the caller's diagnostic.
// Results are cached per pattern string (cacheSize entries).
//
// Compile is CompileRules(pattern, Lifecycle).
func Compile(pattern *string) (*Matcher, error) {
	return CompileRules(pattern, Lifecycle)
}

// CompileRules parses a matcher under the given rules (see Rules); an
// unknown Rules value is Lifecycle. Errors and caching are as for Compile.
func CompileRules(pattern *string, rules Rules) (*Matcher, error) {
	if rules > ClaudeNarrow {
		rules = Lifecycle
	}
	if pattern == nil || *pattern == "" || *pattern == "*" {
		return matchAllFor[rules], nil
	}
	p := *pattern
	key := cacheKey{rules, p}
	if e, ok := cache.Load(key); ok {
		ce := e.(cacheEntry)
		return ce.m, ce.err
	}
	m, err := compile(p, rules)
	if cacheLen.Add(1) > cacheSize {
		cacheMu.Lock()
		if cacheLen.Load() > cacheSize {
			cache.Clear()
			cacheLen.Store(1)
		}
		cacheMu.Unlock()
	}
	if prev, loaded := cache.LoadOrStore(key, cacheEntry{m, err}); loaded {
		cacheLen.Add(-1)
		ce := prev.(cacheEntry)
		return ce.m, ce.err
	}
	return m, err
}

func compile(p string, rules Rules) (*Matcher, error) {
	if rules == Claude && isClaudeNameList(p) {
		return &Matcher{pattern: p, kind: kindNames, rules: rules, names: claudeNames(p)}, nil
	}
	if rules != Claude && isNameList(p) {
		var names []string
		for _, n := range strings.Split(p, "|") {
			if n != "" {
				names = append(names, n)
			}
		}
		return &Matcher{pattern: p, kind: kindNames, rules: rules, names: names}, nil
	}
	t, err := translateJS(p)
	if err != nil {
		return &Matcher{pattern: p, kind: kindNothing, rules: rules}, fmt.Errorf("matcher %q: %w", p, err)
	}
	if !t.needBacktrack {
		if re, err := regexp.Compile(t.re2); err == nil {
			return &Matcher{pattern: p, kind: kindRE2, rules: rules, re: re}, nil
		}
		// RE2 refused (size or nesting limits): regexp2 decides.
	}
	bt, err := regexp2.Compile(t.ecma, regexp2.ECMAScript)
	if err != nil {
		return &Matcher{pattern: p, kind: kindNothing, rules: rules}, fmt.Errorf("matcher %q: %w: %v", p, errSyntax, err)
	}
	bt.MatchTimeout = matchTimeout
	return &Matcher{pattern: p, kind: kindBacktr, rules: rules, bt: bt}, nil
}

func isNameList(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '|') {
			return false
		}
	}
	return true
}

// String returns the pattern as written ("*" for match-all).
func (m *Matcher) String() string {
	if m == nil || m.kind == kindAll {
		return "*"
	}
	return m.pattern
}

// Match reports whether the matcher matches value, per
// lifecycle-hooks-and-workspace-trust §"七个事件" and §"配置格式与默认值":
// an empty value (UserPromptSubmit, Stop) is matched by every matcher, even
// an invalid one; otherwise the matcher must match value or one of
// Aliases(value). It does not allocate for match-all and name lists.
//
// Under the Claude rules an empty value gets no special case (it is matched
// as JavaScript's RegExp.prototype.test would match it) and the only aliases
// are Agent <-> Task (see Rules).
func (m *Matcher) Match(value string) bool {
	if m == nil || m.kind == kindAll {
		return true
	}
	if m.rules != Lifecycle {
		if m.matchOne(value) {
			return true
		}
		a := claudeAlias(value)
		return a != "" && m.matchOne(a)
	}
	if value == "" {
		return true
	}
	if m.matchOne(value) {
		return true
	}
	for _, a := range aliases(value) {
		if m.matchOne(a) {
			return true
		}
	}
	return false
}

func (m *Matcher) matchOne(v string) bool {
	switch m.kind {
	case kindNames:
		for _, n := range m.names {
			if n == v {
				return true
			}
		}
		return false
	case kindRE2:
		return m.re.MatchString(v)
	case kindBacktr:
		ok, err := m.bt.MatchString(v)
		if err != nil { // a timeout: once more, then it is no match
			ok, err = m.bt.MatchString(v)
		}
		return ok && err == nil
	}
	return false
}

var (
	aliasAgent      = []string{"Task"}
	aliasTask       = []string{"Agent"}
	aliasApplyPatch = []string{"Write", "Edit"}
)

func aliases(tool string) []string {
	switch tool {
	case "Agent":
		return aliasAgent
	case "Task":
		return aliasTask
	case "ApplyPatch":
		return aliasApplyPatch
	}
	return nil
}

// Aliases returns the other names a tool is matched by, per
// lifecycle-hooks-and-workspace-trust §"配置格式与默认值": Agent -> [Task],
// Task -> [Agent], ApplyPatch -> [Write Edit]; nil for any other name. The
// relation is not symmetric for ApplyPatch: a matcher "ApplyPatch" does not
// match Write. The returned slice is a fresh copy.
func Aliases(tool string) []string {
	a := aliases(tool)
	if a == nil {
		return nil
	}
	return append([]string(nil), a...)
}
