package audit_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agentgate/agentgate/audit"
)

// The fast decoder agrees with encoding/json on every valid object, and
// rejects what encoding/json rejects.
func FuzzParseAgreesWithJSON(f *testing.F) {
	for _, s := range []string{
		`{"time":"t","seq":3,"command":"a \"b\" \u00e9","argv":["x"],"exit_code":2,"shell":{"nodes":[{"k":[1,2.5e3,true,null]}]}}`,
		`{"seq":1}`, `{}`, `{"seq":1,}`, `{"seq":01}`, `[1]`, `{"a":"\x"}`, `{"command":"tab\there","seq":9}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want audit.Entry
		jerr := json.Unmarshal(b, &want)
		got, err := audit.Parse(audit.Line{Raw: b})
		if jerr != nil {
			if err == nil {
				t.Fatalf("%q: accepted, but encoding/json says %v", b, jerr)
			}
			return
		}
		if want.Seq <= 0 {
			return // older version: rejected either way
		}
		if err != nil {
			t.Fatalf("%q: rejected (%v), but encoding/json accepts it", b, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\nfast %+v\njson %+v", b, got, want)
		}
	})
}
