package gitsafe

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// maxIndexRead bounds the index files read in process; a larger one is
// left to git.
const maxIndexRead = 64 << 20

// readGitlinks lists the paths of the gitlinks (mode 160000) in the index
// of repo as "git ls-files --stage" would, reading the file itself: that
// saves starting git on every judgement of a git command. It reads only
// what it knows whole: index versions 2 and 3 with the repository's
// object names (SHA-1 or SHA-256), a checksum that matches (git checks it
// only in fsck), no split or sparse index, no GIT_INDEX_FILE.
// For anything else known is false and the caller asks git, so a form
// this reader does not speak is never read differently from git.
func readGitlinks(repo repository, environ []string) (paths []string, known bool) {
	entries, known := readIndex(repo, environ)
	if !known {
		return nil, false
	}
	for _, e := range entries {
		if e.gitlink() {
			paths = append(paths, e.name)
		}
	}
	return paths, true
}

// indexEntry is one entry of the index: its mode, path and object name
// (in hex).
type indexEntry struct {
	mode uint32
	name string
	oid  string
}

// gitlink reports git's S_ISGITLINK: "160644" is a gitlink too.
func (e indexEntry) gitlink() bool { return e.mode&0o170000 == 0o160000 }

// regular reports git's S_ISREG for an entry's mode.
func (e indexEntry) regular() bool { return e.mode&0o170000 == 0o100000 }

// readIndex reads the index's entries in process, as [readGitlinks]
// describes; known is false for a form left to git.
func readIndex(repo repository, environ []string) (entries []indexEntry, known bool) {
	if getenv(environ, "GIT_INDEX_FILE") != "" {
		return nil, false
	}
	p := filepath.Join(repo.gitDir, "index")
	fi, err := os.Lstat(p)
	if os.IsNotExist(err) {
		// No index: git lists nothing. A dangling link is not
		// "no index" to git's open, so only a missing name is.
		return nil, true
	}
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxIndexRead {
		return nil, false
	}
	data, err := os.ReadFile(p)
	if err != nil || int64(len(data)) != fi.Size() {
		return nil, false
	}
	// The name length is the repository's, as git takes it: guessed from
	// the checksum, one file read as SHA-1 by git and as SHA-256 here
	// hid a submodule (git checks no sum outside fsck).
	hashLen, ok := objectFormat(repo)
	if !ok {
		return nil, false
	}
	return lastIndex.parse(data, hashLen)
}

// lastIndex is the last index file parsed and its entries: one judgement
// reads the index up to three times (its submodules, git grep's links,
// the paths a reader reads), and a 30,000-file index takes a
// millisecond or two to compare, ten to parse. Only bytes equal to the
// ones parsed are taken as parsed, so a changed file is read anew.
var lastIndex indexMemo

type indexMemo struct {
	mu      sync.Mutex
	data    []byte
	hashLen int
	entries []indexEntry
	ok      bool
}

// parse is [parseIndex], from memory when data is the last one parsed.
// The entries are shared: callers only read them.
func (m *indexMemo) parse(data []byte, hashLen int) ([]indexEntry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.data != nil && m.hashLen == hashLen && bytes.Equal(m.data, data) {
		return m.entries, m.ok
	}
	m.entries, m.ok = parseIndex(data, hashLen)
	m.data, m.hashLen = data, hashLen
	return m.entries, m.ok
}

// objectFormat is the length of the repository's object names, from
// extensions.objectFormat in its configuration (SHA-1 when unset); ok is
// false when the configuration cannot be read or names another format.
func objectFormat(repo repository) (hashLen int, ok bool) {
	data, err := fsutil.ReadRegular(filepath.Join(repo.commonDir, "config"), maxConfigSize)
	if err != nil {
		return 0, false
	}
	if _, simple := parseSimple(data); !simple && !mayNameFormat(data) {
		// extensions.objectFormat cannot be written without its
		// name: no need to run git to know it is unset.
		return sha1.Size, true
	}
	entries, err := listConfig(data)
	if err != nil {
		return 0, false
	}
	format := "sha1"
	for _, e := range entries {
		if strings.EqualFold(e.key, "extensions.objectformat") {
			format = strings.ToLower(e.value)
		}
	}
	switch format {
	case "sha1":
		return sha1.Size, true
	case "sha256":
		return sha256.Size, true
	}
	return 0, false
}

// mayNameFormat reports whether a configuration file may set
// extensions.objectFormat: a key's name has no escapes or continuations,
// so it holds "objectformat" in some case.
func mayNameFormat(data []byte) bool {
	return bytes.Contains(bytes.ToLower(data), []byte("objectformat"))
}

