package v2bridge

import (
	"strings"

	"github.com/hookside/hookside/v2bridge/expr"
)

// notificationText evaluates title and body (§6.1): an empty or blank title
// falls back to DefaultNotificationTitle(event, locale); an empty or blank
// body is not sent. Blank is JavaScript's trim() (BOM trimmed, U+0085 kept).
func notificationText(d *expr.Definition, env *expr.Envelope, locale string) (string, *string, error) {
	title := ""
	if d.Action.Title != nil {
		v, err := expr.EvalValue(d.Action.Title, env)
		if err != nil {
			return "", nil, err
		}
		title = textOf(v)
	}
	if expr.JSTrim(title) == "" {
		title = DefaultNotificationTitle(env.EventName, locale)
	}
	var body *string
	if d.Action.Body != nil {
		v, err := expr.EvalValue(d.Action.Body, env)
		if err != nil {
			return "", nil, err
		}
		if s := textOf(v); expr.JSTrim(s) != "" {
			body = &s
		}
	}
	return title, body, nil
}

func textOf(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return expr.JSNumber(x)
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	return expr.StableStringify(v)
}

// fallbackPhrases are the §6.1 phrases of the fallback title: the
// handbook's Chinese ones, and their English counterparts.
var fallbackPhrases = map[string][2]string{ // event → {en, zh}
	expr.EventTurnStarted:         {"Task started", "任务开始"},
	expr.EventPermissionRequested: {"Approval needed", "需要审批"},
	expr.EventQuestionRequested:   {"Your input is needed", "需要您的输入"},
	expr.EventResponseCommitted:   {"Response ready", "回答已生成"},
	expr.EventTurnCompleted:       {"Task completed", "任务完成"},
	expr.EventTurnFailed:          {"Task failed", "任务失败"},
	expr.EventTurnCancelled:       {"Task cancelled", "任务已取消"},
}

// DefaultNotificationTitle is the §6.1 fallback title of an event:
// "hookside - " + the event's phrase, in Chinese (the handbook's phrases)
// when locale is a zh tag ("zh", "zh-CN", "zh_Hant_TW", any case), else in
// English. An unknown event uses its name as the phrase.
func DefaultNotificationTitle(eventName, locale string) string {
	ph, ok := fallbackPhrases[eventName]
	if !ok {
		return "hookside - " + eventName
	}
	if IsChineseLocale(locale) {
		return "hookside - " + ph[1]
	}
	return "hookside - " + ph[0]
}

// IsChineseLocale reports whether a BCP 47 (or POSIX-style) locale tag's
// primary language subtag is zh.
func IsChineseLocale(locale string) bool {
	l := strings.ToLower(strings.TrimSpace(locale))
	return l == "zh" || strings.HasPrefix(l, "zh-") || strings.HasPrefix(l, "zh_") || strings.HasPrefix(l, "zh.")
}
