package truststore

import (
	"bytes"
	"encoding/json"
	"maps"
	"os/exec"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

// nodeDigestScript rebuilds the spec's array (workspace-hook-digest.ts:222)
// from a JSON description and prints JSON.stringify and its SHA-256.
const nodeDigestScript = `
const crypto = require("crypto");
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const sha = (s) => crypto.createHash("sha256").update(s, "utf8").digest("hex");
const out = cases.map((c) => {
  if (c.bundle) {
    const files = c.files.map((f) => [f.path, crypto.createHash("sha256").update(Buffer.from(f.b64 ?? "", "base64")).digest("hex")]);
    files.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    const ds = [...c.digests].sort();
    const cmp = (a, b) => { for (let i = 0; i < 4; i++) { if (a[i] < b[i]) return -1; if (a[i] > b[i]) return 1; } return 0; };
    const pins = (c.pins ?? []).map((p) => [p.path, p.kind, p.sha256 ?? "", p.target ?? ""]).sort(cmp)
      .filter((p, i, a) => i === 0 || cmp(p, a[i - 1]) !== 0);
    const s = JSON.stringify(["workspace-hook-bundle", 2, files, ds, pins]);
    return { json: s, digest: sha(s) };
  }
  const hook = { type: c.type, command: c.command, args: c.args === null ? undefined : c.args, async: c.async,
    shell: c.shellKind === "true" ? true : c.shellKind === "string" ? c.shell : undefined };
  const execution =
    hook.type === "process"
      ? ["process", hook.command, [...(hook.args ?? [])]]
      : ["command", hook.command, hook.async === true,
         hook.shell === undefined ? ["unset"] : hook.shell === true ? ["true"] : ["string", hook.shell]];
  const arr = ["workspace-hook-declaration", 1, c.rel, c.order, c.event, c.matcher, c.mi, c.hi, execution, c.timeout, c.max];
  const s = JSON.stringify(arr);
  return { json: s, digest: sha(s) };
});
process.stdout.write(JSON.stringify(out));
`

type nodeCase struct {
	Bundle    bool             `json:"bundle,omitempty"`
	Files     []map[string]any `json:"files,omitempty"`
	Digests   []string         `json:"digests,omitempty"`
	Pins      []pin.PinEntry   `json:"pins,omitempty"`
	Rel       string           `json:"rel"`
	Order     int              `json:"order"`
	Event     string           `json:"event"`
	Matcher   *string          `json:"matcher"`
	MI        int              `json:"mi"`
	HI        int              `json:"hi"`
	Type      string           `json:"type"`
	Command   string           `json:"command"`
	Args      []string         `json:"args"`
	Async     bool             `json:"async"`
	ShellKind string           `json:"shellKind"`
	Shell     string           `json:"shell"`
	Timeout   int              `json:"timeout"`
	Max       int              `json:"max"`
}

type nodeResult struct {
	JSON   string `json:"json"`
	Digest string `json:"digest"`
}

func runNode(t *testing.T, cases []nodeCase) []nodeResult {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed: cannot compare with JavaScript JSON.stringify")
	}
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "-e", nodeDigestScript)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var res []nodeResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node output: %v", err)
	}
	if len(res) != len(cases) {
		t.Fatalf("node returned %d results for %d cases", len(res), len(cases))
	}
	return res
}

func ptr(s string) *string { return &s }

func caseOf(h hook.Hook) nodeCase {
	c := nodeCase{Rel: h.Source.RelativePath, Order: h.Source.DiscoveryOrder, Event: h.Event, Matcher: h.Matcher,
		MI: h.MatcherIndex, HI: h.HookIndex, Type: string(h.Type), Command: h.Command, Args: h.Args,
		Async: h.Async, ShellKind: string(h.Shell.Kind()), Shell: h.Shell.Program(), Timeout: h.TimeoutMs, Max: h.MaxOutputBytes}
	return c
}

