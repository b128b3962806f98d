package httphook

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/output"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// A real HTTP server on 127.0.0.1 receives the POST and answers like a
// Claude Code http hook endpoint.
func TestDoPostsInputAndReadsAnswer(t *testing.T) {
	var got struct {
		method, ctype, auth, other, secret string
		body                               []byte
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.method, got.ctype = r.Method, r.Header.Get("Content-Type")
		got.auth, got.other, got.secret = r.Header.Get("Authorization"), r.Header.Get("X-Other"), r.Header.Get("X-Secret")
		got.body, _ = io.ReadAll(r.Body)
		io.WriteString(w, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy says no"}}`)
	}))
	defer srv.Close()
	c := &Client{Getenv: env(map[string]string{"MY_TOKEN": "t0k", "OTHER": "o", "SECRET": "s"})}
	h := Handler{
		URL: srv.URL + "/hooks/pre-tool-use",
		Headers: map[string]string{
			"Authorization": "Bearer $MY_TOKEN",
			"X-Other":       "[${OTHER}]", // not in allowedEnvVars: empty
			"X-Secret":      "$SECRET",    // allowed by the hook, not by the settings
		},
		AllowedEnvVars: []string{"MY_TOKEN", "SECRET"},
		Timeout:        5 * time.Second,
	}
	input := []byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash"}`)
	r := c.Do(context.Background(), h, Policy{AllowedEnvVars: []string{"MY_TOKEN"}}, input)
	if r.Status != 200 || r.Err != "" {
		t.Fatalf("result %+v", r)
	}
	if got.method != "POST" || got.ctype != "application/json" || string(got.body) != string(input) {
		t.Errorf("request: %s %s %s", got.method, got.ctype, got.body)
	}
	if got.auth != "Bearer t0k" || got.other != "[]" || got.secret != "" {
		t.Errorf("headers: auth %q other %q secret %q", got.auth, got.other, got.secret)
	}
	m := output.MergeClaude("PreToolUse", "Bash", []output.ClaudeAnswer{output.ParseClaudeHTTP("PreToolUse", r)})
	if !m.Blocked || *m.PermissionDecision != "deny" || *m.PermissionDecisionReason != "policy says no" {
		t.Errorf("merged: %+v", m)
	}
}

func TestDoStatusAndFailures(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/500", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(500)
		io.WriteString(w, `{"decision":"block"}`)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, strings.Repeat("x", 100)) })
	release := make(chan struct{})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	defer close(release)
	c := &Client{}

	r := c.Do(context.Background(), Handler{URL: srv.URL + "/500"}, Policy{}, []byte(`{}`))
	a := output.ParseClaudeHTTP("UserPromptSubmit", r)
	if r.Status != 500 || a.Block || a.Outcome != output.OutcomeFailed || a.HookError == "" {
		t.Errorf("non-2xx is a non-blocking error: %+v %+v", r, a)
	}
	r = c.Do(context.Background(), Handler{URL: srv.URL + "/big", MaxBodyBytes: 10}, Policy{}, nil)
	if len(r.Body) != 10 || !r.BodyTruncated {
		t.Errorf("cap: %d %v", len(r.Body), r.BodyTruncated)
	}
	r = c.Do(context.Background(), Handler{URL: srv.URL + "/slow", Timeout: 200 * time.Millisecond}, Policy{}, nil)
	if !r.TimedOut {
		t.Errorf("timeout: %+v", r)
	}
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	if r := c.Do(context.Background(), Handler{URL: deadURL}, Policy{}, nil); r.Err == "" || r.Status != 0 {
		t.Errorf("connection refused: %+v", r)
	}
	if r := c.Do(context.Background(), Handler{URL: "ftp://x/"}, Policy{}, nil); !strings.Contains(r.Err, "invalid url") {
		t.Errorf("bad scheme: %+v", r)
	}
}

func TestAllowlistAndRedirects(t *testing.T) {
	var finalBody string
	mux := http.NewServeMux()
	mux.HandleFunc("/final", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		finalBody = r.Method + " " + string(b)
		io.WriteString(w, `{}`)
	})
	mux.HandleFunc("/307", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/final", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/302", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/final", http.StatusFound) })
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://example.invalid/x", http.StatusPermanentRedirect)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusTemporaryRedirect)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := &Client{}
	host := strings.TrimPrefix(srv.URL, "http://")
	allowLocal := Policy{AllowedURLs: []string{"HTTP://" + strings.ToUpper(strings.Split(host, ":")[0]) + ".:*"}}

	if r := c.Do(context.Background(), Handler{URL: srv.URL + "/final"}, Policy{AllowedURLs: []string{"https://hooks.example.com/*"}}, nil); !r.Skipped || !strings.HasPrefix(r.SkipReason, "url_not_allowed") {
		t.Errorf("not in the allowlist: %+v", r)
	}
	if r := c.Do(context.Background(), Handler{URL: srv.URL + "/final"}, Policy{AllowedURLs: []string{}}, nil); !r.Skipped {
		t.Errorf("an empty allowlist blocks all: %+v", r)
	}
	if r := c.Do(context.Background(), Handler{URL: srv.URL + "/307"}, allowLocal, []byte(`{"a":1}`)); r.Status != 200 || finalBody != `POST {"a":1}` {
		t.Errorf("307 re-sends the POST: %+v %q", r, finalBody)
	}
	finalBody = ""
	if r := c.Do(context.Background(), Handler{URL: srv.URL + "/302"}, allowLocal, []byte(`{}`)); r.Status != 302 || finalBody != "" {
		t.Errorf("302 is not followed: %+v %q", r, finalBody)
	}
	if r := c.Do(context.Background(), Handler{URL: srv.URL + "/away"}, allowLocal, nil); !strings.Contains(r.Err, ErrRedirectNotAllowed.Error()) {
		t.Errorf("redirect out of the allowlist: %+v", r)
	}
	if r := c.Do(context.Background(), Handler{URL: srv.URL + "/loop"}, Policy{}, nil); !strings.Contains(r.Err, "redirects") {
		t.Errorf("redirect loop: %+v", r)
	}
}

func TestURLAllowed(t *testing.T) {
	// https://code.claude.com/docs/en/settings-reference#allowedhttphookurls
	cases := []struct {
		patterns []string
		url      string
		want     bool
	}{
		{nil, "http://anything/", true},
		{[]string{}, "http://localhost/", false},
		{[]string{"https://hooks.example.com/*"}, "https://hooks.example.com/a/b", true},
		{[]string{"https://hooks.example.com/*"}, "https://HOOKS.Example.COM./a", true},
		{[]string{"https://hooks.example.com/*"}, "http://hooks.example.com/a", false},
		{[]string{"https://hooks.example.com/*"}, "https://hooks.example.com.evil.io/a", false},
		{[]string{"http://localhost:*"}, "http://localhost:8080/hooks", true},
		{[]string{"http://localhost:*"}, "http://localhost/hooks", false},
		{[]string{"https://*.example.com/hook"}, "https://a.example.com/hook", true},
		{[]string{"https://*.example.com/hook"}, "https://a.example.com/HOOK", false},
	}
	for _, c := range cases {
		if got := URLAllowed(c.patterns, c.url); got != c.want {
			b, _ := json.Marshal(c.patterns)
			t.Errorf("URLAllowed(%s, %q) = %v", b, c.url, got)
		}
	}
}
