package fsutil

import (
	"os"
	"syscall"
)

// Links is a file's count of names: more than one is a hard link, another
// name for the same file. 1 when the system does not say.
func Links(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