// parseIndex reads an index file whose object names are hashLen bytes
// and returns its entries, in index order; ok is false for
// anything but a whole, checksummed version 2 or 3 index without the
// extensions that move entries elsewhere (split index "link", sparse
// directories "sdir").
func parseIndex(data []byte, hashLen int) (entries []indexEntry, ok bool) {
	if len(data) < 12+hashLen || string(data[:4]) != "DIRC" {
		return nil, false
	}
	body, sum := data[:len(data)-hashLen], data[len(data)-hashLen:]
	if !bytes.Equal(sum, make([]byte, hashLen)) { // index.skipHash writes zeros, which git does not check
		var h []byte
		if hashLen == sha1.Size {
			s := sha1.Sum(body)
			h = s[:]
		} else {
			s := sha256.Sum256(body)
			h = s[:]
		}
		if !bytes.Equal(h, sum) {
			return nil, false
		}
	}
	version := binary.BigEndian.Uint32(body[4:])
	if version != 2 && version != 3 {
		return nil, false // version 4 compresses names: git reads it
	}
	count := binary.BigEndian.Uint32(body[8:])
	off := 12
	for range count {
		// ctime, mtime (8 each), dev, ino, mode, uid, gid, size (4
		// each), the object name, 16 bits of flags.
		fixed := 40 + hashLen + 2
		if off+fixed > len(body) {
			return nil, false
		}
		mode := binary.BigEndian.Uint32(body[off+24:])
		flags := binary.BigEndian.Uint16(body[off+40+hashLen:])
		n := off + fixed
		if flags&0x4000 != 0 { // extended flags
			// Only intent-to-add and skip-worktree are defined:
			// git refuses an entry with any other bit.
			if version < 3 || n+2 > len(body) || binary.BigEndian.Uint16(body[n:])&^0x6000 != 0 {
				return nil, false
			}
			n += 2
		}
		end := bytes.IndexByte(body[n:], 0)
		if end <= 0 {
			return nil, false
		}
		name := body[n : n+end]
		if nameLen := int(flags & 0xfff); nameLen != 0xfff && nameLen != len(name) || nameLen == 0xfff && len(name) < 0xfff {
			return nil, false
		}
		// Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
		entryLen := (n - off + len(name) + 8) &^ 7
		if off+entryLen > len(body) {
			return nil, false
		}
		for _, b := range body[n+len(name) : off+entryLen] {
			if b != 0 {
				return nil, false
			}
		}
		entries = append(entries, indexEntry{mode: mode, name: string(name), oid: hex.EncodeToString(body[off+40 : off+40+hashLen])})
		off += entryLen
	}
	// Extensions until the checksum: a signature and a length each.
	for off < len(body) {
		if off+8 > len(body) {
			return nil, false
		}
		sig := string(body[off : off+4])
		size := int(binary.BigEndian.Uint32(body[off+4:]))
		if size < 0 || off+8+size > len(body) {
			return nil, false
		}
		if sig[0] < 'A' || sig[0] > 'Z' {
			// One git must understand: "link" (split index) and
			// "sdir" (sparse directories) hold entries elsewhere.
			return nil, false
		}
		off += 8 + size
	}
	return entries, true
}

// TrackedPath is a path the index holds, as a reader of the working tree
// (git grep, git diff) reaches it.
type TrackedPath struct {
	// Name is the path as the index holds it, relative to the work tree.
	Name string
	// Plain reports whether git itself would add such a path: no empty,
	// ".", ".." or ".git" component, not absolute. git reads any path an
	// index holds, so one planted as "src/../../.ssh/id_rsa" is read
	// there.
	Plain bool
	// Gitlink is set for a submodule's entry: git diff --submodule=diff
	// and git status read its own index and tree.
	Gitlink bool
	oid     string
}

// TrackedPaths lists the paths the index of the repository at dir holds,
// with the work tree's top: what git grep, git diff and git status -vv
// read from the working tree. At most maxIndexNames; past that, an error.
func TrackedPaths(dir string, environ []string) (top string, paths []TrackedPath, err error) {
	repo, err := discover(dir, "", "", "")
	if err != nil {
		return "", nil, err
	}
	if repo.top == "" {
		return "", nil, nil
	}
	entries, err := indexEntries(repo, environ, "the index")
	if err != nil {
		return "", nil, err
	}
	if len(entries) > maxIndexNames {
		return "", nil, fmt.Errorf("the index holds more than %d names", maxIndexNames)
	}
	for _, e := range entries {
		// Every entry, whatever its mode: git diff prints a regular
		// file found where the index has a link or a gitlink (a type
		// change), and git ls-files lists them all.
		paths = append(paths, TrackedPath{Name: e.name, Plain: plainPath(e.name), Gitlink: e.gitlink(), oid: e.oid})
	}
	return repo.top, paths, nil
}

// plainPath is git's verify_path, strictly: components that are not
// empty, ".", "..", or ".git" in any case, and no leading "/".
func plainPath(name string) bool {
	if name == "" || strings.HasPrefix(name, "/") {
		return false
	}
	for c := range strings.SplitSeq(name, "/") {
		if c == "" || c == "." || c == ".." || strings.EqualFold(c, ".git") {
			return false
		}
	}
	return true
}

// maxHashed bounds the files [TrackedPath.InIndex] reads.
const maxHashed = 16 << 20

// InIndex reports whether the working tree's file at the path, under
// top, holds exactly the index's object: its blob name, hashed as git
// hashes it, is the entry's. Reading it then tells nothing the
// repository does not hold already (git show :PATH prints it); the
// agent, which cannot read a secret, cannot name one's object either.
func (tp TrackedPath) InIndex(top string) bool {
	if tp.oid == "" {
		return false
	}
	data, err := fsutil.ReadRegular(filepath.Join(top, tp.Name), maxHashed)
	if err != nil {
		return false
	}
	if blobName(data, len(tp.oid)) == tp.oid {
		return true
	}
	// Checked out with CRLF line ends (core.autocrlf, eol=crlf), the file
	// is the object with "\n" written as "\r\n": its lines tell nothing
	// more (a tracked .env.example asked on every git grep there).
	return bytes.Contains(data, []byte("\r\n")) && blobName(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), len(tp.oid)) == tp.oid
}

// blobName is git's name of data as a blob, in hex of hexLen digits
// (SHA-1 or SHA-256); "" for another length.
func blobName(data []byte, hexLen int) string {
	header := fmt.Appendf(nil, "blob %d\x00", len(data))
	var sum []byte
	switch hexLen {
	case 2 * sha1.Size:
		h := sha1.New()
		h.Write(header)
		h.Write(data)
		sum = h.Sum(nil)
	case 2 * sha256.Size:
		h := sha256.New()
		h.Write(header)
		h.Write(data)
		sum = h.Sum(nil)
	default:
		return ""
	}
	return hex.EncodeToString(sum)
}