// digestHooks covers every input of the digest and every escaping rule.
func digestHooks() map[string]hook.Hook {
	base := hook.Hook{Event: hook.PreToolUse, Source: hook.Source{Kind: hook.SourceWorkspace,
		RelativePath: ".zcode/config.json", DiscoveryOrder: 1}, Matcher: ptr("^(Bash|Write|Edit)$"),
		Type: hook.TypeProcess, Command: "node", Args: []string{"./scripts/pre-tool-hook.mjs"},
		TimeoutMs: 5000, MaxOutputBytes: hook.DefaultMaxOutputBytes}
	with := func(f func(h *hook.Hook)) hook.Hook {
		h := base
		h.Args = append([]string(nil), base.Args...)
		f(&h)
		return h
	}
	cmd := func(command string, shell hook.Shell, async bool) hook.Hook {
		return with(func(h *hook.Hook) {
			h.Type, h.Command, h.Args, h.Shell, h.Async = hook.TypeCommand, command, nil, shell, async
		})
	}
	return map[string]hook.Hook{
		"readme_process":       base,
		"nil_matcher":          with(func(h *hook.Hook) { h.Matcher = nil }),
		"empty_matcher":        with(func(h *hook.Hook) { h.Matcher = ptr("") }),
		"nil_args":             with(func(h *hook.Hook) { h.Args = nil }),
		"empty_args":           with(func(h *hook.Hook) { h.Args = []string{} }),
		"many_args":            with(func(h *hook.Hook) { h.Args = []string{"-e", "", "a b", `"q"`, `back\slash`} }),
		"indices_and_order":    with(func(h *hook.Hook) { h.MatcherIndex, h.HookIndex, h.Source.DiscoveryOrder = 3, 7, 2 }),
		"negative_and_zero":    with(func(h *hook.Hook) { h.TimeoutMs, h.MaxOutputBytes = 0, -1 }),
		"beyond_2_53":          with(func(h *hook.Hook) { h.TimeoutMs = 1<<53 + 1; h.MaxOutputBytes = 1 << 62 }),
		"shell_unset":          cmd("./hooks/check.sh && echo ok", hook.Shell{}, false),
		"shell_zero_kind":      cmd("./hooks/check.sh && echo ok", hook.Shell{}, false),
		"shell_true_async":     cmd("echo hi > /tmp/x", hook.ShellOfTrue, true),
		"shell_string":         cmd(`grep -q "x" < in.txt > out.txt 2>&1 & wait`, hook.ShellProgram("bash -lc"), false),
		"html_chars":           cmd(`a && b || c <d> e & f '<script>'`, hook.Shell{}, false),
		"quotes_backslashes":   cmd(`echo "a\"b" 'c\d' \\ \n`, hook.ShellOfTrue, false),
		"control_chars":        cmd("a\tb\nc\rd\be\ff\x00g\x01h\x1fi\x7fj", hook.Shell{}, false),
		"non_ascii":            cmd("echo 中文 ✓ é 😀 𝄞", hook.ShellProgram("/usr/bin/env zsh -c"), false),
		"line_separators":      cmd("echo \u2028 and \u2029 and \u0085 and \ufeff", hook.Shell{}, false),
		"invalid_utf8_bytes":   cmd("echo \xff \xfe x\xc3", hook.Shell{}, false),
		"non_ascii_path_event": with(func(h *hook.Hook) { h.Source.RelativePath = "子目录/zcode.json"; h.Event = hook.Stop }),
		"unknown_type":         with(func(h *hook.Hook) { h.Type = "weird"; h.Shell = hook.ShellOfTrue }),
	}
}

func TestDigestMatchesJavaScript(t *testing.T) {
	hooks := digestHooks()
	var names []string
	var cases []nodeCase
	for name, h := range hooks {
		names = append(names, name)
		cases = append(cases, caseOf(h))
	}
	res := runNode(t, cases)
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			h := hooks[name]
			if got := string(declarationJSON(h)); got != res[i].JSON {
				t.Errorf("JSON mismatch\n go: %q\njs: %q", got, res[i].JSON)
			}
			if got := Digest(h); got != res[i].Digest {
				t.Errorf("digest %s, node %s", got, res[i].Digest)
			}
		})
	}
}

func TestDigestEncoding(t *testing.T) {
	h := digestHooks()["html_chars"]
	js := string(declarationJSON(h))
	for _, raw := range []string{"<d>", "&&", "'<script>'"} {
		if !strings.Contains(js, raw) {
			t.Errorf("%q was escaped: %s", raw, js)
		}
	}
	h = digestHooks()["line_separators"]
	if js := string(declarationJSON(h)); !strings.Contains(js, "\u2028") || strings.Contains(js, `\u2028`) {
		t.Errorf("U+2028 must stay raw: %q", js)
	}
	h = digestHooks()["invalid_utf8_bytes"]
	if js := string(declarationJSON(h)); !strings.Contains(js, "echo \uFFFD \uFFFD x\uFFFD") {
		t.Errorf("each invalid byte must become U+FFFD: %q", js)
	}
}

