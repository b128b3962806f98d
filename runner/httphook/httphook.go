// Package httphook runs Claude Code's `http` hook handlers
// (https://code.claude.com/docs/en/hooks#http-hook-fields): the hook's
// input JSON is POSTed to the handler's URL with `Content-Type:
// application/json` and the configured headers, and the response is
// returned as an output.HTTPResult for output.ParseClaudeHTTP.
//
// Rules:
//   - Header values may reference environment variables as $NAME or
//     ${NAME}; a name is resolved only when the handler's allowedEnvVars
//     lists it and, when the settings define httpHookAllowedEnvVars, that
//     list names it too; any other reference becomes the empty string
//     (https://code.claude.com/docs/en/settings-reference#httphookallowedenvvars).
//   - When the settings define allowedHttpHookUrls, a URL that matches
//     none of its patterns is not requested (the result is Skipped); `*`
//     matches any run of characters, the scheme and host compare
//     case-insensitively and a host's trailing dot is ignored
//     (https://code.claude.com/docs/en/settings-reference#allowedhttphookurls).
//     An empty, non-nil list blocks every URL.
//   - Redirects: 307 and 308 are followed (the POST and its body are
//     re-sent) when the target passes the same allowlist, at most
//     MaxRedirects times; 301, 302 and 303, which would turn the POST into
//     a GET, are not followed, so their status is the answer (a
//     non-blocking error). A redirect to a URL outside the allowlist is a
//     transport error.
//   - The timeout bounds the whole exchange, body included; a timeout is
//     reported as TimedOut. The response body is read up to MaxBodyBytes.
package httphook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hookside/hookside/output"
)

// MaxRedirects bounds the 307/308 redirects followed for one request.
const MaxRedirects = 5

// Handler is one http handler declaration.
type Handler struct {
	URL            string
	Headers        map[string]string
	AllowedEnvVars []string
	// Timeout bounds the request; MaxBodyBytes the response body read.
	Timeout      time.Duration
	MaxBodyBytes int
}

// Policy holds the settings-level limits that apply to every http
// handler: AllowedURLs is allowedHttpHookUrls (nil = any URL) and
// AllowedEnvVars is httpHookAllowedEnvVars (nil = no outer limit).
type Policy struct {
	AllowedURLs    []string
	AllowedEnvVars []string
}

// Client sends http hook requests. Getenv resolves environment variables
// (the hook's environment); Transport is the HTTP transport (nil =
// http.DefaultTransport).
type Client struct {
	Getenv    func(name string) (string, bool)
	Transport http.RoundTripper
}

// ErrRedirectNotAllowed is the transport error of a redirect to a URL the
// allowlist refuses.
var ErrRedirectNotAllowed = errors.New("redirect target is not in allowedHttpHookUrls")

// Do POSTs body (the hook input JSON) to h.URL under pol and returns what
// happened. It never panics; every failure is reported in the result.
func (c *Client) Do(ctx context.Context, h Handler, pol Policy, body []byte) output.HTTPResult {
	u, err := url.Parse(h.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return output.HTTPResult{Err: fmt.Sprintf("invalid url %q: want an absolute http or https URL", h.URL)}
	}
	if !URLAllowed(pol.AllowedURLs, h.URL) {
		return output.HTTPResult{Skipped: true, SkipReason: "url_not_allowed: " + h.URL + " matches no allowedHttpHookUrls pattern"}
	}
	if h.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, h.Timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(body))
	if err != nil {
		return output.HTTPResult{Err: err.Error()}
	}
	for _, k := range slices.Sorted(maps.Keys(h.Headers)) {
		req.Header.Set(k, c.interpolate(h.Headers[k], h.AllowedEnvVars, pol.AllowedEnvVars))
	}
	req.Header.Set("Content-Type", "application/json")
	hc := &http.Client{
		Transport: c.Transport,
		CheckRedirect: func(next *http.Request, via []*http.Request) error {
			if next.Method != http.MethodPost {
				return http.ErrUseLastResponse // 301/302/303: not followed
			}
			if len(via) > MaxRedirects {
				return fmt.Errorf("stopped after %d redirects", MaxRedirects)
			}
			if !URLAllowed(pol.AllowedURLs, next.URL.String()) {
				return ErrRedirectNotAllowed
			}
			return nil
		},
	}
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return output.HTTPResult{TimedOut: true}
		}
		return output.HTTPResult{Err: err.Error()}
	}
	defer resp.Body.Close()
	limit := h.MaxBodyBytes
	if limit <= 0 {
		limit = 32768
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	r := output.HTTPResult{Status: resp.StatusCode, Body: data}
	if len(data) > limit {
		r.Body, r.BodyTruncated = data[:limit], true
	}
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return output.HTTPResult{TimedOut: true}
		}
		r.Err = "reading the response: " + err.Error()
	}
	return r
}

var envRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)
})

// interpolate replaces $NAME and ${NAME} in v by the variable's value when
// both allow lists permit it (outer nil = no outer limit), else by "".
func (c *Client) interpolate(v string, allowed, outer []string) string {
	return envRef().ReplaceAllStringFunc(v, func(ref string) string {
		name := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(ref, "$"), "{"), "}")
		if !slices.Contains(allowed, name) || (outer != nil && !slices.Contains(outer, name)) || c.Getenv == nil {
			return ""
		}
		val, _ := c.Getenv(name)
		return val
	})
}

// URLAllowed reports whether raw matches one of patterns (nil = every URL
// is allowed; empty = none is).
func URLAllowed(patterns []string, raw string) bool {
	if patterns == nil {
		return true
	}
	target := normalize(raw)
	for _, p := range patterns {
		if globMatch(normalize(p), target) {
			return true
		}
	}
	return false
}

// normalize lower-cases the scheme and authority of a URL or pattern and
// drops a trailing dot of its host.
func normalize(s string) string {
	i := strings.Index(s, "://")
	if i < 0 {
		return s
	}
	rest := s[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	auth := strings.ToLower(rest[:end])
	host, port, hasPort := strings.Cut(auth, ":")
	if h := strings.TrimSuffix(host, "."); h != "" {
		host = h
	}
	if hasPort {
		auth = host + ":" + port
	} else {
		auth = host
	}
	return strings.ToLower(s[:i]) + "://" + auth + rest[end:]
}

// globMatch matches s against pattern, where `*` stands for any run of
// characters and everything else is literal.
func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return strings.HasSuffix(s, last)
}
