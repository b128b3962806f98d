package v2bridge

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/hookside/hookside/v2bridge/expr"
)

// TestValidateNamesWrongTypesWithoutDecoderText: a member of the wrong JSON
// type is a validation problem at its own path (code invalid_type), never
// Go's decoder message, in validate and in create alike.
func TestValidateNamesWrongTypesWithoutDecoderText(t *testing.T) {
	cases := []struct{ def, path string }{
		{`{"name":"x","eventName":"turn.failed","action":{"type":"notification","title":"Done"}}`, "action.title"},
		{`{"name":"x","eventName":"turn.failed","condition":"yes","action":{"type":"sound"}}`, "condition"},
		{`{"name":"x","eventName":"turn.failed","action":{"type":"tool","target":{"sourceKind":"connector","sourceId":"c","toolName":"t"}},"inputMapping":{"channel":"general"}}`, "inputMapping.channel"},
		{`{"name":7,"eventName":"turn.failed","action":{"type":"sound"}}`, "name"},
		{`{"name":"x","eventName":"turn.failed","action":"notification"}`, "action"},
		{`["not","an","object"]`, ""},
	}
	for _, c := range cases {
		res, err := ValidateDefinition(json.RawMessage(c.def))
		if err != nil {
			t.Fatalf("%s: validate answered an error, want problems: %v", c.def, err)
		}
		if res.Valid || len(res.Problems) != 1 || res.Problems[0].Path != c.path || res.Problems[0].Code != expr.CodeInvalidType {
			t.Fatalf("%s: %+v, want one invalid_type problem at %q", c.def, res, c.path)
		}
		msg := res.Problems[0].Message
		if strings.Contains(msg, "json:") || strings.Contains(msg, "Go ") || strings.Contains(msg, "unmarshal") {
			t.Fatalf("%s: decoder text leaked: %q", c.def, msg)
		}
		_, err = decodeDefinition(json.RawMessage(c.def), "definition")
		var ie *InvalidError
		want := "definition"
		if c.path != "" {
			want += "." + c.path
		}
		if !errors.As(err, &ie) || ie.Field != want || strings.Contains(ie.Reason, "unmarshal") {
			t.Fatalf("%s: create error %#v, want field %q", c.def, err, want)
		}
	}
}

func TestValidateWarnsAboutDoubleBraces(t *testing.T) {
	res, err := ValidateDefinition(json.RawMessage(`{"name":"x","eventName":"turn.completed","action":{"type":"notification","title":{"template":"{{session.title}} done"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Valid || len(res.Problems) != 1 || res.Problems[0].Code != expr.CodeDoubleBraces || res.Problems[0].Severity != expr.SeverityWarning || res.Problems[0].Path != "action.title.template" {
		t.Fatalf("%+v", res)
	}
}
