package config

import (
	"errors"
	"strings"

	"github.com/hookside/hookside/internal/hook"
)

// ErrSkillDir is returned by Expand for ${ZCODE_SKILL_DIR}: it has no
// meaning in a hook and is a configuration error
// (lifecycle-hooks-and-workspace-trust §"进程钩子的协议", configured-runner-input.ts:100).
// The parsers already drop declarations that use it (CodeInvalidHook).
var ErrSkillDir = errors.New("${ZCODE_SKILL_DIR} is not available to hooks")

const skillDirRef = "${" + hook.EnvSkillDir + "}"

// Expand replaces each "${NAME}" in s whose NAME is one of hook.ExpandableVars
// and is a key of vars with vars[NAME] (a single pass: replaced text is not
// expanded again). Everything else is left exactly as written — "$NAME"
// without braces, "${OTHER}", a known name missing from vars, an unclosed
// "${" — so a shell can still expand it. "${ZCODE_SKILL_DIR}" makes Expand
// return "" and ErrSkillDir. s without "${" is returned
// as is, without allocating.
func Expand(s string, vars map[string]string) (string, error) {
	i := strings.Index(s, "${")
	if i < 0 {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		b.WriteString(s[:i])
		s = s[i:]
		end := strings.IndexByte(s, '}')
		if end < 0 {
			break
		}
		name := s[2:end]
		if name == hook.EnvSkillDir {
			return "", ErrSkillDir
		}
		if v, ok := vars[name]; ok && hook.IsExpandable(name) {
			b.WriteString(v)
			s = s[end+1:]
		} else {
			// Not ours: keep "${" and rescan after it, so "${${ZCODE_X}}"
			// style nesting still finds inner references.
			b.WriteString("${")
			s = s[2:]
		}
		i = strings.Index(s, "${")
	}
	b.WriteString(s)
	return b.String(), nil
}

// usesSkillDir reports whether s refers to ZCODE_SKILL_DIR, braced (which
// Expand refuses) or not (which a shell would silently expand to nothing).
func usesSkillDir(s string) bool {
	return strings.Contains(s, skillDirRef) || strings.Contains(s, "$"+hook.EnvSkillDir)
}