func TestDigestInputs(t *testing.T) {
	base := digestHooks()["readme_process"]
	d0 := Digest(base)
	if len(d0) != 64 || !validDigest(d0) {
		t.Fatalf("digest %q is not lowercase hex sha256", d0)
	}
	changes := map[string]func(h *hook.Hook){
		"command":      func(h *hook.Hook) { h.Command = "bun" },
		"args":         func(h *hook.Hook) { h.Args = []string{"./other.mjs"} },
		"event":        func(h *hook.Hook) { h.Event = hook.PostToolUse },
		"matcher":      func(h *hook.Hook) { h.Matcher = ptr("Bash") },
		"source":       func(h *hook.Hook) { h.Source.RelativePath = "zcode.json" },
		"order":        func(h *hook.Hook) { h.Source.DiscoveryOrder = 0 },
		"matcherIndex": func(h *hook.Hook) { h.MatcherIndex = 1 },
		"hookIndex":    func(h *hook.Hook) { h.HookIndex = 1 },
		"timeout":      func(h *hook.Hook) { h.TimeoutMs = 5001 },
		"maxOutput":    func(h *hook.Hook) { h.MaxOutputBytes = 1 },
	}
	for name, f := range changes {
		h := base
		f(&h)
		if Digest(h) == d0 {
			t.Errorf("changing %s must change the digest", name)
		}
	}
	same := base
	same.StatusMessage, same.Enabled, same.ID, same.Source.Path = "checking…", new(bool), "other-id", "/elsewhere"
	if Digest(same) != d0 {
		t.Error("statusMessage, enabled, id and absolute path are not digest inputs")
	}
}

func TestBundleDigestMatchesJavaScript(t *testing.T) {
	hooks := digestHooks()
	var hs []hook.Hook
	var ds []string
	for _, h := range hooks {
		hs = append(hs, h)
		ds = append(ds, Digest(h))
	}
	files, pins := goldenBundleInputs()
	var fj []map[string]any
	for _, f := range files {
		fj = append(fj, map[string]any{"path": f.RelativePath, "b64": f.Content})
	}
	var pe []pin.PinEntry
	for _, p := range pins {
		pe = append(pe, p.Entries()...)
	}
	res := runNode(t, []nodeCase{{Bundle: true, Files: fj, Digests: ds}, {Bundle: true, Files: fj, Digests: ds, Pins: pe}})
	got := BundleDigest(files, hs)
	if got != res[0].Digest {
		t.Fatalf("bundle digest %s, node %s (%s)", got, res[0].Digest, res[0].JSON)
	}
	if gp := bundleDigestPinned(files, hs, pins); gp != res[1].Digest {
		t.Fatalf("pinned bundle digest %s, node %s (%s)", gp, res[1].Digest, res[1].JSON)
	}
	// Any pin difference changes the bundle: an edited script, an absent
	// script appearing, a retargeted link, a new glob match.
	for name, mut := range map[string]func(p *pin.Pins){
		"edited":     func(p *pin.Pins) { p.Scripts["hooks/x.sh"] = hexSum("y") },
		"appeared":   func(p *pin.Pins) { p.Scripts["hooks/gone.sh"] = hexSum("new") },
		"retargeted": func(p *pin.Pins) { p.Links["hooks/ext.sh"] = "/other/ext.sh" },
		"glob":       func(p *pin.Pins) { p.Globs["hooks/*.py"] = hexSum("a.py\nb.py") },
	} {
		m := pin.Pins{Scripts: maps.Clone(pins[0].Scripts), Links: maps.Clone(pins[0].Links), Globs: maps.Clone(pins[0].Globs)}
		mut(&m)
		if bundleDigestPinned(files, hs, []pin.Pins{m, pins[1]}) == res[1].Digest {
			t.Errorf("bundle digest ignores a %s pin", name)
		}
	}
	// Order independence.
	rf := []SourceFile{files[2], files[0], files[1]}
	rh := append([]hook.Hook(nil), hs...)
	for i, j := 0, len(rh)-1; i < j; i, j = i+1, j-1 {
		rh[i], rh[j] = rh[j], rh[i]
	}
	if BundleDigest(rf, rh) != got {
		t.Error("bundle digest depends on input order")
	}
	files[0].Content = []byte(`{"hooks":{"enabled":true}}`)
	if BundleDigest(files, hs) == got {
		t.Error("bundle digest ignores file content")
	}
}
