package jsonexact

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// decodeAllowed are the product functions that may call json.Unmarshal or
// json.NewDecoder themselves ("file:function", from the module root), and
// why: none of them decodes into a struct from a document names could be
// folded in.
var decodeAllowed = map[string]string{
	"internal/jsonexact/jsonexact.go:Unmarshal":     "this package: encoding/json after the names were made exact",
	"internal/jsonexact/jsonexact.go:memberName":    "decodes one JSON string",
	"internal/jsonpos/jsonpos.go:newWalker":         "reads tokens (object keys come as written)",
	"runner/config/jsontree.go:parseTree":           "reads tokens into its own tree; looks keys up exactly",
	"runner/config/claude_delegated.go:rawAt":       "decodes into json.RawMessage",
	"internal/jsonpos/fault.go:Check":               "decodes into json.RawMessage, for the syntax error of data that is not JSON",
	"runner/claude_delegate.go:SubstituteToolInput": "decodes into any (maps keep names as written), with UseNumber",
	"v2bridge/expr/object.go:DecodeOrdered":         "reads tokens into *Object (names as written)",
	"v2bridge/expr/stable.go:toGeneric":             "decodes its own json.Marshal output into any, with UseNumber",
	"rpc/stream.go:ReadObject":                      "the frame's members are taken exactly (topLevel, responseFrame) before the library decodes its own Response",
	"rpc/stream.go:jsonString":                      "decodes one JSON string",
	"rpc/stream.go:validateFrame":                   "decodes into probe only when topLevel cannot, for a valid object (it always can)",
	"rpc/stream.go:validID":                         "decodes one JSON string",
	"truststore/pin/entry.go:readManifest":          "its own manifest file, kept by truststore/pin",
}

// notProduct are the trees outside the product: nothing in it imports
// them (docs/architecture.md).
var notProduct = []string{"tools/", "bench/", "examples/", "conformance/"}

// TestDecodesGoThroughJsonexact: outside decodeAllowed, product code
// decodes JSON with jsonexact.Unmarshal, so member names are exact
// everywhere (docs/protocol.md §1); a new json.Unmarshal or
// json.NewDecoder fails here until it is converted or allowed with a
// reason.
func TestDecodesGoThroughJsonexact(t *testing.T) {
	root := filepath.Join("..", "..")
	used := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			for _, np := range notProduct {
				if rel+"/" == np {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		for _, site := range decodeSites(t, p) {
			key := rel + ":" + site.fn
			if _, ok := decodeAllowed[key]; ok {
				used[key] = true
				continue
			}
			t.Errorf("%s:%d: json.%s in %s: decode with jsonexact.Unmarshal (member names are exact), or add %q to decodeAllowed with the reason", rel, site.line, site.call, site.fn, key)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key := range decodeAllowed {
		if !used[key] {
			t.Errorf("decodeAllowed has %q, which no longer decodes: remove it", key)
		}
	}
}

type decodeSite struct {
	fn, call string
	line     int
}

// decodeSites lists the references to encoding/json's Unmarshal and
// NewDecoder in file p, with the function they are in.
func decodeSites(t *testing.T, p string) []decodeSite {
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	name := ""
	for _, im := range f.Imports {
		if path, _ := strconv.Unquote(im.Path.Value); path == "encoding/json" {
			name = "json"
			if im.Name != nil {
				name = im.Name.Name
			}
		}
	}
	if name == "" {
		return nil
	}
	var out []decodeSite
	for _, decl := range f.Decls {
		fn := "(top level)"
		if fd, ok := decl.(*ast.FuncDecl); ok {
			fn = fd.Name.Name
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == name && (sel.Sel.Name == "Unmarshal" || sel.Sel.Name == "NewDecoder") {
				out = append(out, decodeSite{fn: fn, call: sel.Sel.Name, line: fset.Position(sel.Pos()).Line})
			}
			return true
		})
	}
	return out
}
