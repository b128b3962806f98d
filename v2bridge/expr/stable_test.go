package expr

import (
	"bytes"
	"encoding/json"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// jsStable is the reference stable stringify of hooks-v2-handbook §8.1 in
// JavaScript: keys sorted with the default sort, undefined dropped, arrays in
// order, scalars through JSON.stringify.
const jsStable = `
function stable(v) {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(stable).join(',') + ']';
  return '{' + Object.keys(v).sort().filter(k => v[k] !== undefined)
    .map(k => JSON.stringify(k) + ':' + stable(v[k])).join(',') + '}';
}
`

// runNode runs script with input on stdin and returns stdout lines; it skips
// the test when node is not installed.
func runNode(t *testing.T, script, input string) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	cmd := exec.Command(node, "-e", script)
	cmd.Stdin = strings.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// stableCases are JSON texts; each line is one value.
var stableCases = []string{
	`null`, `true`, `0`, `-0`, `1`, `-1.5`, `100`, `1e21`, `1e-7`, `0.000001`, `123456789012345678901234`,
	`0.1`, `2.5e-300`, `1.7976931348623157e308`, `5e-324`, `9007199254740993`, `1.0`, `12.340`,
	`"plain"`, `"<script>&amp;</script>"`, `"line\u2028sep\u2029para"`, `"tab\tnl\nnul\u0000\u001f\u007f"`,
	`"quote\" backslash\\ slash/"`, `"中文 ✓ 😀"`, `"\ud83d\ude00"`,
	`[]`, `{}`, `[1,[2,[3]],{"b":1,"a":2}]`,
	`{"b":1,"a":{"d":[3,2,1],"c":null},"A":true,"_":"x","10":1,"9":2}`,
	`{"😀":1,"\uffff":2,"é":3,"z":4}`,
	`{"eventName":"turn.failed","condition":null,"inputMapping":{},"timeoutMs":15000}`,
}

func TestStableStringifyMatchesNode(t *testing.T) {
	lines := runNode(t, jsStable+`
const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter(Boolean);
for (const l of lines) console.log(stable(JSON.parse(l)));`, strings.Join(stableCases, "\n")+"\n")
	if len(lines) != len(stableCases) {
		t.Fatalf("node gave %d lines for %d cases", len(lines), len(stableCases))
	}
	for i, in := range stableCases {
		dec := json.NewDecoder(strings.NewReader(in))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := StableStringify(v); got != lines[i] {
			t.Errorf("StableStringify(%s)\n got %s\nnode %s", in, got, lines[i])
		}
		// float64 decoding must agree with json.Number decoding.
		var f any
		_ = json.Unmarshal([]byte(in), &f)
		if got := StableStringify(f); got != lines[i] {
			t.Errorf("StableStringify(float64 %s)\n got %s\nnode %s", in, got, lines[i])
		}
	}
}

func TestJSNumberMatchesNode(t *testing.T) {
	nums := []float64{0, 1, -1, 0.1, 0.2 + 0.1, 1.5, 100, 1e20, 1e21, 1.5e21, 123456789.125, 1e-6, 1e-7, 1.25e-7,
		-0.000001234, 5e-324, math.MaxFloat64, 1 << 53, 1<<53 + 2, 4.35, 1234567890123456789, 0.1 * 3, 1e300 * 10, 42e-10}
	var in strings.Builder
	for _, f := range nums {
		in.WriteString(strconv.FormatFloat(f, 'g', -1, 64) + "\n")
	}
	lines := runNode(t, `
for (const l of require('fs').readFileSync(0, 'utf8').split('\n').filter(Boolean)) console.log(String(Number(l)));`, in.String())
	for i, f := range nums {
		if got := JSNumber(f); got != lines[i] {
			t.Errorf("JSNumber(%v) = %s, node %s", f, got, lines[i])
		}
	}
	for f, want := range map[float64]string{math.NaN(): "NaN", math.Inf(1): "Infinity", math.Inf(-1): "-Infinity", math.Copysign(0, -1): "0"} {
		if got := JSNumber(f); got != want {
			t.Errorf("JSNumber(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestStableStringifyGoValues(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"struct_omitempty_is_undefined", ToolTarget{SourceKind: "connector", SourceID: "s", ToolName: "t"}, `{"sourceId":"s","sourceKind":"connector","toolName":"t"}`},
		{"go_ints", map[string]any{"a": int64(1), "b": uint8(2)}, `{"a":1,"b":2}`},
		{"non_finite_is_null", []any{math.Inf(1), math.NaN()}, `[null,null]`},
		{"invalid_utf8_replaced", "a\xffb", "\"a\uFFFDb\""},
		{"unmarshallable_is_null", map[string]any{"f": func() {}}, `{"f":null}`},
		{"value_const_null", *c(nil), `{"const":null}`},
		{"condition_drops_unset", leaf(OpExists, path("turn.id"), nil), `{"left":{"path":"turn.id"},"op":"exists"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StableStringify(tt.in); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func baseDef() *Definition {
	return &Definition{
		ID: "h1", Name: "Webhook on answer", EventName: EventResponseCommitted,
		Action: Action{Type: ActionTool, Target: &ToolTarget{SourceKind: SourceConnector, SourceID: "hook", ToolName: "post", Version: "1.0.0"}},
		InputMapping: map[string]Value{
			"text": *path("payload.response.finalText"),
			"note": *tmpl("answer in ${session.title}"),
		},
		Condition: leaf(OpExists, path("payload.response.finalText"), nil),
	}
}

// TestExecutionHash checks hooks-v2-handbook §8.1–§8.2: which changes move
// the hash and which do not.
func TestExecutionHash(t *testing.T) {
	base := ExecutionHash(baseDef())
	same := map[string]func(d *Definition){
		"name_does_not_count":        func(d *Definition) { d.Name = "renamed" },
		"description_does_not_count": func(d *Definition) { d.Description = "more words" },
		"enabled_does_not_count":     func(d *Definition) { d.Enabled = new(false) },
		"id_revision_times_do_not_count": func(d *Definition) {
			d.ID, d.Revision, d.CreatedAt, d.UpdatedAt, d.ExecutionHash = "h2", 7, "2026-01-01T00:00:00Z", "x", "abc"
		},
		"explicit_defaults_equal_absent": func(d *Definition) {
			d.TimeoutMs = new(15000)
			d.RetryPolicy = &RetryPolicy{Mode: RetryUnsafe, MaxAttempts: new(3), BackoffMs: new(1000)}
			d.ConcurrencyPolicy = ConcurrencySerialPerSession
		},
		"partial_retry_policy_filled": func(d *Definition) { d.RetryPolicy = &RetryPolicy{MaxAttempts: new(3)} },
	}
	for name, mut := range same {
		t.Run(name, func(t *testing.T) {
			d := baseDef()
			mut(d)
			if got := ExecutionHash(d); got != base {
				t.Fatalf("hash changed")
			}
		})
	}
	changed := map[string]func(d *Definition){
		"event":              func(d *Definition) { d.EventName = EventTurnCompleted },
		"condition":          func(d *Definition) { d.Condition.Op = OpNot },
		"condition_removed":  func(d *Definition) { d.Condition = nil },
		"action_target":      func(d *Definition) { d.Action.Target.ToolName = "put" },
		"target_version":     func(d *Definition) { d.Action.Target.Version = "1.0.1" },
		"input_mapping":      func(d *Definition) { d.InputMapping["extra"] = *c(1.0) },
		"timeout":            func(d *Definition) { d.TimeoutMs = new(20000) },
		"retry_mode":         func(d *Definition) { d.RetryPolicy = &RetryPolicy{Mode: RetrySafe} },
		"retry_attempts":     func(d *Definition) { d.RetryPolicy = &RetryPolicy{MaxAttempts: new(4)} },
		"retry_backoff":      func(d *Definition) { d.RetryPolicy = &RetryPolicy{BackoffMs: new(0)} },
		"concurrency":        func(d *Definition) { d.ConcurrencyPolicy = ConcurrencyParallel },
		"const_type_changes": func(d *Definition) { d.InputMapping["text"] = *c("1") },
	}
	for name, mut := range changed {
		t.Run(name, func(t *testing.T) {
			d := baseDef()
			mut(d)
			if got := ExecutionHash(d); got == base {
				t.Fatalf("hash did not change")
			}
		})
	}
	t.Run("absent_condition_equals_null_and_mapping_equals_empty", func(t *testing.T) {
		a, b := baseDef(), baseDef()
		a.Condition, a.InputMapping = nil, nil
		b.Condition, b.InputMapping = nil, map[string]Value{}
		if ExecutionHash(a) != ExecutionHash(b) {
			t.Fatal("differ")
		}
	})
	t.Run("key_order_does_not_matter", func(t *testing.T) {
		var a, b Definition
		_ = json.Unmarshal([]byte(`{"name":"x","eventName":"turn.failed","action":{"type":"notification","title":{"const":"t"},"body":{"path":"payload.message"}}}`), &a)
		_ = json.Unmarshal([]byte(`{"action":{"body":{"path":"payload.message"},"title":{"const":"t"},"type":"notification"},"eventName":"turn.failed","name":"y"}`), &b)
		if ExecutionHash(&a) != ExecutionHash(&b) {
			t.Fatal("differ")
		}
	})
	t.Run("does_not_modify_definition", func(t *testing.T) {
		d := baseDef()
		ExecutionHash(d)
		if d.TimeoutMs != nil || d.RetryPolicy != nil || d.ConcurrencyPolicy != "" {
			t.Fatalf("definition changed: %+v", d)
		}
	})
}

// nodeHashDef is the definition TestExecutionHashMatchesNode hashes in
// JavaScript and TestExecutionHashGolden pins.
func nodeHashDef() *Definition {
	d := baseDef()
	d.Condition = &Condition{Op: OpOr, Conditions: []*Condition{leaf(OpEq, path("session.title"), c("中文 <b>")), leaf(OpNotEq, c(nil), c(1e21))}}
	return d
}

// TestExecutionHashMatchesNode hashes the handbook's input in JavaScript.
func TestExecutionHashMatchesNode(t *testing.T) {
	d := nodeHashDef()
	in := `{"eventName":"response.committed","action":{"type":"tool","target":{"sourceKind":"connector","sourceId":"hook","toolName":"post","version":"1.0.0"}},` +
		`"condition":{"op":"or","conditions":[{"op":"eq","left":{"path":"session.title"},"right":{"const":"中文 <b>"}},{"op":"notEq","left":{"const":null},"right":{"const":1e21}}]},` +
		`"inputMapping":{"text":{"path":"payload.response.finalText"},"note":{"template":"answer in ${session.title}"}},` +
		`"timeoutMs":15000,"retryPolicy":{"mode":"unsafe","maxAttempts":3,"backoffMs":1000},"concurrencyPolicy":"serial_per_session"}`
	lines := runNode(t, jsStable+`
const v = JSON.parse(require('fs').readFileSync(0, 'utf8'));
console.log(require('crypto').createHash('sha256').update(stable(v)).digest('hex'));`, in)
	if got := ExecutionHash(d); got != lines[0] {
		t.Fatalf("ExecutionHash = %s, node %s", got, lines[0])
	}
	lines = runNode(t, jsStable+`
const v = JSON.parse(require('fs').readFileSync(0, 'utf8'));
console.log(require('crypto').createHash('sha256').update(stable({eventId: 'hev_1', hookId: 'h1', action: v.action})).digest('hex'));`, in)
	if got := IdempotencyKey("hev_1", "h1", d.Action); got != lines[0] {
		t.Fatalf("IdempotencyKey = %s, node %s", got, lines[0])
	}
}

func TestIdempotencyKey(t *testing.T) {
	a := Action{Type: ActionSound}
	k := IdempotencyKey("hev_1", "h1", a)
	if len(k) != 64 || k != IdempotencyKey("hev_1", "h1", a) {
		t.Fatalf("not a stable sha256 hex: %s", k)
	}
	if k == IdempotencyKey("hev_2", "h1", a) || k == IdempotencyKey("hev_1", "h2", a) || k == IdempotencyKey("hev_1", "h1", Action{Type: ActionNotification}) {
		t.Fatal("key ignores an input")
	}
}

func TestApplyDefaults(t *testing.T) {
	shared := &RetryPolicy{Mode: RetrySafe}
	d := &Definition{RetryPolicy: shared}
	d.ApplyDefaults()
	if *d.TimeoutMs != 15000 || d.RetryPolicy.Mode != RetrySafe || *d.RetryPolicy.MaxAttempts != 3 ||
		*d.RetryPolicy.BackoffMs != 1000 || d.ConcurrencyPolicy != ConcurrencySerialPerSession || !*d.Enabled || d.InputMapping == nil {
		t.Fatalf("defaults: %+v %+v", d, d.RetryPolicy)
	}
	if shared.MaxAttempts != nil {
		t.Fatal("ApplyDefaults wrote through a caller's pointer")
	}
	keep := &Definition{TimeoutMs: new(1000), RetryPolicy: &RetryPolicy{BackoffMs: new(0)}, Enabled: new(false)}
	keep.ApplyDefaults()
	if *keep.TimeoutMs != 1000 || *keep.RetryPolicy.BackoffMs != 0 || *keep.Enabled {
		t.Fatal("explicit values overwritten")
	}
}

func BenchmarkExecutionHash(b *testing.B) {
	d := baseDef()
	b.ReportAllocs()
	for b.Loop() {
		ExecutionHash(d)
	}
}

// TestGenericMatchesJSON checks the marshal-free generic form against
// encoding/json for every wire type.
func TestGenericMatchesJSON(t *testing.T) {
	values := []any{
		&Action{Type: ActionNotification, Title: c(nil), Body: tmpl("${payload.message}")},
		&Action{Type: ActionTool, Target: &ToolTarget{SourceKind: SourceToolPackage, SourceID: "p", Version: "2", ToolName: "t", QualifiedName: "p.t"}},
		&Action{Type: ActionCommand, Hook: &CommandHook{Type: "process", Command: "x", Args: []string{"a", "<b>"}}},
		&Action{Type: ActionCommand, Hook: &CommandHook{Type: "command", Command: "x", Shell: hook.ShellOfTrue}},
		&RetryPolicy{Mode: RetryKeyed, BackoffMs: new(0)},
		&Condition{Op: OpAnd, Conditions: []*Condition{nil, leaf(OpEq, c(1.5), path("turn.id"))}},
		&Condition{Op: OpOr, Conditions: []*Condition{}},
		&Value{HasConst: true, Const: "x", Path: new("turn.id"), Template: new("t")},
		(*Condition)(nil),
	}
	for i, v := range values {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := StableStringify(v), StableStringify(json.RawMessage(raw)); got != want {
			t.Errorf("%d: generic %s, json %s", i, got, want)
		}
	}
}

// TestExecutionHashGolden pins the hashes TestExecutionHashMatchesNode
// checks against JavaScript, so byte compatibility is tested without node.
func TestExecutionHashGolden(t *testing.T) {
	d := nodeHashDef()
	if got, want := ExecutionHash(d), "584f50b73cbb4da7ae182951b5c4763dfb6be0fe13737208b973a371ba4bcbd9"; got != want {
		t.Errorf("ExecutionHash = %s, golden %s", got, want)
	}
	if got, want := IdempotencyKey("hev_1", "h1", d.Action), "2d5e8c54e04e94e40fdc655334c8520e8b047c273aff821e632d43879a4859f3"; got != want {
		t.Errorf("IdempotencyKey = %s, golden %s", got, want)
	}
	if got, want := ExecutionHash(baseDef()), "edfb1d48a75426ba7e59bd4077ea0d47e72eafa6b66fbb82cef74384d50a226d"; got != want {
		t.Errorf("ExecutionHash(baseDef) = %s, golden %s", got, want)
	}
}

// stableGolden is what the JavaScript reference printed for each of stableCases.
var stableGolden = []string{
	"null",
	"true",
	"0",
	"0",
	"1",
	"-1.5",
	"100",
	"1e+21",
	"1e-7",
	"0.000001",
	"1.2345678901234569e+23",
	"0.1",
	"2.5e-300",
	"1.7976931348623157e+308",
	"5e-324",
	"9007199254740992",
	"1",
	"12.34",
	"\"plain\"",
	"\"<script>&amp;</script>\"",
	"\"line\u2028sep\u2029para\"",
	"\"tab\\tnl\\nnul\\u0000\\u001f\x7f\"",
	"\"quote\\\" backslash\\\\ slash/\"",
	"\"中文 ✓ 😀\"",
	"\"😀\"",
	"[]",
	"{}",
	"[1,[2,[3]],{\"a\":2,\"b\":1}]",
	"{\"10\":1,\"9\":2,\"A\":true,\"_\":\"x\",\"a\":{\"c\":null,\"d\":[3,2,1]},\"b\":1}",
	"{\"z\":4,\"é\":3,\"😀\":1,\"\uffff\":2}",
	"{\"condition\":null,\"eventName\":\"turn.failed\",\"inputMapping\":{},\"timeoutMs\":15000}",
}

// TestStableStringifyGolden checks StableStringify against the literal
// JavaScript output, so it runs where node is not installed.
func TestStableStringifyGolden(t *testing.T) {
	if len(stableGolden) != len(stableCases) {
		t.Fatalf("%d golden values for %d cases", len(stableGolden), len(stableCases))
	}
	for i, in := range stableCases {
		dec := json.NewDecoder(strings.NewReader(in))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := StableStringify(v); got != stableGolden[i] {
			t.Errorf("StableStringify(%s)\n got %s\nwant %s", in, got, stableGolden[i])
		}
	}
}
