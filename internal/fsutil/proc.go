package fsutil

import (
	"os"
	"strings"
)

// StatFields are the fields of /proc/PID/stat from the third (state) on.
// The command name, the second, may hold spaces and parentheses, so the
// fields are counted after its closing parenthesis: field N is [N-3].
func StatFields(pid string) ([]string, bool) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return nil, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, false
	}
	return strings.Fields(s[i+1:]), true
}
