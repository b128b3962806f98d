package truststore

import (
	"sort"
	"testing"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

// The golden values below were computed by the JavaScript reference
// (workspace-hook-digest.ts as reproduced in digest_test.go) and are
// literal so byte compatibility is checked where node is not installed.

// goldenDigests maps each digestHooks case to its declaration digest.
var goldenDigests = map[string]string{
	"beyond_2_53":          "2d49d4e6f0a379548c317992f7d1fe8c75611ae1ff8f2eae6c3d7f8fbbfc9b0a",
	"control_chars":        "6a0fdb235b18582daa9dd4feb7da1b0b73d59967b94beeb37c012b307e4e3252",
	"empty_args":           "5aa6e237a8afd043a47e429caaa8fac458be5a9ff1d73aaab4e0be3636af548a",
	"empty_matcher":        "66cf747ce8d63d063d72471a96e694b79c748ae9866470c075210cc7d1c3a71c",
	"html_chars":           "d26577399df8b0bbe61ffd6a490aebeb30efe1474c99e4ce157c7dd97464433f",
	"indices_and_order":    "9971646fac0c06b838b451a0493a40603042f014876afd3ba479851ca8fa501d",
	"invalid_utf8_bytes":   "dc64e2f11a9c6bab985ffe109e98f3d331b67c324c0d54719485089f123978cb",
	"line_separators":      "e4c99142b93fc505ed32c8ca1cf35b992f4fa9f88c7ae5117f60f6c360523fdc",
	"many_args":            "2ef0887e491f78de11b28e46f658e2ea9609b4f4c3ced1cf3885e2dabf67fb72",
	"negative_and_zero":    "144529ab8eecf574bf495e622ae441daca3b361183caa77478dd524f783721b7",
	"nil_args":             "5aa6e237a8afd043a47e429caaa8fac458be5a9ff1d73aaab4e0be3636af548a",
	"nil_matcher":          "4e648dd84edab8a7b445eaf2eea0e222971ef4aa65e195ba99370bf29c54add6",
	"non_ascii":            "d5eb1cbffe89d6fc0dc352e8b4bfd24488124c92f6840ccd2017bd724894e52f",
	"non_ascii_path_event": "fed47af3c63db63c79053e4f964d92236a7c8c30400f280cf254636f390602a9",
	"quotes_backslashes":   "aeb77882801f875f466e9eb558623566c058e90b6e1a92534bb4d902454cbc18",
	"readme_process":       "a9cf4974fbe8e31d2e1ac077ddb6d3bebab0e78088eea70d0966396b8de6100f",
	"shell_string":         "4c4ae4c536f101e7b95549ff82c32ccc15fb49b5d5a6bce302852efda71d425a",
	"shell_true_async":     "00a4d688257779f4e1aea0d02f0536aab5a6e81b5ebea29fc99c6ecb688e823c",
	"shell_unset":          "4c126b5338949223d140c268f6512cc8296f41bcddfc6d66f648897695aee978",
	"shell_zero_kind":      "4c126b5338949223d140c268f6512cc8296f41bcddfc6d66f648897695aee978",
	"unknown_type":         "801049022706c02200f7fab84c4a57ea42f12e664a8d98ba5925053a12686480",
}

func TestDigestGolden(t *testing.T) {
	hooks := digestHooks()
	if len(hooks) != len(goldenDigests) {
		t.Fatalf("%d cases, %d golden digests", len(hooks), len(goldenDigests))
	}
	for name, want := range goldenDigests {
		t.Run(name, func(t *testing.T) {
			h, ok := hooks[name]
			if !ok {
				t.Fatalf("no case %q", name)
			}
			if got := Digest(h); got != want {
				t.Errorf("digest %s, golden %s\njson %s", got, want, declarationJSON(h))
			}
		})
	}
}

func TestDeclarationJSONGolden(t *testing.T) {
	const want = `["workspace-hook-declaration",1,".zcode/config.json",1,"PreToolUse","^(Bash|Write|Edit)$",0,0,["command","grep -q \"x\" < in.txt > out.txt 2>&1 & wait",false,["string","bash -lc"]],5000,32768]`
	if got := string(declarationJSON(digestHooks()["shell_string"])); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// goldenBundleInputs are the files and pins of TestBundleDigestMatchesJavaScript.
func goldenBundleInputs() ([]SourceFile, []pin.Pins) {
	files := []SourceFile{
		{RelativePath: "zcode.json", Content: []byte(`{"hooks":{}}`)},
		{RelativePath: ".zcode/config.json", Content: []byte("{\"hooks\":{\"events\":{}}}\n中文")},
		{RelativePath: "子/zcode.json", Content: nil},
	}
	pins := []pin.Pins{
		{Scripts: map[string]string{"hooks/x.sh": hexSum("x"), "hooks/gone.sh": pin.AbsentPin, "hooks/ext.sh": hexSum("e")},
			Links: map[string]string{"hooks/ext.sh": "/elsewhere/ext.sh"}, Globs: map[string]string{"hooks/*.py": hexSum("a.py")}},
		{Scripts: map[string]string{"hooks/x.sh": hexSum("x"), "子/a.sh": hexSum("z")}},
	}
	return files, pins
}

func TestBundleDigestGolden(t *testing.T) {
	const (
		wantBundle = "2fcaf69daa70617ed37c4d16de8c53c2f2b25912bfe0ffc6dbe977b351505b0a"
		wantPinned = "590fda3904cbfa6f43fd33fa431ea79a812aff48d6a939568c715a8290f75388"
	)
	hooks := digestHooks()
	names := make([]string, 0, len(hooks))
	for n := range hooks {
		names = append(names, n)
	}
	sort.Strings(names)
	hs := make([]hook.Hook, 0, len(names))
	for _, n := range names {
		hs = append(hs, hooks[n])
	}
	files, pins := goldenBundleInputs()
	if got := BundleDigest(files, hs); got != wantBundle {
		t.Errorf("bundle digest %s, golden %s", got, wantBundle)
	}
	if got := bundleDigestPinned(files, hs, pins); got != wantPinned {
		t.Errorf("pinned bundle digest %s, golden %s", got, wantPinned)
	}
}
