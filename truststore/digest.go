// Package truststore decides whether workspace (project) hook declarations may
// run, per lifecycle-hooks-and-workspace-trust.zh.txt §"工作区钩子为什么要信任",
// §"按什么摘要信任" and §"信任存在哪、怎样审查", and PROTOCOL.md §4.
//
// It holds: the declaration and bundle digests (digest.go), evaluation in
// the spec's fixed order (state.go: Evaluate), the locked trust file
// (store.go, lock.go), the gate a session asks before each workspace hook
// starts, which refuses writes after a corrupt read (gate.go), a
// workspace's declarations digested (workspace.go: NewWorkspace, from the
// loader's discovery as plain data) and the review: what is shown,
// described and granted (report.go). Script pinning is truststore/pin.
// Nothing here reads configuration files, spawns hooks or edits files
// other than the trust file.
package truststore

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"

	"github.com/hookside/hookside/internal/jsjson"
)

// digestSchemaVersion is WORKSPACE_HOOK_DIGEST_SCHEMA_VERSION, the second
// element of the digested array (§"按什么摘要信任").
const digestSchemaVersion = 1

// Digest returns the declaration digest defined in
// lifecycle-hooks-and-workspace-trust §"按什么摘要信任" and PROTOCOL.md §4:
// the lowercase hex SHA-256 of the bytes JavaScript's JSON.stringify produces for
//
//	["workspace-hook-declaration", 1, sourceRelativePath, sourceDiscoveryOrder,
//	 event, matcher, matcherIndex, hookIndex, execution,
//	 resolvedTimeoutMs, resolvedMaxOutputBytes]
//
// with execution = ["process", command, args] for process hooks (args [] when
// absent) and ["command", command, async, ["unset"]|["true"]|["string", shell]]
// for every other type (the spec's ternary tests only for "process"); matcher
// is null when absent. statusMessage and enabled are deliberately not inputs.
//
// Strings are encoded exactly like JSON.stringify (see jsjson.AppendString).
// Invalid UTF-8 cannot occur in JavaScript strings; Digest replaces each
// invalid byte with U+FFFD, the same rule encoding/json applies when it
// decodes the configuration files, so a declaration read by hookside and by
// the original implementation digests the same for isolated bad bytes.
// It never fails.
func Digest(h hook.Hook) string {
	var buf [512]byte
	b := appendDeclarationJSON(buf[:0], h)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// declarationJSON returns the exact bytes Digest hashes, for review tooling
// and tests (§"按什么摘要信任").
func declarationJSON(h hook.Hook) []byte {
	return appendDeclarationJSON(nil, h)
}

func appendDeclarationJSON(b []byte, h hook.Hook) []byte {
	b = append(b, `["workspace-hook-declaration",`...)
	b = appendJSInt(b, digestSchemaVersion)
	b = append(b, ',')
	b = jsjson.AppendString(b, h.Source.RelativePath)
	b = append(b, ',')
	b = appendJSInt(b, h.Source.DiscoveryOrder)
	b = append(b, ',')
	b = jsjson.AppendString(b, h.Event)
	b = append(b, ',')
	if h.Matcher == nil {
		b = append(b, "null"...)
	} else {
		b = jsjson.AppendString(b, *h.Matcher)
	}
	b = append(b, ',')
	b = appendJSInt(b, h.MatcherIndex)
	b = append(b, ',')
	b = appendJSInt(b, h.HookIndex)
	b = append(b, ',')
	if h.Type == hook.TypeProcess {
		b = append(b, `["process",`...)
		b = jsjson.AppendString(b, h.Command)
		b = append(b, ",["...)
		for i, a := range h.Args {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsjson.AppendString(b, a)
		}
		b = append(b, "]]"...)
	} else {
		b = append(b, `["command",`...)
		b = jsjson.AppendString(b, h.Command)
		if h.Async {
			b = append(b, ",true,"...)
		} else {
			b = append(b, ",false,"...)
		}
		switch h.Shell.Kind() {
		case hook.ShellTrue:
			b = append(b, `["true"]`...)
		case hook.ShellString:
			b = append(b, `["string",`...)
			b = jsjson.AppendString(b, h.Shell.Program())
			b = append(b, ']')
		default: // no `shell` key
			b = append(b, `["unset"]`...)
		}
		b = append(b, ']')
	}
	b = append(b, ',')
	b = appendJSInt(b, h.TimeoutMs)
	b = append(b, ',')
	b = appendJSInt(b, h.MaxOutputBytes)
	return append(b, ']')
}

// appendJSInt formats n the way JavaScript's Number#toString does. Every
// integer within ±2^53 prints as its decimal digits; beyond that JavaScript
// holds the nearest double and prints its shortest round-trip digits padded
// with zeros, which is what strconv's 'f', -1 format does for |n| < 1e21
// (every int64 is).
func appendJSInt(b []byte, n int) []byte {
	const maxSafe = 1 << 53
	if n >= -maxSafe && n <= maxSafe {
		return strconv.AppendInt(b, int64(n), 10)
	}
	return strconv.AppendFloat(b, float64(n), 'f', -1, 64)
}

// SourceFile is one workspace configuration file that declared (or could
// declare) hooks: its path relative to the workspace root with "/"
// separators and its raw bytes. It is an input of BundleDigest.
type SourceFile struct {
	RelativePath string
	Content      []byte
}

// bundleDigestVersion is the second element of the bundle array.
const bundleDigestVersion = 2

// BundleDigest is bundleDigestPinned without script pins.
func BundleDigest(files []SourceFile, hooks []hook.Hook) string {
	return bundleDigestPinned(files, hooks, nil)
}

// bundleDigestPinned returns the digest over every source file, every
// declaration and every script pin of a workspace (§"按什么摘要信任": "覆盖全部来源
// 文件与声明的 bundle 摘要", used to confirm "trust everything shown" operations
// such as `hooks trust grant --all --bundle-digest B`). The construction is
// hookside's own (the spec names the function but not its bytes):
//
//	sha256hex(JSON.stringify(["workspace-hook-bundle", 2,
//	    [[relativePath, sha256hex(content)], …],  // sorted by relativePath, then hash
//	    [Digest(hook), …],                        // sorted ascending
//	    [[path, kind, sha256, target], …]]))      // every declaration's pins (PinEntry)
//
// where a pin is ["hooks/x.sh", "file", sha256hex(content), ""],
// ["hooks/y.sh", "absent", "", ""], ["hooks/z.sh", "link", sha256hex(content
// of the target), "/abs/target"] or ["hooks/*.sh", "glob", sha256hex(matches
// joined by "\n"), ""]; the pins of all declarations are merged, sorted by
// path, kind, sha256, target (byte order) and deduplicated.
//
// The lists are sorted, so the result does not depend on the order the
// caller passes files, hooks or pins in; the positions of the declarations
// are already inside each declaration digest. Duplicate files and
// declarations are kept, not merged. It never fails.
func bundleDigestPinned(files []SourceFile, hooks []hook.Hook, pins []pin.Pins) string {
	type entry struct{ path, sum string }
	fs := make([]entry, len(files))
	for i, f := range files {
		s := sha256.Sum256(f.Content)
		fs[i] = entry{f.RelativePath, hex.EncodeToString(s[:])}
	}
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].path != fs[j].path {
			return fs[i].path < fs[j].path
		}
		return fs[i].sum < fs[j].sum
	})
	ds := make([]string, len(hooks))
	for i, h := range hooks {
		ds[i] = Digest(h)
	}
	sort.Strings(ds)
	var es []pin.PinEntry
	for _, p := range pins {
		es = append(es, p.Entries()...)
	}
	pin.SortEntries(es)

	b := append([]byte(nil), `["workspace-hook-bundle",`...)
	b = appendJSInt(b, bundleDigestVersion)
	b = append(b, ",["...)
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = jsjson.AppendString(b, f.path)
		b = append(b, ',')
		b = jsjson.AppendString(b, f.sum)
		b = append(b, ']')
	}
	b = append(b, "],["...)
	for i, d := range ds {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsjson.AppendString(b, d)
	}
	b = append(b, "],["...)
	n := 0
	for i, e := range es {
		if i > 0 && e == es[i-1] {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, '[')
		b = jsjson.AppendString(b, e.Path)
		b = append(b, ',')
		b = jsjson.AppendString(b, e.Kind)
		b = append(b, ',')
		b = jsjson.AppendString(b, e.SHA256)
		b = append(b, ',')
		b = jsjson.AppendString(b, e.Target)
		b = append(b, ']')
	}
	b = append(b, "]]"...)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// validDigest reports whether d looks like a declaration digest: 64
// lowercase hex digits.
func validDigest(d string) bool {
	if len(d) != 64 {
		return false
	}
	for i := 0; i < len(d); i++ {
		c := d[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
