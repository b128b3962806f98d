package runner

import "testing"

func TestParseShebang(t *testing.T) {
	tests := []struct {
		head, interp, arg string
		cr, ok            bool
	}{
		{"#!/bin/sh\necho", "/bin/sh", "", false, true},
		{"#!/bin/bash\r\necho\r\n", "/bin/bash", "", true, true},
		{"#! /usr/bin/env  python3 -u \n", "/usr/bin/env", "python3 -u", false, true},
		{"#!/usr/bin/env node\r", "/usr/bin/env", "node", true, true},
		{"#!\t/bin/zsh", "/bin/zsh", "", false, true},
		{"#!\n", "", "", false, false},
		{"#!   \r\n", "", "", true, false},
		{"echo hi\n", "", "", false, false},
		{"", "", "", false, false},
		{" #!/bin/sh\n", "", "", false, false},
	}
	for _, tc := range tests {
		interp, arg, cr, ok := parseShebang([]byte(tc.head))
		if interp != tc.interp || arg != tc.arg || cr != tc.cr || ok != tc.ok {
			t.Errorf("parseShebang(%q) = %q, %q, %v, %v; want %q, %q, %v, %v", tc.head, interp, arg, cr, ok, tc.interp, tc.arg, tc.cr, tc.ok)
		}
	}
}

// FuzzParseShebang: any first line parses without panicking; a named
// interpreter holds no blank or line end, and ok says whether there is
// one.
func FuzzParseShebang(f *testing.F) {
	for _, s := range []string{"#!/bin/sh\n", "#!/bin/bash\r\n", "#! /usr/bin/env -S python3 -u\n", "#!", "plain\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		interp, arg, _, ok := parseShebang(head)
		if ok != (interp != "") {
			t.Fatalf("ok %v with interpreter %q", ok, interp)
		}
		for _, c := range []byte(interp + arg) {
			if c == '\n' {
				t.Fatalf("newline in %q %q", interp, arg)
			}
		}
		for _, c := range []byte(interp) {
			if c == ' ' || c == '\t' {
				t.Fatalf("blank in interpreter %q", interp)
			}
		}
	})
}
